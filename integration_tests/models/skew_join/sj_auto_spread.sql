-- skew_join: 'auto' on the spread inputs: k = 0 holds 80% of spread_left and
-- two rows of spread_right, over a broadcast budget of 1 row, so the measured
-- counts give a skew group whose slots the plan sizes from the share.
{{ config(skew_join={'auto': {'max_broadcast_rows': 1, 'total_slots': 40}}) }}
{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], columns=['a.id', 'a.k', 'b.label']) }}

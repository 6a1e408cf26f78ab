-- skew_join: 'auto': both sides measured at run time and the plan made from
-- the counts. k = 0 holds ~40% of typed_left and 5 rows of typed_right: over
-- a broadcast budget of 3 rows, so a skew group driven by a; k = 7 (10% of a)
-- a hot key; both sides' NULL keys (5% and 7%) bypass the join.
{{ config(skew_join={'auto': {'min_share': 0.04, 'max_broadcast_rows': 3}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'],
    columns=['a.id', 'a.k_int', 'b.rid', 'b.attr']) }}

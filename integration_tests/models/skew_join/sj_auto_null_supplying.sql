-- 'auto' where the hot key is on the null-supplying side: typed_right LEFT
-- JOIN typed_left, k = 0 heavy on b. The left join may not copy a, so a
-- group over budget is driven by a and copies b's rows.
{{ config(skew_join={'auto': {'min_share': 0.05, 'max_broadcast_rows': 2}}) }}
{{ skewjoin.skew_join(ref('typed_right'), ref('typed_left'), on=['k_big'], join_type='left',
    columns=['a.rid', 'a.k_big', 'b.id', 'b.payload']) }}

-- 'auto' on a left semi join (date key): each a row returned at most once.
{{ config(skew_join={'auto': {'min_share': 0.05, 'max_broadcast_rows': 2}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_date'], join_type='left semi',
    columns=['a.id', 'a.k_date', 'a.payload']) }}

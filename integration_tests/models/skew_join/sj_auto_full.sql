-- 'auto' on a full outer join (string key): neither side may be copied, so
-- a key over the broadcast budget is still broadcast, and the record says so.
{{ config(skew_join={'auto': {'min_share': 0.05, 'max_broadcast_rows': 2}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_str'], join_type='full outer',
    columns=['a.id', 'a.k_str', 'b.rid', 'b.k_str as b_k_str']) }}

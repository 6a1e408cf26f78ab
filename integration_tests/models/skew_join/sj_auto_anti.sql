-- 'auto' on a left anti join (timestamp key): exactly the unmatched a rows.
{{ config(skew_join={'auto': {'min_share': 0.05}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_ts'], join_type='left anti',
    columns=['a.id', 'a.k_ts']) }}

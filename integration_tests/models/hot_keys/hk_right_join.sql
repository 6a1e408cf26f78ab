{{ config(skew_join={'hot_keys': {'a': [0], 'b': [35, 0]}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='right', columns=['a.id', 'b.rid', 'b.k_int']) }}

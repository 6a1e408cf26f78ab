{{ config(skew_join={'hot_keys': {'a': [0, none], 'b': [35]}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left anti', columns=['a.id', 'a.k_int']) }}

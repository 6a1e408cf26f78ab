{{ config(skew_join={'hot_keys': {'a': [7], 'b': [0]}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left semi', columns=['a.id', 'a.k_int']) }}

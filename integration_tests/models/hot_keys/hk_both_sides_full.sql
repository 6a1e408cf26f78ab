-- Full outer join, different hot keys on each side and one hot on both.
{{ config(skew_join={'hot_keys': {'a': [0, 7, 3], 'b': [0, 35, none]}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='full', columns=['a.id', 'a.k_int', 'b.rid', 'b.k_int as b_k_int']) }}

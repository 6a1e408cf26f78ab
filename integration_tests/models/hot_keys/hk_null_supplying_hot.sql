-- Left join whose null-supplying side (b) is hot on 0: pairs by an inner
-- broadcast join, a's unmatched rows of the key repaired by an anti join.
{{ config(skew_join={'hot_keys': {'b': [0, 35]}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left', columns=['a.id', 'a.k_int', 'b.rid']) }}

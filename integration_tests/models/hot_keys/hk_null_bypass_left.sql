-- NULL declared as hot: rows of a with a NULL key bypass the join.
{{ config(skew_join={'hot_keys': [0, none]}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left', columns=['a.id', 'b.rid']) }}

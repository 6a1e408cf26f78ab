{{ config(skew_join={'hot_keys': ['0.25', 7.25]}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=[['k_dec', 'k_dec2']], join_type='left', columns=['a.id', 'a.k_dec', 'b.rid']) }}

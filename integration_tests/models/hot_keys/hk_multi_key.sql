{{ config(skew_join={'hot_keys': [[0, 'EU'], [0, 'NA'], [7, 'APAC']]}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int', 'region'], join_type='left', columns=['a.id', 'a.region', 'b.rid']) }}

-- The same hostile keys found at compile time: the values come from the data.
{{ config(skew_join={'hot_keys': {'a': 'auto', 'b': 'auto'}, 'hot_keys_options': {'min_share': 0.01, 'max_keys': 20}}) }}
{{ skewjoin.skew_join(ref('hostile_left'), ref('hostile_right'), on=['hkey'], join_type='full', columns=['a.hkey', 'a.pos', 'a.copy_no', 'b.label', 'b.hkey as b_hkey']) }}

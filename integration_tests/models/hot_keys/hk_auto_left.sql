-- Hot keys found at compile time (k = 0 holds ~40% of typed_left; NULL keys 5%).
{{ config(skew_join={'hot_keys': 'auto', 'hot_keys_options': {'min_share': 0.08}}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_big'], join_type='left', columns=['a.id', 'a.k_big', 'b.rid', 'b.attr']) }}

-- Hot key 0 of a single-file input: spread before the broadcast join.
{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], columns=['a.id', 'a.k', 'b.label'],
    skew={'hot_keys': 'auto', 'hot_keys_options': {'min_share': 0.5, 'spread_partitions': 10}}) }}

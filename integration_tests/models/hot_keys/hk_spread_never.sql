-- The same join with spreading turned off: the hot branch keeps the input's one split.
{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], columns=['a.id', 'a.k', 'b.label'],
    skew={'hot_keys': [0], 'hot_keys_options': {'spread': 'never'}}) }}

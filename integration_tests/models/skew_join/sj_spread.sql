-- A skew group of 10 slots for the hot key 0 (80% of spread_left).
{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], columns=['a.id', 'a.k', 'b.label'],
    skew={'total_slots': 20, 'groups': [{'when': 'a.k = 0', 'slots': 10}]}) }}

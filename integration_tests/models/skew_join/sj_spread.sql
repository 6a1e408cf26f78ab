-- A skew group of 30 of 40 slots for the hot key 0 (80% of spread_left).
{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], columns=['a.id', 'a.k', 'b.label'],
    skew={'total_slots': 40, 'groups': [{'when': 'a.k = 0', 'slots': 30}]}) }}

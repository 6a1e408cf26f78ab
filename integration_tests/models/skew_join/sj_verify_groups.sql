-- Declared groups verified against the data (verify: true here; the
-- project's var turns verification off for the other models): key 0 holds
-- 80% of spread_left (kept), key 8 holds 80 of its 40,000 rows, under one
-- slot's even share (1/40), so its group is dropped and key 8's rows are
-- ordinary rows.
{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], columns=['a.id', 'a.k', 'b.label'],
    skew={'total_slots': 40, 'verify': true,
          'groups': [{'when': 'a.k = 8', 'slots': 4}, {'when': 'a.k = 0', 'slots': 30}]}) }}

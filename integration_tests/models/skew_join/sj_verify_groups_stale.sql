-- A stale configuration: a group for key 8, which holds 80 of spread_left's
-- 40,000 rows. Verified (verify: true), the group is dropped and the
-- model is the plain join.
{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], columns=['a.id', 'a.k', 'b.label'],
    skew={'total_slots': 40, 'verify': true, 'groups': [{'when': 'a.k = 8', 'slots': 4}]}) }}

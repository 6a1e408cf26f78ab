-- Declared hot keys verified against the data (verify: true here; the
-- project's var turns verification off for the other models): key 0 holds
-- 80% of spread_left (kept), key 8 holds 80 of its 40,000 rows, under one
-- slot's even share (1/40), so it is dropped and its rows join in the
-- shuffle join. A left join: a is preserved, so its hot rows may be split.
{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], join_type='left',
    columns=['a.id', 'a.k', 'b.label'],
    skew={'total_slots': 40, 'verify': true, 'hot_keys': [8, 0], 'hot_keys_options': {'spread': 'never'}}) }}

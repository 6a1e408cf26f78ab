-- The seed's own example (HIVE-3286) on a src-like table, 20 slots:
-- group 0 on a (2 slots, random), group 1 on b (4 slots, by upper(b.key)),
-- group 2 on a (8 slots, by keys); the rest uses slots #0-#5.
{{ config(skew_join={
    'total_slots': 20,
    'groups': [
        {'when': "a.key = '0'", 'percent': 10},
        {'when': "b.key < '100'", 'percent': 20, 'distribute': 'upper(b.key)'},
        {'when': 'cast(a.key as int) > 300', 'percent': 40, 'distribute': 'keys'}
    ]
}) }}
{{ skewjoin.skew_join(ref('src'), ref('src'), on=['key'], columns=['a.key', 'a.value', 'b.value as b_value']) }}

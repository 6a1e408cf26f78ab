-- A pinned specification with hot keys and a group, as a unit test checks it:
-- key 0 by broadcast, keys 7 and above over 4 slots, the rest shuffled.
{{ config(skew_join={
    'hot_keys': [0],
    'groups': [{'when': 'a.k_int >= 7', 'slots': 4}],
    'total_slots': 8
}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left',
    columns=['a.id', 'a.k_int', 'b.rid', 'b.attr']) }}

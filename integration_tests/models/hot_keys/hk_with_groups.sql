-- Hot keys and skew groups together: 0 by broadcast, 7 by a skew group.
{{ config(skew_join={
    'hot_keys': [0],
    'groups': [{'when': 'a.k_int = 7', 'slots': 4}, {'when': 'a.k_int > 20', 'slots': 3, 'distribute': 'keys'}]
}) }}
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left', columns=['a.id', 'a.k_int', 'b.rid']) }}

{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_str'], join_type='left',
    columns=['a.id', 'a.k_str', 'b.rid', 'b.attr'],
    skew={'groups': [{'when': "a.k_str = '0'", 'slots': 5}, {'when': "upper(a.k_str) in ('7', '8')", 'slots': 2, 'distribute': 'keys'}]}) }}

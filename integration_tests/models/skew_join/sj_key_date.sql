{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_date'], join_type='full',
    columns=['a.id', 'a.k_date', 'b.rid', 'b.k_date as b_k_date'],
    skew={'groups': [{'when': "a.k_date = date'2026-01-01'", 'slots': 4, 'distribute': 'keys'}, {'when': "b.k_date >= date'2026-01-20'", 'slots': 1}]}) }}

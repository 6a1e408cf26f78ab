{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int', 'region'], join_type='left',
    columns=['a.id', 'a.k_int', 'a.region', 'b.rid'],
    skew={'groups': [
        {'when': "a.k_int = 0 and a.region = 'EU'", 'slots': 3},
        {'when': 'a.k_int = 0', 'slots': 2, 'distribute': 'keys'},
        {'when': "upper(a.region) < 'M'", 'slots': 2, 'distribute': 'a.payload'}
    ]}) }}

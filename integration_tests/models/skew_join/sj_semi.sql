{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left semi',
    columns=['a.id', 'a.k_int', 'a.payload'],
    skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}, {'when': 'b.k_int = 7', 'slots': 2, 'distribute': 'keys'}]}) }}

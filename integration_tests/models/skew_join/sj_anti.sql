{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left anti',
    skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}, {'when': 'a.k_int is null', 'slots': 2}]}) }}

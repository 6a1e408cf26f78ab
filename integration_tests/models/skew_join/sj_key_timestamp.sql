{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_ts'], join_type='right',
    columns=['a.id', 'b.rid', 'b.k_ts'],
    skew={'groups': [{'when': "b.k_ts = timestamp_seconds(1767225600)", 'slots': 4}]}) }}

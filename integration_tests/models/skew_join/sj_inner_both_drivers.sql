-- Groups driven by different sides, overlapping `when`s (first true wins).
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_big'],
    columns=['a.id', 'b.rid', 'a.k_big'],
    skew={'groups': [
        {'when': 'a.k_big = 0', 'slots': 5},
        {'when': 'b.k_big < 10', 'slots': 3},
        {'when': 'a.k_big < 20', 'slots': 2, 'distribute': 'hash(a.payload)'}
    ]}) }}

-- decimal(18,4) against decimal(10,2): compared as decimal(18,4) on both sides.
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=[['k_dec', 'k_dec2']], join_type='left',
    columns=['a.id', 'a.k_dec', 'b.rid', 'b.k_dec2'],
    skew={'groups': [{'when': 'a.k_dec = 0.25', 'slots': 6}, {'when': 'a.k_dec > 10', 'slots': 3, 'distribute': 'keys'}]}) }}

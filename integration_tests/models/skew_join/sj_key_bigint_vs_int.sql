-- int on the left, bigint on the right: groups computed on both as bigint.
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=[['k_int', 'k_big']],
    columns=['a.id', 'a.k_int', 'b.rid', 'b.k_big'],
    skew={'groups': [{'when': 'b.k_big = 0', 'slots': 3}, {'when': 'a.k_int between 5 and 9', 'slots': 4, 'distribute': 'keys'}]}) }}

-- string on the left, int on the right: Spark (ANSI) compares them as bigint,
-- so the group's `when` is evaluated on both sides as bigint.
{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=[['k_str', 'k_int']], join_type='left',
    columns=['a.id', 'a.k_str', 'b.rid', 'b.k_int'],
    skew={'groups': [{'when': 'a.k_str < 10', 'slots': 4}]}) }}

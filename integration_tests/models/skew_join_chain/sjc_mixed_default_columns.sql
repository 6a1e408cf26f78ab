-- A left then an inner join, hot keys only, default columns (clashing names
-- renamed): a row of a with a NULL key is dropped by the inner join.
{{ skewjoin.skew_join_chain(ref('typed_left'), [
    {'relation': ref('typed_right'), 'alias': 'b', 'join_type': 'left'},
    {'relation': ref('typed_right'), 'alias': 'c', 'join_type': 'inner'}
], on=['k_int'], skew={'hot_keys': [0, none]}) }}

-- A chain of left joins: k = 7 a hot key of a (joined by a chain of broadcast
-- joins), k = 0 a skew group, NULL keys of a kept once with NULLs.
{{ config(skew_join={'groups': [{'when': 'a.k_int = 0', 'slots': 6}], 'hot_keys': [7, none]}) }}
{{ skewjoin.skew_join_chain(ref('typed_left'), [
    {'relation': ref('typed_right'), 'alias': 'b', 'join_type': 'left', 'on': ['k_int']},
    {'relation': ref('spread_right'), 'alias': 'c', 'join_type': 'left', 'on': [['k_int', 'k']]}
], on=['k_int'], columns=['a.id', 'a.k_int', 'b.rid', 'c.label']) }}

-- A chain of two inner joins on one salting: typed_left's k = 0 (~40% of its
-- rows) is spread over 8 slots; typed_right's and spread_right's rows of k = 0
-- are copied to those 8 slots; both joins match on (k, slot), all keys bigint.
{{ config(skew_join={'groups': [{'when': 'a.k_big = 0', 'slots': 8}]}) }}
{{ skewjoin.skew_join_chain(ref('typed_left'), [
    {'relation': ref('typed_right'), 'alias': 'b'},
    {'relation': ref('spread_right'), 'alias': 'c', 'on': [['k_big', 'k']]}
], on=['k_big'], columns=['a.id', 'a.k_big', 'b.rid', 'b.attr', 'c.label']) }}

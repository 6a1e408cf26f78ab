/* skewjoin.skew_join_chain decision record (model unit_model)
  chain: a inner join b on a.k_int = b.k_int, then inner join c on a.k_int = c.k; keys compared as int; skew specification from argument skew
  group 1 group_1 dropped: 0.2% of a's rows (2 of 1,000), under 5% (one slot's even share, 1/20 slots): the data does not have the skew this group was declared for, and its slots would cost a slot per row and a (keys, slot) sort without splitting a straggler. Set verify: false to plan declared groups as written
  strategy: the plain chain of joins (no skew groups left after verification and no hot keys)
  measuring cost: 7 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: verification 1, <elapsed> s; column lists 4, <elapsed> s; settings 2, <elapsed> s
*/
select
    a.id,
    b.rid,
    c.label
from skewjoin_it.typed_left as a
inner join skewjoin_it.typed_right as b
    on a.k_int = b.k_int
inner join skewjoin_it.spread_right as c
    on a.k_int = c.k

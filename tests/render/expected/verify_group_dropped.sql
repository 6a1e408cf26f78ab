/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  group 1 group_1 dropped: 0.0% of a's rows (12 of 1,000,000), under 5% (one slot's even share, 1/20 slots): the data does not have the skew this group was declared for, and its slots would cost a slot per row and a (keys, slot) sort without splitting a straggler. Set verify: false to plan declared groups as written
  strategy: plain join (no skew groups left after verification and no hot keys)
  measuring cost: 4 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: verification 1, <elapsed> s; column lists 2, <elapsed> s; settings 1, <elapsed> s
*/
select
    a.id,
    b.rid
from skewjoin_it.typed_left as a
inner join skewjoin_it.typed_right as b
    on a.k_int = b.k_int

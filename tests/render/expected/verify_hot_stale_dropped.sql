/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  hot key 0 of a dropped: 0.0% of a's rows (9 of 1,000,000), under 5% (one slot's even share, 1/20 slots): the data does not have the skew it was declared for, and its broadcast branch would read both sides again without splitting a straggler. Set verify: false to plan declared hot keys as written
  hot key 1 of a dropped: 0.0% of a's rows (11 of 1,000,000), under 5% (one slot's even share, 1/20 slots): the data does not have the skew it was declared for, and its broadcast branch would read both sides again without splitting a straggler. Set verify: false to plan declared hot keys as written
  hot keys of a (declared): none
  hot keys: none to handle, so no hot-key branch
  strategy: plain join (no skew groups, hot keys dropped after verification)
  measuring cost: 4 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: verification 1, <elapsed> s; column lists 2, <elapsed> s; settings 1, <elapsed> s
*/
select
    a.id,
    b.rid
from skewjoin_it.typed_left as a
inner join skewjoin_it.typed_right as b
    on a.k_int = b.k_int

/* skewjoin.skew_join_chain decision record (model unit_model)
  chain: a left join b on a.k_int = b.k_int, then left join c on a.k_int = c.k; keys compared as int; skew specification from argument skew
  strategy: the plain chain of joins (no skew groups and no hot keys)
  measuring cost: 6 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 4, <elapsed> s; settings 2, <elapsed> s
*/
select
    a.id,
    b.rid,
    c.label
from skewjoin_it.typed_left as a
left join skewjoin_it.typed_right as b
    on a.k_int = b.k_int
left join skewjoin_it.spread_right as c
    on a.k_int = c.k

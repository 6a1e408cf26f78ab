/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join ('auto')
  auto: nothing measured: measuring needs a query and compile-time queries are off (var skewjoin_run_queries: false); the plain join is written
  strategy: plain join (no skew groups and no hot keys)
  measuring cost: 3 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 2, <elapsed> s; settings 1, <elapsed> s
*/
select
    a.id,
    a.k,
    b.label
from skewjoin_it.spread_left as a
inner join skewjoin_it.spread_right as b
    on a.k = b.k

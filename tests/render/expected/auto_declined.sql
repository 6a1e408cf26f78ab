/* skewjoin.skew_join decision record (model unit_model)
  inner join on a.k (int) = b.k (int); skew specification from config skew_join ('auto')
  skew plans declined: local Spark (local[2]) runs 2 tasks at once (default parallelism), fewer than min_parallelism 4 (from var('skewjoin_min_parallelism')); with so few cores a skewed key's task runs beside the others (the join stage takes at most 2x its balanced time), while every skew plan reads or copies rows the plain join does not. Set skew_join.min_parallelism: 1 (or var skewjoin_min_parallelism: 1) to plan anyway
  auto: nothing measured (skew plans are declined, see above)
  strategy: plain join (skew plans declined: this local Spark runs 2 tasks at once, fewer than min_parallelism 4; var skewjoin_min_parallelism: 1 plans them anyway)
  measuring cost: 5 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 2, <elapsed> s; parallelism 1, <elapsed> s; settings 2, <elapsed> s
*/
select
    a.id,
    a.k,
    b.label
from skewjoin_it.spread_left as a
inner join skewjoin_it.spread_right as b
    on a.k = b.k

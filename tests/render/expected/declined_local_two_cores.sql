/* skewjoin.skew_join decision record (model unit_model)
  left join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  skew plans declined: local Spark (local[*]) runs 2 tasks at once (default parallelism), fewer than min_parallelism 4 (from default); with so few cores a skewed key's task runs beside the others (the join stage takes at most 2x its balanced time), while every skew plan reads or copies rows the plain join does not. Set skew_join.min_parallelism: 1 (or var skewjoin_min_parallelism: 1) to plan anyway
  hot keys of b not measured: 'auto' is not run where the skew plans are declined
  hot keys: none to handle, so no hot-key branch
  strategy: plain join (skew plans declined: this local Spark runs 2 tasks at once, fewer than min_parallelism 4; var skewjoin_min_parallelism: 1 plans them anyway)
  measuring cost: 5 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 2, <elapsed> s; parallelism 1, <elapsed> s; settings 2, <elapsed> s
*/
select
    a.id,
    b.rid
from skewjoin_it.typed_left as a
left outer join skewjoin_it.typed_right as b
    on a.k_int = b.k_int

/* skewjoin.skew_join decision record (model unit_model)
  left join on a.k_int (int) = b.k_int (int); skew specification from argument skew
  output columns of b renamed to avoid duplicate names: k_big -> b_k_big, k_str -> b_k_str, k_date -> b_k_date, k_ts -> b_k_ts, region -> b_region
  hot keys of a not measured: 'auto' needs a query and compile-time queries are off (var skewjoin_run_queries: false)
  hot keys of b not measured: 'auto' needs a query and compile-time queries are off (var skewjoin_run_queries: false)
  hot keys: none to handle, so no hot-key branch
  strategy: plain join (no skew groups, hot keys declined)
  measuring cost: 3 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 2, <elapsed> s; settings 1, <elapsed> s
*/
select
    a.id,
    a.k_int,
    a.k_big,
    a.k_str,
    a.k_dec,
    a.k_date,
    a.k_ts,
    a.region,
    a.payload,
    b.rid,
    b.k_big as b_k_big,
    b.k_str as b_k_str,
    b.k_dec2,
    b.k_date as b_k_date,
    b.k_ts as b_k_ts,
    b.region as b_region,
    b.attr
from skewjoin_it.typed_left as a
left outer join skewjoin_it.typed_right as b
    on a.k_int = b.k_int

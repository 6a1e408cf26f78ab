/* skewjoin.prune_predicate decision record (model unit_model)
  big: skewjoin_it.prune_sales as f, partitioned by date_key
  small[0] prune_dates (inner join on f.date_key = date_key, filter: year = 2026 and month = 2): 28 distinct key(s); 2 row(s) with a NULL key dropped (NULL never matches)
  f.date_key: 28 values, above max_values 3: fallback range (between the min and max key: date_key from 2026-02-01 to 2026-02-28)
  partitions: 61 in total, 28 kept by the literal predicate on partition column(s) date_key (Spark lists and reads only those)
  key queries: <elapsed> s
  measuring cost: 7 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: key sets 1, <elapsed> s; catalog 2, <elapsed> s; column lists 2, <elapsed> s; partitions 1, <elapsed> s; settings 1, <elapsed> s
*/
(
    f.date_key between cast('2026-02-01' as date) and cast('2026-02-28' as date)
)

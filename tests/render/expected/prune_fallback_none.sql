select * from skewjoin_it.prune_sales as f where /* skewjoin.prune_predicate decision record (model unit_model)
  big: skewjoin_it.prune_sales as f, partitioned by date_key
  small[0] prune_dates (inner join on f.date_key = date_key, filter: year = 2026 and month = 2): 28 distinct key(s); 2 row(s) with a NULL key dropped (NULL never matches)
  f.date_key: 28 values, above max_values 5: fallback none (no predicate)
  partitions: 61 in total, all kept: no predicate on a partition column (date_key); the predicate filters rows at the scan
  key queries: <elapsed> s
  measuring cost: 6 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: key sets 1, <elapsed> s; catalog 2, <elapsed> s; column lists 2, <elapsed> s; settings 1, <elapsed> s
*/
true

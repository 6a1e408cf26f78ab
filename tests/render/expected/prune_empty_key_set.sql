/* skewjoin.prune_predicate decision record (model unit_model)
  big: skewjoin_it.prune_sales as f, partitioned by date_key
  small[0] prune_dates (inner join on f.date_key = date_key, filter: year = 2026 and month = 2): 0 distinct key(s); 2 row(s) with a NULL key dropped (NULL never matches)
  f.date_key: the key set is empty, so no row of the big table can match: predicate false (reads nothing)
  partitions: 61 in total, 0 kept (the predicate is false)
  key queries: <elapsed> s
  measuring cost: 7 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: key sets 1, <elapsed> s; catalog 2, <elapsed> s; column lists 2, <elapsed> s; partitions 1, <elapsed> s; settings 1, <elapsed> s
*/
false

/* skewjoin.prune_predicate decision record (model unit_model)
  big: skewjoin_it.prune_sales as f; partition metadata not read
  no predicate (true): compile-time queries are off (var skewjoin_run_queries: false), so no key of the small relations was collected and nothing is pruned
  measuring cost: 3 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 2, <elapsed> s; settings 1, <elapsed> s
*/
true

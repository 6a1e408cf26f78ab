/* skewjoin.prune_predicate decision record (model unit_model)
  big: skewjoin_it.prune_sales as f; partition metadata not read
  no predicate (true): run-time queries are off (var skewjoin_run_queries: false), so no key of the small relations was collected and nothing is pruned
*/
true

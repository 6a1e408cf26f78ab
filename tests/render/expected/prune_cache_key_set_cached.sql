select 1 where /* skewjoin.prune_predicate decision record (model unit_model)
  big: skewjoin_it.prune_sales as f, partitioned by date_key
  prune cache skewjoin_it.skewjoin_prune_cache, run 00000000-0000-4000-8000-000000000000: 1 of 1 key set(s) complete
  key set b84c9c700243b50c25ca34a6889ca544: {"relation": "skewjoin_it.prune_dates", "alias": "sj_small", "filter": "year = 2026 and month = 2", "keys": [["date_key", "date"]]}
  small[0] prune_dates (inner join on f.date_key = date_key, filter: year = 2026 and month = 2): 2 distinct key(s) (key set b84c9c700243, read from the prune cache); 3 row(s) with a NULL key dropped (NULL never matches)
  f.date_key: IN list of 2 values (<= max_values 1000)
  partitions: 0 in total, 0 kept by the literal predicate on partition column(s) date_key (Spark lists and reads only those)
  key queries: <elapsed> s
  measuring cost: 8 compile-time queries (2 reading data), <elapsed> s of wall time; by kind: key sets 1, <elapsed> s; prune cache 1, <elapsed> s; catalog 3, <elapsed> s; column lists 2, <elapsed> s; settings 1, <elapsed> s
*/
(
    f.date_key in (cast('2026-02-01' as date), cast('2026-02-02' as date))
)

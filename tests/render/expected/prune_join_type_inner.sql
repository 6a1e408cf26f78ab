select 1 where /* skewjoin.prune_predicate decision record (model unit_model)
  big: skewjoin_it.prune_sales as f, partitioned by date_key
  small[0] prune_dates (inner join on f.date_key = date_key, filter: year = 2026 and month = 2): 28 distinct key(s); 2 row(s) with a NULL key dropped (NULL never matches)
  f.date_key: IN list of 28 values (<= max_values 1000)
  partitions: 61 in total, 28 kept by the literal predicate on partition column(s) date_key (Spark lists and reads only those)
  key queries: <elapsed> s
  measuring cost: 7 compile-time queries (1 reading data), <elapsed> s of wall time; by kind: key sets 1, <elapsed> s; catalog 2, <elapsed> s; column lists 2, <elapsed> s; partitions 1, <elapsed> s; settings 1, <elapsed> s
*/
(
    f.date_key in (cast('2026-02-01' as date), cast('2026-02-02' as date), cast('2026-02-03' as date), cast('2026-02-04' as date), cast('2026-02-05' as date), cast('2026-02-06' as date), cast('2026-02-07' as date), cast('2026-02-08' as date), cast('2026-02-09' as date), cast('2026-02-10' as date), cast('2026-02-11' as date), cast('2026-02-12' as date), cast('2026-02-13' as date), cast('2026-02-14' as date), cast('2026-02-15' as date), cast('2026-02-16' as date), cast('2026-02-17' as date), cast('2026-02-18' as date), cast('2026-02-19' as date), cast('2026-02-20' as date), cast('2026-02-21' as date), cast('2026-02-22' as date), cast('2026-02-23' as date), cast('2026-02-24' as date), cast('2026-02-25' as date), cast('2026-02-26' as date), cast('2026-02-27' as date), cast('2026-02-28' as date))
)

select 1 where /* skewjoin.prune_predicate decision record (model unit_model)
  big: skewjoin_it.prune_sales as f, partitioned by date_key
  prune cache skewjoin_it.skewjoin_prune_cache, run 00000000-0000-4000-8000-000000000000: 0 of 1 key set(s) complete
  key set b84c9c700243b50c25ca34a6889ca544: {"relation": "skewjoin_it.prune_dates", "alias": "sj_small", "filter": "year = 2026 and month = 2", "keys": [["date_key", "date"]]}
  small[0] prune_dates (inner join on f.date_key = date_key, filter: year = 2026 and month = 2): key set b84c9c700243 is not in the prune cache for this run yet
  f.date_key: a semi join against the cached key set(s) b84c9c700243, read when the query runs (the pre_hook {{ skewjoin.prune_key_sets() }} computes them before it; the query stops with an error if they are missing then); no key is collected while rendering
  partitions: 0 in total; the key set on partition column(s) date_key is read from the prune cache when the query runs, so Spark prunes by it then (dynamic partition pruning): how many it keeps is not known while rendering
  key queries: <elapsed> s
  measuring cost: 6 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: catalog 3, <elapsed> s; column lists 2, <elapsed> s; settings 1, <elapsed> s
*/
(
    f.date_key in (
        select sj_keys.sj_k0
        from (
            select distinct
                sj_small.date_key as sj_k0
            from (
                select cast(sj_cache.sj_values[0] as date) as date_key
                from skewjoin_it.skewjoin_prune_cache as sj_cache
                where sj_cache.sj_run = '00000000-0000-4000-8000-000000000000' and sj_cache.sj_key_set = 'b84c9c700243b50c25ca34a6889ca544'
                    and sj_cache.sj_kind = 'key'
                union all
                select cast(raise_error(concat('skewjoin.prune_predicate in model ', chr(39), 'unit_model', chr(39), ': the key set b84c9c700243 of small[0] prune_dates is not in the prune cache skewjoin_it.skewjoin_prune_cache for run 00000000-0000-4000-8000-000000000000. Compute it before the query runs: pre_hook="{{ skewjoin.prune_key_sets() }}" in the model', chr(39), 's config, or on-run-start (for a relation the run does not build)')) as date) as date_key
                from (
                    select count(*) as sj_done
                    from skewjoin_it.skewjoin_prune_cache as sj_cache
                    where sj_cache.sj_run = '00000000-0000-4000-8000-000000000000' and sj_cache.sj_key_set = 'b84c9c700243b50c25ca34a6889ca544'
                        and sj_cache.sj_kind = 'done'
                ) as sj_check
                where sj_check.sj_done = 0
            ) as sj_small
            where sj_small.date_key is not null
        ) as sj_keys
    )
)

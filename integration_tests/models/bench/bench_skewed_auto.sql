-- Benchmark scenario e with hot keys found at run time ('auto'), as a user
-- who has not profiled the data would write it.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('skewed', {'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

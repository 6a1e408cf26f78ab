-- Benchmark scenario e with hot keys found at compile time ('auto'), as a user
-- who has not profiled the data would write it.
-- The model is the join alone, one skewjoin.skew_join call, as a user's is.
{{ config(enabled=var('skewjoin_bench', false)) }}
{% set skew = {'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)} %}
{{ skewjoin.skew_join(**bench_join_args('skewed', skew)) }}

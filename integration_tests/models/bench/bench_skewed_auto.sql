-- Benchmark scenario e with hot keys found at run time ('auto'), as a user
-- who has not profiled the data would write it.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.skew_join(
    source('skewjoin_bench', 'bench_fact_skewed'),
    source('skewjoin_bench', 'bench_dim'),
    on=['k'],
    columns=['f.fact_id', 'f.k', 'f.amount', 'f.tag', 'd.dim_row', 'd.attr', 'd.weight'],
    left_alias='f',
    right_alias='d',
    skew={'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}
) }}

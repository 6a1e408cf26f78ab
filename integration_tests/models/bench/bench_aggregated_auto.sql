-- Benchmark scenario d with hot keys found at run time ('auto'), then the
-- aggregate by key.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_aggregate_by_key(skewjoin.skew_join(
    source('skewjoin_bench', 'bench_fact_skewed'),
    source('skewjoin_bench', 'bench_dim'),
    on=['k'],
    columns=['f.k', 'f.amount', 'd.dim_row'],
    left_alias='f',
    right_alias='d',
    skew={'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}
)) }}

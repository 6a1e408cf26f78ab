-- Benchmark, dataset aggregated, with skew_join: 'auto': nothing declared; both
-- sides measured at run time and the whole plan (hot keys, skew groups, NULL
-- bypass) made from the counts.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_aggregate_by_key(skewjoin.skew_join(
    source('skewjoin_bench', 'bench_fact_skewed'),
    source('skewjoin_bench', 'bench_dim'),
    on=['k'],
    columns=['f.k', 'f.amount', 'd.dim_row'],
    left_alias='f',
    right_alias='d',
    skew={'auto': {'total_slots': var('skewjoin_bench_total_slots', 200)}}
)) }}

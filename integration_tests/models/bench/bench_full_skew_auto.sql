-- Benchmark, dataset full, with skew_join: 'auto': nothing declared; both
-- sides measured at run time and the whole plan (hot keys, skew groups, NULL
-- bypass) made from the counts.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.skew_join(
    source('skewjoin_bench', 'bench_fact_skewed'),
    source('skewjoin_bench', 'bench_dim_hot'),
    on=['k'],
    join_type='full',
    columns=['f.fact_id', 'f.k', 'f.amount', 'f.tag', 'd.k as d_k', 'd.dim_row', 'd.attr'],
    left_alias='f',
    right_alias='d',
    skew={'auto': {'total_slots': var('skewjoin_bench_total_slots', 200)}}
) }}

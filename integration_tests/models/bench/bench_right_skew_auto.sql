-- Benchmark, dataset right, with skew_join: 'auto': nothing declared; both
-- sides measured at run time and the whole plan (hot keys, skew groups, NULL
-- bypass) made from the counts.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.skew_join(
    source('skewjoin_bench', 'bench_fact_skewed'),
    source('skewjoin_bench', 'bench_dim'),
    on=['k'],
    join_type='right',
    columns=['d.k', 'd.dim_row', 'd.attr', 'f.fact_id', 'f.amount', 'f.tag'],
    left_alias='f',
    right_alias='d',
    skew={'auto': {'total_slots': var('skewjoin_bench_total_slots', 200)}}
) }}

-- Benchmark, dataset uniform, with skew_join: 'auto': nothing declared; both
-- sides measured at run time and the whole plan (hot keys, skew groups, NULL
-- bypass) made from the counts.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.skew_join(
    source('skewjoin_bench', 'bench_fact_uniform'),
    source('skewjoin_bench', 'bench_dim'),
    on=['k'],
    columns=['f.fact_id', 'f.k', 'f.amount', 'f.tag', 'd.dim_row', 'd.attr', 'd.weight'],
    left_alias='f',
    right_alias='d',
    skew={'auto': {'total_slots': var('skewjoin_bench_total_slots', 200)}}
) }}

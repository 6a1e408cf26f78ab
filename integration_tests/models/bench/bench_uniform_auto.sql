-- Benchmark: hot keys 'auto' on the uniform fact (no key reaches min_share,
-- so the macro emits the plain join).
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.skew_join(
    source('skewjoin_bench', 'bench_fact_uniform'),
    source('skewjoin_bench', 'bench_dim'),
    on=['k'],
    columns=['f.fact_id', 'f.k', 'f.amount', 'f.tag', 'd.dim_row', 'd.attr', 'd.weight'],
    left_alias='f',
    right_alias='d',
    skew={'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}
) }}

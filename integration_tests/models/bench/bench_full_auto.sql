-- Benchmark scenario b with skewjoin: hot keys of both sides found at run time.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.skew_join(
    source('skewjoin_bench', 'bench_fact_skewed'),
    source('skewjoin_bench', 'bench_dim_hot'),
    on=['k'],
    join_type='full',
    columns=['f.fact_id', 'f.k', 'f.amount', 'f.tag', 'd.k as d_k', 'd.dim_row', 'd.attr'],
    left_alias='f',
    right_alias='d',
    skew={'hot_keys': {'f': 'auto', 'd': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}
) }}

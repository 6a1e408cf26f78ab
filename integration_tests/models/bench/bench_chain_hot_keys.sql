-- Benchmark scenario f with skew_join_chain and the fact's skewed keys as hot
-- keys: its hot rows meet broadcast copies of both dimensions' rows of those
-- keys, one join after the other, never shuffled.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.skew_join_chain(
    source('skewjoin_bench', 'bench_fact_skewed'),
    [
        {'relation': source('skewjoin_bench', 'bench_dim'), 'alias': 'd1'},
        {'relation': source('skewjoin_bench', 'bench_dim_hot'), 'alias': 'd2'}
    ],
    on=['k'],
    columns=['f.fact_id', 'f.k', 'f.amount', 'd1.dim_row', 'd1.attr', 'd2.dim_row as d2_row'],
    left_alias='f',
    skew={'hot_keys': var('skewjoin_bench_hot_keys', [0]), 'total_slots': var('skewjoin_bench_total_slots', 200)}
) }}

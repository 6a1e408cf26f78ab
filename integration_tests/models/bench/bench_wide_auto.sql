-- Benchmark scenario c with skewjoin: hot keys of the fact found at run time;
-- the dimension's rows of those keys are broadcast (multicast to every task
-- of the fact's scan).
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.skew_join(
    source('skewjoin_bench', 'bench_fact_skewed'),
    source('skewjoin_bench', 'bench_dim_wide'),
    on=['k'],
    columns=['f.fact_id', 'f.k', 'f.amount', 'd.dim_row', 'd.weight'],
    left_alias='f',
    right_alias='d',
    skew={'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}
) }}

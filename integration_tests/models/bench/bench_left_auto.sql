-- Benchmark scenario a with skewjoin as a user would write it: hot keys of
-- the fact found at run time ('auto'); the fact's hot rows join a broadcast
-- copy of the dimension's rows of those keys, the dimension's rows of those
-- keys without a match come from an anti join against their distinct keys.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.skew_join(
    source('skewjoin_bench', 'bench_dim'),
    source('skewjoin_bench', 'bench_fact_skewed'),
    on=['k'],
    join_type='left',
    columns=['d.k', 'd.dim_row', 'd.attr', 'f.fact_id', 'f.amount', 'f.tag'],
    left_alias='d',
    right_alias='f',
    skew={'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}
) }}

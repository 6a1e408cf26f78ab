-- Benchmark scenario f with skew_join_chain and the fact's skewed keys as hot
-- keys: its hot rows meet broadcast copies of both dimensions' rows of those
-- keys, one join after the other, never shuffled.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_chain({'hot_keys': var('skewjoin_bench_hot_keys', [0]),
               'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

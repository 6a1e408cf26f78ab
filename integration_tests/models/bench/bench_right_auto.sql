-- Benchmark scenario a, mirrored, with skewjoin: hot keys of the fact ('auto').
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('right', {'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

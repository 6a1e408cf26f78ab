-- Benchmark scenario d with hot keys found at compile time ('auto'), then the
-- aggregate by key.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('aggregated', {'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

-- Benchmark scenario h (identical hot rows) with hot keys found at compile time ('auto').
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('ident_left', {'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

-- Benchmark scenario b with skewjoin: hot keys of both sides found at compile time.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('full', {'hot_keys': {'f': 'auto', 'd': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

-- Benchmark scenario h (identical hot rows) with skew_join: 'auto'.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('ident_left', {'auto': {'total_slots': var('skewjoin_bench_total_slots', 200)}}) }}

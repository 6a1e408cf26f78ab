-- Benchmark: hot keys 'auto' on the uniform fact (no key reaches min_share,
-- so the macro emits the plain join).
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('uniform', {'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

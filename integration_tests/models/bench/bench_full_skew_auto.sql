-- Benchmark, dataset full, with skew_join: 'auto': nothing declared; both
-- sides measured at run time and the whole plan (hot keys, skew groups, NULL
-- bypass) made from the counts.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('full', {'auto': {'total_slots': var('skewjoin_bench_total_slots', 200)}}) }}

-- Benchmark, dataset wide, with skew_join: 'auto': nothing declared; both
-- sides measured at run time and the whole plan (hot keys, skew groups, NULL
-- bypass) made from the counts.
-- The model is the join alone, one skewjoin.skew_join call, as a user's is.
{{ config(enabled=var('skewjoin_bench', false)) }}
{% set skew = {'auto': {'total_slots': var('skewjoin_bench_total_slots', 200)}} %}
{{ skewjoin.skew_join(**bench_join_args('wide', skew)) }}

-- Benchmark scenario h (identical hot rows) with skew_join: 'auto'.
-- The model is the join alone, one skewjoin.skew_join call, as a user's is.
{{ config(enabled=var('skewjoin_bench', false)) }}
{% set skew = {'auto': {'total_slots': var('skewjoin_bench_total_slots', 200)}} %}
{{ skewjoin.skew_join(**bench_join_args('ident_left', skew)) }}

-- Benchmark scenario c with skewjoin: hot keys of the fact found at compile time;
-- the dimension's rows of those keys are broadcast (multicast to every task
-- of the fact's scan).
-- The model is the join alone, one skewjoin.skew_join call, as a user's is.
{{ config(enabled=var('skewjoin_bench', false)) }}
{% set skew = {'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)} %}
{{ skewjoin.skew_join(**bench_join_args('wide', skew)) }}

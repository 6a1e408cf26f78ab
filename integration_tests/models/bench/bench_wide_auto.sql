-- Benchmark scenario c with skewjoin: hot keys of the fact found at run time;
-- the dimension's rows of those keys are broadcast (multicast to every task
-- of the fact's scan).
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('wide', {'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

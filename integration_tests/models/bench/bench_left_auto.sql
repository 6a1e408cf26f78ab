-- Benchmark scenario a with skewjoin as a user would write it: hot keys of
-- the fact found at compile time ('auto'); the fact's hot rows join a broadcast
-- copy of the dimension's rows of those keys, the dimension's rows of those
-- keys without a match come from an anti join against their distinct keys.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('left', {'hot_keys': {'f': 'auto'}, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

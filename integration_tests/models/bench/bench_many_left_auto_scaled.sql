-- Benchmark scenario g with hot keys found at compile time ('auto'), run and
-- compiled with AQE's thresholds scaled to the data (the model of its own
-- compiles under them); no total_slots: the plan follows the session's
-- spark.sql.shuffle.partitions.
-- The model is the join alone, one skewjoin.skew_join call, as a user's is.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.skew_join(**bench_join_args('many_left', {'hot_keys': {'f': 'auto'}})) }}

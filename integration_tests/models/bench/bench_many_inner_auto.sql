-- Benchmark scenario g with hot keys found at compile time ('auto'); no
-- total_slots: the plan follows the session's spark.sql.shuffle.partitions.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('many_inner', {'hot_keys': {'f': 'auto'}}) }}

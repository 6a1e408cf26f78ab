-- Benchmark scenario g with skew_join: 'auto'; no total_slots: the plan
-- follows the session's spark.sql.shuffle.partitions.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ bench_skew_join('many_left', 'auto') }}

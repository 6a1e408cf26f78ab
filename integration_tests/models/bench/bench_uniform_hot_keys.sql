-- Benchmark: hot keys joined by broadcast (Hive's skewed join) on the uniform fact, with the
-- config made for the skewed one (a stale config: its hot keys are ordinary
-- keys here), to measure what the strategy costs when the skew is not there.
-- Every skewed key, var('skewjoin_bench_hot_keys') (the keys holding at least
-- --min-share of the fact rows as the benchmark measured them), is a hot key
-- of the fact: its rows join a broadcast copy of the dimension's rows of those keys
-- where they are read; the other rows go through the shuffle join.
{{ config(enabled=var('skewjoin_bench', false)) }}
{%- set hot = [] -%}
{%- for key in var('skewjoin_bench_hot_keys', [0]) -%}
    {%- do hot.append(key | int) -%}
{%- endfor %}
{{ bench_skew_join('uniform', {'hot_keys': {'f': hot}, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

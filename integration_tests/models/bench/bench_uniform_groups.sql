-- Benchmark: skew groups (HIVE-3286) on the uniform fact, with the
-- config made for the skewed one (a stale config: its hot keys are ordinary
-- keys here), to measure what the strategy costs when the skew is not there.
-- One group per skewed key: var('skewjoin_bench_groups') = [[key, slots], ...],
-- the keys holding at least --min-share of the fact rows as the benchmark
-- measured them, with slots sized by skewjoin's slot planner (about the key's
-- share of the slots). The fact drives each group (its rows spread at random
-- over the group's slots); the dimension's rows of the key are copied to
-- every slot of the group.
{{ config(enabled=var('skewjoin_bench', false)) }}
{%- set groups = [] -%}
{%- for key, slots in var('skewjoin_bench_groups', [[0, 140]]) -%}
    {%- do groups.append({'when': 'f.k = ' ~ (key | int), 'slots': slots | int}) -%}
{%- endfor %}
{{ bench_skew_join('uniform', {'groups': groups, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

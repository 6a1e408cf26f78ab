-- Benchmark scenario f with skew_join_chain: the groups of bench_skewed_groups,
-- the fact salted once, both dimensions' rows of a group copied to its slots,
-- both joins on (k, slot): the fact is shuffled once.
{{ config(enabled=var('skewjoin_bench', false)) }}
{%- set groups = [] -%}
{%- for key, slots in var('skewjoin_bench_groups', [[0, 140]]) -%}
    {%- do groups.append({'when': 'f.k = ' ~ (key | int), 'slots': slots | int}) -%}
{%- endfor %}
{{ bench_chain({'groups': groups, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

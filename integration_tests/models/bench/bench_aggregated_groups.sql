-- Benchmark: bench_aggregated_plain with the join done by skew groups (the
-- configuration of bench_skewed_groups), then the same aggregate by key.
{{ config(enabled=var('skewjoin_bench', false)) }}
{%- set groups = [] -%}
{%- for key, slots in var('skewjoin_bench_groups', [[0, 140]]) -%}
    {%- do groups.append({'when': 'f.k = ' ~ (key | int), 'slots': slots | int}) -%}
{%- endfor %}
{{ bench_skew_join('aggregated', {'groups': groups, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

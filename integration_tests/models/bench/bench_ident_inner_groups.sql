-- Benchmark scenario h (identical hot rows) with the skew groups of scenario
-- e: the salt hashes the whole row, and every hot row is the same row.
{{ config(enabled=var('skewjoin_bench', false)) }}
{%- set groups = [] -%}
{%- for key, slots in var('skewjoin_bench_groups', [[0, 140]]) -%}
    {%- do groups.append({'when': 'f.k = ' ~ (key | int), 'slots': slots | int}) -%}
{%- endfor %}
{{ bench_skew_join('ident_inner', {'groups': groups, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

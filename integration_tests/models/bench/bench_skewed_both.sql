-- Benchmark: hot keys and skew groups together on the skewed fact.
-- The heaviest skewed keys, var('skewjoin_bench_both_hot_keys'), are hot keys
-- (broadcast join); the other skewed keys, var('skewjoin_bench_both_groups') =
-- [[key, slots], ...], get skew groups in the shuffle join of the rest (slots
-- sized on their share of the rows that reach that join).
{{ config(enabled=var('skewjoin_bench', false)) }}
{%- set hot = [] -%}
{%- set groups = [] -%}
{%- for key in var('skewjoin_bench_both_hot_keys', [0]) -%}
    {%- do hot.append(key | int) -%}
{%- endfor -%}
{%- for key, slots in var('skewjoin_bench_both_groups', []) -%}
    {%- do groups.append({'when': 'f.k = ' ~ (key | int), 'slots': slots | int}) -%}
{%- endfor %}
{{ bench_skew_join('skewed', {'hot_keys': {'f': hot}, 'groups': groups, 'total_slots': var('skewjoin_bench_total_slots', 200)}) }}

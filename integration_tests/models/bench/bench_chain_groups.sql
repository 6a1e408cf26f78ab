-- Benchmark scenario f with skew_join_chain: the groups of bench_skewed_groups,
-- the fact salted once, both dimensions' rows of a group copied to its slots,
-- both joins on (k, slot): the fact is shuffled once.
{{ config(enabled=var('skewjoin_bench', false)) }}
{%- set groups = [] -%}
{%- for key, slots in var('skewjoin_bench_groups', [[0, 140]]) -%}
    {%- do groups.append({'when': 'f.k = ' ~ (key | int), 'slots': slots | int}) -%}
{%- endfor %}
{{ skewjoin.skew_join_chain(
    source('skewjoin_bench', 'bench_fact_skewed'),
    [
        {'relation': source('skewjoin_bench', 'bench_dim'), 'alias': 'd1'},
        {'relation': source('skewjoin_bench', 'bench_dim_hot'), 'alias': 'd2'}
    ],
    on=['k'],
    columns=['f.fact_id', 'f.k', 'f.amount', 'd1.dim_row', 'd1.attr', 'd2.dim_row as d2_row'],
    left_alias='f',
    skew={'groups': groups, 'total_slots': var('skewjoin_bench_total_slots', 200)}
) }}

-- Benchmark scenario f with skew_join nested in skew_join: the skew groups of
-- bench_skewed_groups for each join, the first join's output salted again
-- (and shuffled again) for the second.
{{ config(enabled=var('skewjoin_bench', false)) }}
{%- set groups = [] -%}
{%- set outer_groups = [] -%}
{%- for key, slots in var('skewjoin_bench_groups', [[0, 140]]) -%}
    {%- do groups.append({'when': 'f.k = ' ~ (key | int), 'slots': slots | int}) -%}
    {%- do outer_groups.append({'when': 'j.k = ' ~ (key | int), 'slots': slots | int}) -%}
{%- endfor %}
{{ skewjoin.skew_join(
    skewjoin.skew_join(
        source('skewjoin_bench', 'bench_fact_skewed'),
        source('skewjoin_bench', 'bench_dim'),
        on=['k'],
        columns=['f.fact_id', 'f.k', 'f.amount', 'd1.dim_row', 'd1.attr'],
        left_alias='f',
        right_alias='d1',
        skew={'groups': groups, 'total_slots': var('skewjoin_bench_total_slots', 200)}
    ),
    source('skewjoin_bench', 'bench_dim_hot'),
    on=['k'],
    columns=['j.fact_id', 'j.k', 'j.amount', 'j.dim_row', 'j.attr', 'd2.dim_row as d2_row'],
    left_alias='j',
    right_alias='d2',
    skew={'groups': outer_groups, 'total_slots': var('skewjoin_bench_total_slots', 200)}
) }}

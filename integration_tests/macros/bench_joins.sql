{#- The benchmark's two-input joins, one per dataset: skew_join's arguments
    (inputs, key, join type, columns, the given skew specification), so that
    each strategy model of models/bench only states its skew specification.
    A model that is the join alone calls skewjoin.skew_join(**these) itself,
    as a user's model would: skew_join 'auto' counts on AQE's split (and may
    hand the join back) only where the model's code is one skew_join call. -#}
{% macro bench_join_args(dataset, skew) -%}
    {%- set fact = source('skewjoin_bench', 'bench_fact_skewed') -%}
    {%- set dim = source('skewjoin_bench', 'bench_dim') -%}
    {%- set ident = source('skewjoin_bench', 'bench_fact_ident') -%}
    {%- set inner_columns = ['f.fact_id', 'f.k', 'f.amount', 'f.tag', 'd.dim_row', 'd.attr', 'd.weight'] -%}
    {%- set joins = {
        'left': [dim, fact, 'left', ['d.k', 'd.dim_row', 'd.attr', 'f.fact_id', 'f.amount', 'f.tag'], 'd', 'f'],
        'right': [fact, dim, 'right', ['d.k', 'd.dim_row', 'd.attr', 'f.fact_id', 'f.amount', 'f.tag'], 'f', 'd'],
        'full': [fact, source('skewjoin_bench', 'bench_dim_hot'), 'full',
                 ['f.fact_id', 'f.k', 'f.amount', 'f.tag', 'd.k as d_k', 'd.dim_row', 'd.attr'], 'f', 'd'],
        'wide': [fact, source('skewjoin_bench', 'bench_dim_wide'), 'inner',
                 ['f.fact_id', 'f.k', 'f.amount', 'd.dim_row', 'd.weight'], 'f', 'd'],
        'aggregated': [source('skewjoin_bench', var('skewjoin_bench_aggregated_fact', 'bench_fact_skewed')), dim,
                       'inner', ['f.k', 'f.amount', 'd.dim_row'], 'f', 'd'],
        'skewed': [fact, dim, 'inner', inner_columns, 'f', 'd'],
        'many_inner': [fact, dim, 'inner', inner_columns, 'f', 'd'],
        'many_left': [dim, fact, 'left', ['d.k', 'd.dim_row', 'd.attr', 'f.fact_id', 'f.amount', 'f.tag'], 'd', 'f'],
        'ident_inner': [ident, dim, 'inner', ['f.k', 'f.one', 'd.dim_row', 'd.attr', 'd.weight'], 'f', 'd'],
        'ident_left': [dim, ident, 'left', ['d.k', 'd.dim_row', 'd.attr', 'f.one'], 'd', 'f'],
        'uniform': [source('skewjoin_bench', 'bench_fact_uniform'), dim, 'inner', inner_columns, 'f', 'd']
    } -%}
    {%- set j = joins[dataset] -%}
    {{- return({'left': j[0], 'right': j[1], 'on': ['k'], 'join_type': j[2], 'columns': j[3], 'left_alias': j[4],
                'right_alias': j[5], 'skew': skew}) -}}
{%- endmacro %}


{#- A dataset's join with the given skew specification (d's with its
    aggregate by the key above it). -#}
{% macro bench_skew_join(dataset, skew) -%}
    {%- set sql = skewjoin.skew_join(**bench_join_args(dataset, skew)) -%}
    {{- return(bench_aggregate_by_key(sql) if dataset == 'aggregated' else sql) -}}
{%- endmacro %}


{#- Scenario f: the fact joined to two dimensions on the same key by
    skew_join_chain, with the given skew specification. -#}
{% macro bench_chain(skew) -%}
    {{- return(skewjoin.skew_join_chain(
        source('skewjoin_bench', 'bench_fact_skewed'),
        [
            {'relation': source('skewjoin_bench', 'bench_dim'), 'alias': 'd1'},
            {'relation': source('skewjoin_bench', 'bench_dim_hot'), 'alias': 'd2'}
        ],
        on=['k'],
        columns=['f.fact_id', 'f.k', 'f.amount', 'd1.dim_row', 'd1.attr', 'd2.dim_row as d2_row'],
        left_alias='f',
        skew=skew
    )) -}}
{%- endmacro %}

{#- star_join: one query joining a fact table to its dimensions, with
    BROADCAST hints chosen by Hive's map-join auto conversion from the real
    sizes of the dimensions and one budget for all broadcasts together (the
    sum of the n-1 small sides must fit in memory at once). The dimensions
    that do not fit, or whose size is unknown, or that cannot be broadcast
    correctly (the preserved side of an outer join) are joined by a shuffle
    join. The result is the plain star join's, row for row.

    Usage in a model:
        {{ skewjoin.star_join(ref('sales'), [
            {'relation': ref('stores'), 'alias': 's', 'on': ['store_id']},
            {'relation': ref('dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']], 'filter': 'd.year = 2026'},
            {'relation': ref('customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left'}
        ], broadcast_budget='20m') }}

    Pipeline: spec (arguments and options checked, no query) -> resolve
    (column lists) -> measure (the dimensions' sizes, the pruning's key
    queries) -> plan (data: which dimensions are broadcast and why, the join
    order, the pruning predicate; no query) -> render (the decision record
    and the SQL, from the plan).

    Join-driven pruning (HIVE-5119): with prune=true (the default) the fact is
    filtered, before any join, by the keys of its filtered inner and left semi
    dimensions (macros/pruning/prune_star_join.sql; correct for those join
    types in any position of the chain).

    With var skewjoin_run_queries false no size is looked up: only the
    dimensions with broadcast: true are broadcast, and the fact is not pruned.
-#}

{% macro star_join(fact, dims, fact_alias='f', columns=none, broadcast_budget=none, size_factor=none, analyze=none,
                   shuffle_hint=none, prune=none) -%}
    {%- do skewjoin._sj_check_call('star_join', ['fact', 'dims', 'fact_alias', 'columns', 'broadcast_budget',
        'size_factor', 'analyze', 'shuffle_hint', 'prune'], kwargs, varargs) -%}
    {{- return(adapter.dispatch('star_join', 'skewjoin')(
        fact, dims, fact_alias, columns, broadcast_budget, size_factor, analyze, shuffle_hint, prune)) -}}
{%- endmacro %}


{% macro default__star_join(fact, dims, fact_alias, columns, broadcast_budget, size_factor, analyze, shuffle_hint,
                            prune) -%}
    {%- do skewjoin._sj_spark_only('star_join', 'reads Spark catalogs (DESCRIBE TABLE EXTENDED, ANALYZE TABLE, file'
        ~ ' metadata) and writes Spark join hints') -%}
{%- endmacro %}


{#- The plain star join without hints (parse time: no query, valid SQL). -#}
{#- Whether an input of star_join renders as a FROM item without an error: a path, or what every macro renders. -#}
{% macro _sj_star_input_renders(obj) -%}
    {{- return(skewjoin._sj_star_path_match(obj) is not none or skewjoin._sj_input_renders(obj)) -}}
{%- endmacro %}


{% macro _sj_star_parse_time_sql(fact, dims, fact_alias) -%}
    {#- an input that would not render is left to the model's compile, which says what is wrong -#}
    {%- if not skewjoin._sj_star_input_renders(fact) -%}
        {{- return('select 1 as sj_parse_time') -}}
    {%- endif -%}
    {%- set parts = ['select *', 'from ' ~ skewjoin._sj_star_input('fact', fact)['from'] ~ ' as ' ~ fact_alias] -%}
    {%- if dims is iterable and dims is not string and dims is not mapping -%}
        {%- for d in dims if d is mapping and d.get('relation') is not none and d.get('alias') is string
                and skewjoin._sj_star_input_renders(d['relation']) -%}
            {%- do parts.append('cross join ' ~ skewjoin._sj_star_input('dims', d['relation'])['from'] ~ ' as '
                ~ d['alias']) -%}
        {%- endfor -%}
    {%- endif -%}
    {{- return(parts | join('\n')) -}}
{%- endmacro %}


{#- The join condition of a dimension: [`<fact>.<key> = <dim>.<key>`, ...]. -#}
{% macro _sj_star_on_text(fa, d) -%}
    {%- set parts = [] -%}
    {%- for k in d['keys'] -%}
        {%- do parts.append(fa ~ '.' ~ skewjoin._sj_ident(k.fact) ~ ' = '
            ~ d.alias ~ '.' ~ skewjoin._sj_ident(k.dim)) -%}
    {%- endfor -%}
    {{- return(parts) -}}
{%- endmacro %}


{#- `<join keyword> <dimension> as <alias> on ...`, the dimension read from
    `dim_from`. -#}
{% macro _sj_star_join_clause(fa, d, dim_from) -%}
    {%- set clause -%}
{{ skewjoin._sj_join_semantics(d.join_type).keyword }} {{ dim_from }} as {{ d.alias }}
    on {{ skewjoin._sj_star_on_text(fa, d) | join('\n    and ') }}
    {%- endset -%}
    {{- return(clause) -}}
{%- endmacro %}


{% macro spark__star_join(fact, dims, fact_alias, columns, broadcast_budget, size_factor, analyze, shuffle_hint,
                          prune) -%}
    {%- if not execute -%}
        {{- return(skewjoin._sj_star_parse_time_sql(fact, dims, fact_alias)) -}}
    {%- endif -%}
    {#- spec: no query -#}
    {%- set options = skewjoin._sj_star_options({'broadcast_budget': broadcast_budget, 'size_factor': size_factor,
                                                 'analyze': analyze, 'shuffle_hint': shuffle_hint, 'prune': prune}) -%}
    {%- set spec = skewjoin._sj_star_spec(fact, dims, fact_alias) -%}
    {%- set pruning = skewjoin._sj_star_prune_spec(spec, options.prune_cache) if options.prune else none -%}
    {#- resolve: column lists -#}
    {%- set spec = skewjoin._sj_star_resolve(spec, columns) -%}
    {#- measure: sizes (unless compile-time queries are off), then the fact's pruning (its key queries) -#}
    {%- set seconds = skewjoin._sj_star_measure(spec, options) -%}
    {%- set pruning = skewjoin._sj_star_prune_measure(pruning) if pruning is not none else none -%}
    {#- plan: broadcasts, join order and the pruning predicate, as data; no query -#}
    {%- set plan = skewjoin._sj_star_plan(spec, options, seconds, pruning) -%}
    {#- render: the record and the SQL, from the plan -#}
    {%- set sql = skewjoin._sj_star_join_sql(plan) -%}
    {%- set inputs = [['fact', spec.fact['from']]] -%}
    {%- for d in spec.dims -%}
        {%- do inputs.extend([[d.arg ~ '.relation', d.input['from']], [d.arg ~ '.filter', d.filter]]) -%}
    {%- endfor -%}
    {%- do skewjoin._sj_check_cte_shadowing('star_join', sql, inputs) -%}
    {{- return(skewjoin._sj_record_sql('star_join', skewjoin._sj_star_record(plan)) ~ '\n' ~ sql) -}}
{%- endmacro %}


{#- The star join's SQL from its plan (no query): the pruned fact and the
    filtered or query dimensions as CTEs, the joins in the plan's order, the
    hints. -#}
{% macro _sj_star_join_sql(plan) -%}
    {%- set spec = plan.spec -%}
    {%- set options = plan.options -%}
    {%- set fa = spec.fact_alias -%}
    {%- set ctes = [] -%}
    {%- set fact_from = spec.fact['from'] -%}
    {%- if plan.pruning is not none and plan.pruning.predicate is not none -%}
        {%- do ctes.append(['sj_' ~ fa,
            'select *\nfrom ' ~ fact_from ~ ' as ' ~ fa ~ '\nwhere ' ~ plan.pruning.predicate]) -%}
        {%- set fact_from = 'sj_' ~ fa -%}
    {%- endif -%}
    {%- set joins = [] -%}
    {%- for d in plan.order.dims -%}
        {%- set dim_from = d.input['from'] -%}
        {%- if d.filter is not none -%}
            {%- do ctes.append(['sj_' ~ d.alias,
                'select *\nfrom ' ~ dim_from ~ ' as ' ~ d.alias ~ '\nwhere ' ~ d.filter]) -%}
            {%- set dim_from = 'sj_' ~ d.alias -%}
        {%- elif d.input.kind == 'query' -%}
            {%- do ctes.append(['sj_' ~ d.alias, d.input.sql]) -%}
            {%- set dim_from = 'sj_' ~ d.alias -%}
        {%- endif -%}
        {%- do joins.append(skewjoin._sj_star_join_clause(fa, d, dim_from)) -%}
    {%- endfor -%}
    {%- set hints = [] -%}
    {%- set chosen = plan.order.dims | selectattr('verdict', 'equalto', 'broadcast') | map(attribute='alias') | list -%}
    {%- set others = plan.order.dims | selectattr('verdict', 'equalto', 'shuffle') | map(attribute='alias') | list -%}
    {%- if chosen -%}
        {%- do hints.append('broadcast(' ~ (chosen | join(', ')) ~ ')') -%}
    {%- endif -%}
    {%- if others and options.shuffle_hint != 'none' -%}
        {%- do hints.append(options.shuffle_hint ~ '(' ~ (others | join(', ')) ~ ')') -%}
    {%- endif -%}
    {%- set body -%}
select{{ (' /*+ ' ~ (hints | join(', ')) ~ ' */') if hints else '' }}
    {{ spec.select_list | join(',\n    ') }}
from {{ fact_from }} as {{ fa }}
{{ joins | join('\n') }}
    {%- endset -%}
    {{- return(skewjoin._sj_with_ctes(ctes, body)) -}}
{%- endmacro %}

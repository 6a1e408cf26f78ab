{#- prune_predicate: join-driven pruning (HIVE-5119). At run time, collect
    the distinct join-key values of one or more (filtered) small relations,
    intersect the sets that constrain the same big-table columns, and return
    a predicate on the big table to put in the query's WHERE clause:
      - on a partition column, a literal IN list: Spark lists and reads only
        the partitions that can match;
      - on other columns, an IN list that reaches the scan's pushed filters;
        above max_values, a range or a semi join (fallback);
      - an empty key set gives `false` (nothing to read).
    Only for joins that do not preserve the big table (`big inner|right|left
    semi join small`); a left, full or anti join is refused at compile time.
    With var skewjoin_run_queries false no key is collected: the predicate is
    `true` (prunes nothing) and the decision record says so.

    Usage in a model:
        select f.*, d.month
        from {{ ref('sales') }} as f
        inner join {{ ref('dates') }} as d on f.date_key = d.date_key
        where d.year = 2026
          and {{ skewjoin.prune_predicate(ref('sales'), 'f', [
                {'relation': ref('dates'), 'filter': 'year = 2026', 'on': ['date_key']}]) }}
-#}

{% macro prune_predicate(big, big_alias, small, join_type='inner', max_values=none, fallback=none, cache=none) -%}
    {%- do skewjoin._sj_check_call('prune_predicate', ['big', 'big_alias', 'small', 'join_type', 'max_values',
        'fallback', 'cache'], kwargs, varargs) -%}
    {{- return(adapter.dispatch('prune_predicate', 'skewjoin')(
        big, big_alias, small, join_type, max_values, fallback, cache)) -}}
{%- endmacro %}


{% macro default__prune_predicate(big, big_alias, small, join_type, max_values, fallback, cache) -%}
    {%- do skewjoin._sj_spark_only('prune_predicate', 'reads Spark catalogs (DESCRIBE, SHOW PARTITIONS) and writes'
        ~ ' Spark SQL literals') -%}
{%- endmacro %}


{% macro spark__prune_predicate(big, big_alias, small, join_type, max_values, fallback, cache) -%}
    {%- if not execute -%}
        {#- parse time: valid SQL, no queries (arguments are checked at compile time) -#}
        {{- return('true') -}}
    {%- endif -%}
    {#- spec: no query -#}
    {%- set spec = skewjoin._sj_prune_spec('prune_predicate', big, big_alias, small, join_type, max_values,
        fallback, cache) -%}
    {#- resolve: the big table's and the small relations' columns, key types and partitions -#}
    {%- set spec = skewjoin._sj_prune_resolve(spec) -%}
    {#- measure: the prune cache, the key sets and the partitions kept (unless compile-time queries are off) -#}
    {%- set measured = skewjoin._sj_prune_measure(spec) -%}
    {#- plan: the predicate, as data; no query -#}
    {%- set plan = skewjoin._sj_prune_plan(spec, measured) -%}
    {#- render: the record from the plan, then the predicate -#}
    {{- return(skewjoin._sj_record_sql('prune_predicate', skewjoin._sj_prune_record(plan)) ~ '\n' ~ plan.predicate) -}}
{%- endmacro %}

{#- skew_join: the join of two relations, made fast for the skew the user
    describes (explicit skew groups, hot keys), and equal as a multiset of rows
    to the plain Spark join of the same inputs.

    Pipeline, as every capability of the package: spec (arguments and skew
    specification checked, no query) -> resolve (the sides' columns and key
    types) -> measure (every query: skew_measure.sql) -> plan (every
    decision, as data: skew_join_plan.sql) -> render (the decision record
    from the plan: skew_record.sql; the SQL: skew_join_render.sql).

    Usage in a model:
        {{ config(skew_join={'groups': [{'when': "a.customer_id = 0", 'percent': 40}]}) }}
        {{ skewjoin.skew_join(ref('orders'), ref('customers'), on=['customer_id']) }}
-#}

{% macro skew_join(left, right, on, join_type='inner', columns=none, left_alias='a', right_alias='b', skew=none) -%}
    {%- do skewjoin._sj_check_call('skew_join', ['left', 'right', 'on', 'join_type', 'columns', 'left_alias',
        'right_alias', 'skew'], kwargs, varargs) -%}
    {{- return(adapter.dispatch('skew_join', 'skewjoin')(
        left, right, on, join_type, columns, left_alias, right_alias, skew)) -}}
{%- endmacro %}


{% macro default__skew_join(left, right, on, join_type, columns, left_alias, right_alias, skew) -%}
    {%- do skewjoin._sj_spark_only('skew_join', 'generates Spark SQL (xxhash64, explode, broadcast hints)') -%}
{%- endmacro %}


{% macro spark__skew_join(left, right, on, join_type, columns, left_alias, right_alias, skew) -%}
    {%- if not execute -%}
        {#- parse time: valid SQL, no queries (configs are not resolved yet), no error (a bad argument stops
            this model when it compiles, not every dbt command at parse time) -#}
        {{- return(skewjoin._sj_parse_time_join(left, right, left_alias, right_alias)) -}}
    {%- endif -%}
    {#- spec: the arguments and the skew specification, checked (no query) -#}
    {%- set spec = skewjoin._sj_join_spec('skew_join', left, right, on, join_type, columns, left_alias, right_alias) -%}
    {%- set skew = skewjoin._sj_skew_spec(spec, skew) -%}
    {#- resolve: the sides' columns, the keys' common types, the output columns -#}
    {%- set j = skewjoin._sj_resolve_join(spec) -%}
    {#- measure: every query (parallelism, 'auto''s counts, hot keys, verification, spread, slot placement) -#}
    {%- set facts = skewjoin._sj_skew_measure(spec, j, skew) -%}
    {#- plan: every decision, from the facts (no query) -#}
    {%- set plan = skewjoin._sj_skew_plan(spec, j, skew, facts) -%}
    {#- render: the decision record and the SQL, from the plan -#}
    {%- set record = skewjoin._sj_record_sql('skew_join', skewjoin._sj_skew_record(j, plan)) -%}
    {%- set sql = skewjoin._sj_skew_join_sql(j, plan) -%}
    {%- do skewjoin._sj_check_cte_shadowing('skew_join', sql, [['left', j.left['from']], ['right', j.right['from']]]) -%}
    {{- return(record ~ '\n' ~ sql) -}}
{%- endmacro %}


{#- The SQL at parse time: the sides cross joined (or a constant where an
    input does not render yet). -#}
{% macro _sj_parse_time_join(left, right, left_alias, right_alias) -%}
    {%- if not (skewjoin._sj_input_renders(left) and skewjoin._sj_input_renders(right)) -%}
        {{- return('select 1 as sj_parse_time') -}}
    {%- endif -%}
    {{- return('select * from ' ~ skewjoin._sj_from_text('skew_join', 'left', left) ~ ' as ' ~ left_alias
               ~ ' cross join ' ~ skewjoin._sj_from_text('skew_join', 'right', right) ~ ' as ' ~ right_alias) -}}
{%- endmacro %}

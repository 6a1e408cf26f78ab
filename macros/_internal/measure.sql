{#- The measure phase's two rules: every query a macro runs while compiling
    goes through `_sj_run_query`, and `_sj_queries_allowed` is the one switch
    for the queries that read data (counts, sizes, key sets, statistics).
    Metadata reads (DESCRIBE, SET, SHOW, a range() or a VALUES list) touch no
    table data and run whenever dbt executes: the SQL cannot be written
    without them. -#}

{#- Whether macros may query data or statistics while compiling: false when
    the project sets var('skewjoin_run_queries', false), e.g. to compile in CI
    against production. Column lists (DESCRIBE QUERY) and settings (SET) are
    still read: they touch no data and the SQL cannot be written without
    them. Off as well in a dbt unit test and under --empty (dbt_inputs.sql). -#}
{% macro _sj_queries_allowed() -%}
    {%- set value = var('skewjoin_run_queries', true) -%}
    {%- if skewjoin._sj_in_unit_test() or skewjoin._sj_in_empty_run() -%}
        {{- return(false) -}}
    {%- endif -%}
    {{- return(execute and not (value is sameas false or (value | string | lower) in ('false', '0', 'no', 'off'))) -}}
{%- endmacro %}


{#- Why compile-time queries are off, as the records say it: '(...)'. -#}
{% macro _sj_queries_off_reason() -%}
    {%- if skewjoin._sj_in_unit_test() -%}
        {{- return('(this is a dbt unit test: its inputs are the given rows, which no compile-time query can read)') -}}
    {%- elif skewjoin._sj_in_empty_run() -%}
        {{- return('(dbt --empty: the inputs are empty, there is nothing to measure)') -}}
    {%- endif -%}
    {{- return('(var skewjoin_run_queries: false)') -}}
{%- endmacro %}


{#- Run one compile-time query. `reads`: 'metadata' (no table data), or
    'data', which the switch must allow (every caller checks it first and
    records what it skipped; this refuses a query that slipped past). Each
    query is timed and written to the model's ledger (query_ledger.sql), which
    the decision record's cost line sums. -#}
{% macro _sj_run_query(sql, reads='data') -%}
    {%- if reads == 'data' and not skewjoin._sj_queries_allowed() -%}
        {%- do exceptions.raise_compiler_error('skewjoin: a query that reads data ran with compile-time queries off '
            ~ skewjoin._sj_queries_off_reason() ~ '; this is a bug in skewjoin, please report it: ' ~ sql[:200]) -%}
    {%- endif -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = run_query(sql) -%}
    {%- do skewjoin._sj_ledger_add(sql, reads, (modules.datetime.datetime.now() - started).total_seconds()) -%}
    {{- return(result) -}}
{%- endmacro %}

{#- Inputs: a ref()/source() relation, a table name, or a SQL query string. -#}

{% macro _sj_is_relation(obj) -%}
    {{- return(obj is mapping and (obj.get('metadata', {}) or {}).get('type', '').endswith('Relation')) -}}
{%- endmacro %}


{#- True for a string holding a query (as opposed to a table name). -#}
{% macro _sj_is_query_text(text) -%}
    {%- set head = modules.re.sub('^(\\s|--[^\\n]*\\n|/\\*.*?\\*/)*', '', text | string, flags=modules.re.S) | lower -%}
    {{- return(modules.re.match('(select|with|values|from|table)\\b|\\(', head) is not none) -}}
{%- endmacro %}


{#- Why a query's text cannot stand in parentheses as one subquery (outside string literals, backticked
    names and whole comments: a parenthesis closed before it opens or left open, a `;`, a comment or a
    literal left open), or none. -#}
{% macro _sj_query_text_problem(text) -%}
    {%- set code = skewjoin._sj_code_text(text) -%}
    {%- if "'" in code or '"' in code -%}
        {{- return('has an unterminated string literal') -}}
    {%- elif '/*' in code -%}
        {{- return('has an unterminated comment') -}}
    {%- elif ';' in code -%}
        {{- return('holds `;` outside a string literal') -}}
    {%- endif -%}
    {%- if not skewjoin._sj_parentheses_balanced(code) -%}
        {{- return('has unbalanced parentheses') -}}
    {%- endif -%}
    {{- return(none) -}}
{%- endmacro %}


{#- Text to put after FROM (before an alias) for an input. -#}
{% macro _sj_from_text(macro_name, argument, obj) -%}
    {%- if skewjoin._sj_is_relation(obj) -%}
        {{- return(obj | string) -}}
    {%- elif obj is string and obj | trim | length > 0 -%}
        {%- if skewjoin._sj_is_query_text(obj) -%}
            {%- set problem = skewjoin._sj_query_text_problem(obj) -%}
            {%- if problem is not none -%}
                {%- do skewjoin._sj_raise(macro_name, argument, 'the query ' ~ (obj | trim)[:200] ~ ' ' ~ problem
                    ~ '; it is put in parentheses as a subquery, and must be one whole query',
                    skewjoin._sj_example_for(argument, skewjoin._sj_relation_example())) -%}
            {%- endif -%}
            {{- return('(\n' ~ (obj | trim) ~ '\n)') -}}
        {%- elif modules.re.fullmatch('[A-Za-z0-9_`.]+', obj | trim) -%}
            {{- return(obj | trim) -}}
        {%- endif -%}
    {%- endif -%}
    {%- do skewjoin._sj_raise(macro_name, argument,
        'expected a relation (ref() or source()), a table name or a SELECT statement; got ' ~ (obj | string)[:200],
        skewjoin._sj_example_for(argument, skewjoin._sj_relation_example())) -%}
{%- endmacro %}


{#- Whether Spark lists the table or view `schema`.`identifier` (a SHOW
    TABLES, metadata only: not dbt's relation cache). `identifier` is a plain
    name (a LIKE pattern reads `*` and `|`). -#}
{% macro _sj_table_listed(schema, identifier) -%}
    {%- set result = skewjoin._sj_run_query('show tables in ' ~ skewjoin._sj_ident(schema)
        ~ " like '" ~ identifier ~ "'", 'metadata') -%}
    {{- return(result.rows | length > 0) -}}
{%- endmacro %}


{#- [{'name': ..., 'type': ...}] for an input, from Spark's DESCRIBE QUERY
    (of the real relation behind a unit test's given rows or an --empty
    subquery: dbt_inputs.sql). Only called under `execute`. -#}
{% macro _sj_columns(from_text) -%}
    {%- set described = skewjoin._sj_described_text(from_text) -%}
    {%- set result = skewjoin._sj_run_query('describe query select * from ' ~ described ~ ' as sj_described',
        'metadata') -%}
    {%- set columns = [] -%}
    {%- for row in result.rows -%}
        {%- set name = row[0] | string -%}
        {%- if name | length > 0 and not name.startswith('#') -%}
            {%- do columns.append({'name': name, 'type': skewjoin._sj_normalize_type(row[1])}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(columns) -}}
{%- endmacro %}


{#- The column of `columns` named `name` (case-insensitive), or none. -#}
{% macro _sj_find_column(columns, name) -%}
    {%- set wanted = (name | string | trim).strip('`') | lower -%}
    {%- for column in columns -%}
        {%- if column.name | lower == wanted -%}
            {{- return(column) -}}
        {%- endif -%}
    {%- endfor -%}
    {{- return(none) -}}
{%- endmacro %}


{#- One Spark setting's current value (a string), read at run time. -#}
{% macro _sj_spark_conf(key, default=none) -%}
    {%- if not execute -%}
        {{- return(default) -}}
    {%- endif -%}
    {%- set result = skewjoin._sj_run_query('set ' ~ key, 'metadata') -%}
    {%- if result.rows | length == 0 or result.rows[0][1] is none or (result.rows[0][1] | string) == '<undefined>' -%}
        {{- return(default) -}}
    {%- endif -%}
    {{- return(result.rows[0][1] | string) -}}
{%- endmacro %}


{#- How many tasks Spark runs at once: the partitions of a scan-free
    range(), i.e. its default parallelism (the executors' cores; a local
    Spark's threads), read from the physical plan (`explain`: `Range (0,
    100000, step=1, splits=64)`), no job; where the plan does not say,
    counted with a job of the range's tasks. Reads no data. -#}
{% macro _sj_default_parallelism() -%}
    {%- set plan = skewjoin._sj_run_query('explain select * from range(0, 100000) as sj_parallelism', 'metadata') -%}
    {%- set m = modules.re.search('Range \\(0, 100000, step=1, splits=([0-9]+)\\)',
        (plan.rows[0][0] | string) if plan.rows else '') -%}
    {%- if m is not none -%}
        {{- return(m.group(1) | int) -}}
    {%- endif -%}
    {%- set probe -%}
select max(sj_split) + 1 as sj_parallelism
from (select spark_partition_id() as sj_split from range(0, 100000)) as sj_range
    {%- endset -%}
    {{- return(skewjoin._sj_run_query(probe, 'metadata').rows[0][0] | int) -}}
{%- endmacro %}

{#- SQL rendering shared by every capability: indentation that never touches
    string literals, a WITH clause from a list of CTEs, and the plain join of
    two inputs (the query every strategy must equal). -#}

{#- Indent SQL text by `width` spaces without touching string literals. -#}
{% macro _sj_indent(text, width) -%}
    {%- set pad = ' ' * width -%}
    {%- set out = [] -%}
    {%- for part in skewjoin._sj_split_literals(text) -%}
        {%- if loop.index0 % 2 == 1 -%}
            {%- do out.append(part) -%}
        {%- else -%}
            {%- do out.append(modules.re.sub('\n(?=[^\n])', '\n' ~ pad, part)) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(pad ~ (out | join(''))) -}}
{%- endmacro %}


{#- `with name as (sql), ... body` from [[name, sql], ...]; just `body` when
    there is no CTE. -#}
{% macro _sj_with_ctes(ctes, body) -%}
    {%- if not ctes -%}
        {{- return(body) -}}
    {%- endif -%}
    {%- set texts = [] -%}
    {%- for c in ctes -%}
        {%- do texts.append(c[0] ~ ' as (\n' ~ skewjoin._sj_indent(c[1], 4) ~ '\n)') -%}
    {%- endfor -%}
    {{- return('with\n\n' ~ (texts | join(',\n\n')) ~ '\n\n' ~ body) -}}
{%- endmacro %}


{#- Refuses a relation a macro reads that names, without a schema, one of
    the CTEs the compiled SQL defines (`sql`): inside that WITH clause Spark
    would read the CTE, not the relation. `inputs`: [[argument, text], ...],
    the relation texts as the user wrote them (a table name or a query; a
    query that defines the name as a CTE of its own, such as another
    skewjoin macro's SQL, reads its own). A relation is read after FROM,
    JOIN, TABLE or a comma, in parentheses or not, with comments between, or
    by IDENTIFIER('name'); string literals and comments read nothing. -#}
{% macro _sj_check_cte_shadowing(macro_name, sql, inputs) -%}
    {%- set names = modules.re.findall('(?m)^([A-Za-z_][A-Za-z0-9_]*) as \\($', sql) -%}
    {%- for input in inputs if input[1] is not none -%}
        {%- set text = input[1] | string -%}
        {%- set code = skewjoin._sj_code_text(text) -%}
        {#- a query that defines the name in its own WITH clause reads its own CTE there -#}
        {%- for name in names if not modules.re.search('(?i)(?:\\bwith\\s+|,\\s*)`?' ~ name ~ '`?\\s+as\\s*\\(', code) -%}
            {%- if modules.re.fullmatch('(?i)`?' ~ name ~ '`?', text | trim)
                   or modules.re.search('(?i)(?:\\b(?:from|join|table)(?=[\\s(])[\\s(]*|,[\\s(]*)`?' ~ name
                                        ~ '`?(?![A-Za-z0-9_.`(])', code)
                   or modules.re.search('(?i)\\bidentifier\\s*\\(\\s*([\'"])`?' ~ name ~ '`?\\1\\s*\\)', text) -%}
                {%- set problem -%}
reads `{{ name }}` without a schema, and the SQL this macro compiles defines a CTE of that name, which Spark would
read instead of your relation there
                {%- endset -%}
                {%- do skewjoin._sj_raise(macro_name, input[0], problem, "ref('" ~ name ~ "') or 'my_schema."
                    ~ name ~ "' (a schema-qualified name)") -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
{%- endmacro %}


{#- The plain join of the two inputs (what every strategy must equal). -#}
{% macro _sj_plain_join_sql(join, left_from=none, right_from=none) -%}
    {%- set sql -%}
select
    {{ join.select_list | join(',\n    ') }}
from {{ left_from or join.left['from'] }} as {{ join.left.alias }}
{{ join.semantics.keyword }} {{ right_from or join.right['from'] }} as {{ join.right.alias }}
    on {{ skewjoin._sj_on_condition(join) }}
    {%- endset -%}
    {{- return(sql) -}}
{%- endmacro %}

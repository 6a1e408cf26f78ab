{#- `dbt run-operation skewjoin._sj_demo_summary` (called by `make demo`):
    print what the demo built, row counts, and where the skew was. -#}
{% macro _sj_demo_summary() -%}
    {%- if not execute -%}{{ return('') }}{%- endif -%}
    {%- set relation = adapter.get_relation(database=none, schema=target.schema ~ '_demo',
                                            identifier='demo_summary') -%}
    {%- if relation is none -%}
        {%- do log('demo_summary was not built: run `make demo` first', info=true) -%}
        {{- return('') -}}
    {%- endif -%}
    {%- set rows = run_query('select model, row_count, note from ' ~ relation
                             ~ ' order by row_count desc, model').rows -%}
    {%- set width = namespace(model=5) -%}
    {%- for row in rows -%}{%- set width.model = [width.model, row[0] | length] | max -%}{%- endfor -%}
    {%- set lines = ['', 'What the demo built (' ~ relation ~ '):', ''] -%}
    {%- do lines.append('  ' ~ 'model'.ljust(width.model) ~ '  ' ~ 'rows'.rjust(10) ~ '  note') -%}
    {%- for row in rows -%}
        {%- set count = '{:,}'.format(row[1] | int) -%}
        {%- do lines.append('  ' ~ (row[0] | string).ljust(width.model) ~ '  ' ~ count.rjust(10) ~ '  ' ~ row[2]) -%}
    {%- endfor -%}
    {%- do log(lines | join('\n'), info=true) -%}
{%- endmacro %}

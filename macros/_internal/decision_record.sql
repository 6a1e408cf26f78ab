{#- Decision records: what a macro chose, what it declined, and why. Each
    record is logged (one line per entry) and returned as the SQL comment that
    opens the compiled query. Its last line says what the compile-time
    queries cost. -#}

{% macro _sj_record_sql(macro_name, lines) -%}
    {#- the last line: what the compile-time queries cost (query_ledger.sql) -#}
    {%- set cost = skewjoin._sj_cost_line() -%}
    {%- set lines = lines + ([cost] if cost is not none else []) -%}
    {%- set unit_test = (', unit test ' ~ model.name) if skewjoin._sj_tested_model() is not none else '' -%}
    {%- set header = 'skewjoin.' ~ macro_name ~ ' decision record (model ' ~ skewjoin._sj_model_name() ~ unit_test
        ~ ')' -%}
    {%- if execute -%}
        {#- the whole record in the log file (debug), its headline on the console: records run to thousands of
            characters, one per model -#}
        {%- do log(header ~ ': ' ~ (lines | join(' | '))) -%}
        {%- set headline = namespace(text=none) -%}
        {%- for line in lines if headline.text is none and modules.re.match('(strategy|broadcast|partitions): ', line) -%}
            {%- set headline.text = line -%}
        {%- endfor -%}
        {%- do log(header ~ ': ' ~ (headline.text or lines[0]) ~ ' (the whole record: atop the compiled SQL, and in'
            ~ " dbt's log file)", info=true) -%}
    {%- endif -%}
    {%- set body = [] -%}
    {%- for line in lines -%}
        {%- do body.append('  ' ~ skewjoin._sj_comment_text(line)) -%}
    {%- endfor -%}
    {{- return('/* ' ~ header ~ '\n' ~ (body | join('\n')) ~ '\n*/') -}}
{%- endmacro %}

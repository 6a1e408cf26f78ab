{#- The specification 'auto' planned, in the two forms a user pastes to pin
    it: a Jinja literal for `{{ config(skew_join=...) }}` in the model (none,
    true/false, numbers as numbers) and a YAML flow value for a properties
    file or dbt_project.yml (null). Hot-key values of integral keys are
    written as numbers; other values as strings (the hot-key check reads
    them in the key's type). -#}

{#- The record's two lines that print `config` (the planned specification). -#}
{#- dbt renders a properties file's config values as Jinja: a key holding {{, {% or {#, or a carriage
    return, would come back changed from the YAML form, which is then not offered. -#}
{% macro _sj_pin_lines(config, j) -%}
    {%- set typed = skewjoin._sj_pin_typed(config, j) -%}
    {%- set yaml_value = tojson(typed) -%}
    {%- set jinja_line = "auto: planned specification; to pin it (and skip the measuring), paste into the model (Jinja): "
        ~ "{{ config(skew_join=" ~ skewjoin._sj_jinja_literal(typed) ~ ") }}" -%}
    {%- if skewjoin._sj_changed_in_yaml(typed) -%}
        {{- return([jinja_line, "auto: no YAML form of this specification: dbt renders a properties file's config values "
            ~ "as Jinja, which would change a key holding {{, {%, {# or a carriage return; pin it in the Jinja form"]) -}}
    {%- endif -%}
    {{- return([jinja_line,
        "auto: the same specification in YAML (a properties file or dbt_project.yml): skew_join: " ~ yaml_value]) -}}
{%- endmacro %}


{#- Whether `value` (strings, numbers, none, lists and mappings, keys included) holds a string that dbt's
    rendering of a properties file would change: one holding {{, {% or {# (rendered, or failing to parse)
    or a carriage return (Jinja writes every line break as \n). The profile's twin is
    skewjoin.config_text.changed_by_dbt_in_yaml, held equal to this one by a property test. -#}
{% macro _sj_changed_in_yaml(value) -%}
    {%- if value is string -%}
        {{- return('{{' in value or '{%' in value or '{#' in value or '\r' in value) -}}
    {%- elif value is mapping -%}
        {%- for k, v in value.items() -%}
            {%- if skewjoin._sj_changed_in_yaml(k) or skewjoin._sj_changed_in_yaml(v) -%}{{- return(true) -}}{%- endif -%}
        {%- endfor -%}
    {%- elif value is iterable -%}
        {%- for v in value -%}
            {%- if skewjoin._sj_changed_in_yaml(v) -%}{{- return(true) -}}{%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {{- return(false) -}}
{%- endmacro %}


{#- `config` with the hot keys of integral join keys as numbers. -#}
{% macro _sj_pin_typed(config, j) -%}
    {%- set out = {} -%}
    {%- do out.update(config) -%}
    {%- if config.get('hot_keys') is mapping -%}
        {%- set kinds = [] -%}
        {%- for k in j['keys'] -%}{%- do kinds.append(skewjoin._sj_type_kind(k.type)) -%}{%- endfor -%}
        {%- set hot = {} -%}
        {%- for alias, values in config.hot_keys.items() -%}
            {%- set typed = [] -%}
            {%- for v in values -%}
                {%- if v is not none and v is not string and v is iterable -%}
                    {%- set t = [] -%}
                    {%- for part in v -%}{%- do t.append(skewjoin._sj_pin_number(part, kinds[loop.index0])) -%}{%- endfor -%}
                    {%- do typed.append(t) -%}
                {%- else -%}
                    {%- do typed.append(skewjoin._sj_pin_number(v, kinds[0])) -%}
                {%- endif -%}
            {%- endfor -%}
            {%- do hot.update({alias: typed}) -%}
        {%- endfor -%}
        {%- do out.update({'hot_keys': hot}) -%}
    {%- endif -%}
    {{- return(out) -}}
{%- endmacro %}


{% macro _sj_pin_number(value, kind) -%}
    {%- if kind == 'integral' and value is string and modules.re.fullmatch('-?[0-9]+', value | trim) -%}
        {{- return(value | trim | int) -}}
    {%- endif -%}
    {{- return(value) -}}
{%- endmacro %}


{#- A value as a Jinja literal: none, true/false, numbers, quoted strings,
    lists and dicts. -#}
{% macro _sj_jinja_literal(value) -%}
    {%- if value is none -%}
        {{- return('none') -}}
    {%- elif value is sameas true or value is sameas false -%}
        {{- return(value | string | lower) -}}
    {%- elif value is number -%}
        {{- return(value | string) -}}
    {%- elif value is string -%}
        {{- return("'" ~ value.replace('\\', '\\\\').replace("'", "\\'").replace('\n', '\\n') ~ "'") -}}
    {%- elif value is mapping -%}
        {%- set items = [] -%}
        {%- for k, v in value.items() -%}
            {%- do items.append(skewjoin._sj_jinja_literal(k) ~ ': ' ~ skewjoin._sj_jinja_literal(v)) -%}
        {%- endfor -%}
        {{- return('{' ~ (items | join(', ')) ~ '}') -}}
    {%- endif -%}
    {%- set items = [] -%}
    {%- for v in value -%}{%- do items.append(skewjoin._sj_jinja_literal(v)) -%}{%- endfor -%}
    {{- return('[' ~ (items | join(', ')) ~ ']') -}}
{%- endmacro %}

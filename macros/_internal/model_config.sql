{#- A model config the package reads (skew_join, star_join), also inside a
    dbt unit test. dbt compiles a unit test as its own node with its own
    config (materialized 'unit', the expected rows): `config.get` there does
    not see the model's `{{ config(skew_join=...) }}`. So in a unit test the
    value is read from the model's code: the literal after `skew_join=` in
    its config() call, parsed as a YAML flow value (a Jinja dict or list of
    literals is one; `none` becomes null). A value that is not a literal
    (a var(), a concatenation) stops compilation with the way out: pass the
    specification as the macro's argument. -#}

{% macro _sj_model_config(name, macro_name='skew_join') -%}
    {%- if not skewjoin._sj_in_unit_test() -%}
        {{- return(config.get(name, none)) -}}
    {%- endif -%}
    {%- set code = model.raw_code if model.raw_code is defined else '' -%}
    {%- set text = skewjoin._sj_config_literal_text(code | string, name) -%}
    {%- if text is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set yaml_text = modules.re.sub('(?<![\\w\'".])(none|None)(?![\\w\'"])', 'null', text) -%}
    {%- set yaml_text = modules.re.sub('(?<![\\w\'".])True(?![\\w\'"])', 'true', yaml_text) -%}
    {%- set yaml_text = modules.re.sub('(?<![\\w\'".])False(?![\\w\'"])', 'false', yaml_text) -%}
    {%- set literal = text[:1] in ('{', '[', "'", '"')
        or modules.re.fullmatch('-?[0-9.]+|none|None|true|True|false|False', text) is not none -%}
    {%- set parsed = fromyaml('value: ' ~ yaml_text) if literal else none -%}
    {%- if parsed is not mapping or 'value' not in parsed -%}
        {%- set problem -%}
in a dbt unit test dbt does not pass the model's config to the macros, and skewjoin could not read
config({{ name }}=...) from the model's code as a literal ({{ text[:200] }}); pass the specification as the macro's
argument instead
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, name, problem, 'skew={...} in the skewjoin.' ~ macro_name ~ '(...) call') -%}
    {%- endif -%}
    {{- return(parsed['value']) -}}
{%- endmacro %}


{#- The text of the value given as `name=` in the config() call of a model's
    code (balanced brackets, quotes respected), or none. -#}
{% macro _sj_config_literal_text(code, name) -%}
    {%- set call = modules.re.search('\\bconfig\\s*\\((.*)', code, flags=modules.re.S) -%}
    {%- if call is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set arg = modules.re.search('\\b' ~ name ~ '\\s*=\\s*', call.group(1)) -%}
    {%- if arg is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set rest = call.group(1)[arg.end():] -%}
    {%- set s = namespace(depth=0, quote=none, escaped=false, out='', done=false) -%}
    {%- for ch in rest if not s.done -%}
        {%- if s.quote is not none -%}
            {%- if s.escaped -%}{%- set s.escaped = false -%}
            {%- elif ch == '\\' -%}{%- set s.escaped = true -%}
            {%- elif ch == s.quote -%}{%- set s.quote = none -%}
            {%- endif -%}
            {%- set s.out = s.out ~ ch -%}
        {%- elif ch in '\'"' -%}
            {%- set s.quote = ch -%}
            {%- set s.out = s.out ~ ch -%}
        {%- elif ch in '{[(' -%}
            {%- set s.depth = s.depth + 1 -%}
            {%- set s.out = s.out ~ ch -%}
        {%- elif ch in '}])' and s.depth == 0 -%}
            {%- set s.done = true -%}
        {%- elif ch in '}])' -%}
            {%- set s.depth = s.depth - 1 -%}
            {%- set s.out = s.out ~ ch -%}
        {%- elif ch == ',' and s.depth == 0 -%}
            {%- set s.done = true -%}
        {%- else -%}
            {%- set s.out = s.out ~ ch -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(s.out | trim) -}}
{%- endmacro %}

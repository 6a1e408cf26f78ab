{#- The predicates that route a side's rows to the hot-key branch. -#}


{#- The null-safe predicate "the keys of `side` (alias) are one of tuples". -#}
{% macro _sj_in_tuples(j, side, alias, tuples) -%}
    {%- set exprs = skewjoin._sj_route_keys(j, side, alias) -%}
    {%- if exprs | length == 1 -%}
        {%- set items = [] -%}
        {%- for t in tuples -%}{%- do items.append(skewjoin._sj_route_literal(t[0], j['keys'][0].type)) -%}{%- endfor -%}
        {{- return('coalesce(' ~ exprs[0] ~ ' in (' ~ (items | join(', ')) ~ '), false)') -}}
    {%- endif -%}
    {%- set ors = [] -%}
    {%- for t in tuples -%}
        {%- set ands = [] -%}
        {%- for e in exprs -%}
            {%- do ands.append(e ~ ' = ' ~ skewjoin._sj_route_literal(t[loop.index0], j['keys'][loop.index0].type)) -%}
        {%- endfor -%}
        {%- do ors.append('(' ~ (ands | join(' and ')) ~ ')') -%}
    {%- endfor -%}
    {{- return('coalesce(' ~ (ors | join(' or ')) ~ ', false)') -}}
{%- endmacro %}


{% macro _sj_any_key_null(j, side, alias) -%}
    {%- set parts = [] -%}
    {%- for k in j['keys'] -%}
        {%- do parts.append(alias ~ '.' ~ (k.left_ident if side == 'left' else k.right_ident) ~ ' is null') -%}
    {%- endfor -%}
    {{- return('(' ~ (parts | join(' or ')) ~ ')') -}}
{%- endmacro %}

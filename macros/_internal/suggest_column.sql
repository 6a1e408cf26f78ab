{#- A column of `columns` to suggest in place of `name`, which is not one of
    them (for the "Right form" of a message): the near miss, else the column
    named like `partner` (the other side's key), else the first of type
    `partner_type`, else the first column. -#}
{% macro _sj_suggest_column(columns, name, partner=none, partner_type=none) -%}
    {%- set names = columns | map(attribute='name') | list -%}
    {%- set near = skewjoin._sj_did_you_mean(name, names) -%}
    {%- if near -%}
        {{- return(near.split("'")[1]) -}}
    {%- endif -%}
    {%- set same = skewjoin._sj_find_column(columns, partner) if partner is not none else none -%}
    {%- if same is not none -%}
        {{- return(same.name) -}}
    {%- endif -%}
    {%- for c in columns if partner_type is not none and c.type == partner_type -%}
        {{- return(c.name) -}}
    {%- endfor -%}
    {{- return(names[0] if names else 'id') -}}
{%- endmacro %}

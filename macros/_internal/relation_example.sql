{#- A relation the model itself refers to, as a right form writes it
    (`ref('<name>')` of the model's first ref), so that an example fits the
    user's project; `ref('<model name>')` when the model refers to none. -#}
{% macro _sj_relation_example() -%}
    {%- set refs = none -%}
    {%- if model is defined and model is mapping -%}
        {%- set refs = model.get('refs') -%}
    {%- elif model is defined and model is not none and model.refs is defined -%}
        {%- set refs = model.refs -%}
    {%- endif -%}
    {%- if refs -%}
        {%- set first = refs[0] -%}
        {%- set name = first.get('name') if first is mapping else (first | last if first is iterable and first is not string
            else first) -%}
        {%- if name is string and name -%}
            {{- return("ref('" ~ name ~ "')") -}}
        {%- endif -%}
    {%- endif -%}
    {{- return("ref('<model name>')") -}}
{%- endmacro %}

{#- 'NaN', 'Infinity' or '-Infinity' (as Spark casts them to a double) when
    `data_type` is a float or double and `value` names one of them ('NaN',
    'nan', float('nan'), 'inf', ...), else none. Spark joins NaN with NaN (its equality treats NaN as equal to
    itself and larger than any number), so a NaN key can be hot, and the
    hot branch's IN and the rest's NOT IN see the same NaN. -#}
{% macro _sj_special_float(value, data_type) -%}
    {%- if value is none or value is boolean
           or skewjoin._sj_type_kind(skewjoin._sj_normalize_type(data_type)) != 'fractional' -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set text = value | string | trim | lower -%}
    {%- if text == 'nan' -%}
        {{- return('NaN') -}}
    {%- elif text in ('inf', '+inf', 'infinity', '+infinity') -%}
        {{- return('Infinity') -}}
    {%- elif text in ('-inf', '-infinity') -%}
        {{- return('-Infinity') -}}
    {%- endif -%}
    {{- return(none) -}}
{%- endmacro %}

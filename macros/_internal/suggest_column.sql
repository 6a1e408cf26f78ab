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


{#- The right form of one `on` pair [big, small] whose column `bc` or `sc`
    (the found columns, or none) is missing: each missing name replaced by
    the column to suggest in its place, the found one kept, so that the form
    is whole even where both names are wrong (a single misspelled name given
    for both sides). -#}
{% macro _sj_pair_right_form(pair, big_columns, bc, small_columns, sc) -%}
    {%- set big = bc.name if bc is not none
        else skewjoin._sj_suggest_column(big_columns, pair[0], pair[1], sc.type if sc is not none else none) -%}
    {%- set small = sc.name if sc is not none
        else skewjoin._sj_suggest_column(small_columns, pair[1], big, bc.type if bc is not none else none) -%}
    {{- return("[['" ~ big ~ "', '" ~ small ~ "']]") -}}
{%- endmacro %}

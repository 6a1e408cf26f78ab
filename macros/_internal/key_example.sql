{#- The right form of a wrong `on`: a key the two inputs really share. -#}

{#- An `on` that compiles for these two inputs (described here; for inputs
    whose columns are known, `_sj_key_example`). -#}
{% macro _sj_shared_key_example(left_from, right_from, wanted=none) -%}
    {%- set ansi = (skewjoin._sj_spark_conf('spark.sql.ansi.enabled', 'false') | lower) == 'true' -%}
    {{- return(skewjoin._sj_key_example(skewjoin._sj_columns(left_from), skewjoin._sj_columns(right_from), ansi,
                                        wanted)) -}}
{%- endmacro %}


{#- An `on` that compiles for two sides with these columns: the pair of
    columns, one of each side, closest to `wanted` ([left name, right name])
    that Spark can compare; a column name both sides share when nothing is
    wanted. -#}
{% macro _sj_key_example(left_columns, right_columns, ansi, wanted=none) -%}
    {#- a pair of columns is a right form when Spark compares them and they hold the same kind of value (a
        bigint id and a string name compare, but are no key of one join) -#}
    {%- set near = namespace(left=none, right=none, dl=99, dr=99) -%}
    {%- if wanted is not none -%}
        {%- for c in left_columns -%}
            {%- set d = skewjoin._sj_edit_distance(wanted[0] | lower, c.name | lower) -%}
            {%- if d < near.dl -%}{%- set near.left = c -%}{%- set near.dl = d -%}{%- endif -%}
        {%- endfor -%}
        {%- for c in right_columns -%}
            {%- set d = skewjoin._sj_edit_distance(wanted[1] | lower, c.name | lower) -%}
            {%- if d < near.dr -%}{%- set near.right = c -%}{%- set near.dr = d -%}{%- endif -%}
        {%- endfor -%}
        {#- one side holds the column asked for: pair it with the other side's nearest column of its kind -#}
        {%- for mine, theirs, exact in [('left', 'right', near.dr == 0 and near.dl > 0),
                                        ('right', 'left', near.dl == 0 and near.dr > 0)] if exact -%}
            {%- set kept = near[theirs] -%}
            {%- set best = namespace(column=none, d=99) -%}
            {%- for c in (left_columns if mine == 'left' else right_columns)
                    if skewjoin._sj_type_kind(c.type) == skewjoin._sj_type_kind(kept.type) -%}
                {%- set d = skewjoin._sj_edit_distance((wanted[0] if mine == 'left' else wanted[1]) | lower, c.name | lower) -%}
                {%- if d < best.d -%}{%- set best.column = c -%}{%- set best.d = d -%}{%- endif -%}
            {%- endfor -%}
            {%- if mine == 'left' -%}{%- set near.left = best.column -%}{%- else -%}{%- set near.right = best.column -%}{%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if near.left is none or near.right is none
           or skewjoin._sj_type_kind(near.left.type) != skewjoin._sj_type_kind(near.right.type)
           or skewjoin._sj_common_type(near.left.type, near.right.type, ansi) is none -%}
        {%- set near.left = none -%}
        {%- for c in left_columns if near.left is none -%}
            {%- set other = skewjoin._sj_find_column(right_columns, c.name) -%}
            {%- if other is not none and skewjoin._sj_type_kind(c.type) == skewjoin._sj_type_kind(other.type)
                   and skewjoin._sj_common_type(c.type, other.type, ansi) is not none -%}
                {%- set near.left = c -%}{%- set near.right = other -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if near.left is none -%}
        {{- return("[['order_customer_id', 'customer_id']]  (a column of each side, same or comparable types)") -}}
    {%- elif near.left.name | lower == near.right.name | lower -%}
        {{- return("['" ~ near.left.name ~ "']") -}}
    {%- endif -%}
    {{- return("[['" ~ near.left.name ~ "', '" ~ near.right.name ~ "']]") -}}
{%- endmacro %}

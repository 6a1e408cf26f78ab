{#- skew_join's SQL from its plan (`_sj_skew_plan`), no query: the plain
    join, or the hot-key branch and/or the slotted shuffle join of the rest,
    unioned. -#}
{% macro _sj_skew_join_sql(j, planned) -%}
    {%- if planned.plain -%}
        {{- return(skewjoin._sj_plain_join_sql(j)) -}}
    {%- endif -%}
    {%- set la = j.left.alias -%}
    {%- set ra = j.right.alias -%}
    {%- set hot = planned.hot -%}
    {%- set plan = planned.layout -%}
    {%- set ctes = [
        [la ~ '_input', 'select * from ' ~ j.left['from'] ~ ' as sj_source'],
        [ra ~ '_input', 'select * from ' ~ j.right['from'] ~ ' as sj_source']
    ] -%}
    {%- set inputs = {'left': la ~ '_input', 'right': ra ~ '_input'} -%}
    {%- set final_selects = [] -%}
    {%- if hot.active -%}
        {%- set hot_sql = skewjoin._sj_hot_key_ctes(j, hot, inputs) -%}
        {%- do ctes.extend(hot_sql.ctes) -%}
        {%- do final_selects.extend(hot_sql.selects) -%}
        {%- set inputs = hot_sql.rest_inputs -%}
    {%- endif -%}
    {%- if plan is not none -%}
        {%- set left_side = skewjoin._sj_slotted_side_ctes(j, plan, 'left', inputs.left) -%}
        {%- set right_side = skewjoin._sj_slotted_side_ctes(j, plan, 'right', inputs.right) -%}
        {%- do ctes.extend(left_side.ctes) -%}
        {%- do ctes.extend(right_side.ctes) -%}
        {%- set rest_join -%}
select
    {{ j.select_list | join(',\n    ') }}
from {{ left_side.final }} as {{ la }}
{{ j.semantics.keyword }} {{ right_side.final }} as {{ ra }}
    on {{ skewjoin._sj_on_condition(j) }}
    and {{ la }}.sj_slot = {{ ra }}.sj_slot
        {%- endset -%}
    {%- else -%}
        {%- set rest_join = skewjoin._sj_plain_join_sql(j, inputs.left, inputs.right) -%}
    {%- endif -%}
    {%- set body = skewjoin._sj_skew_body(hot.active, ctes, final_selects, 'rest_joined', rest_join) -%}
    {{- return(skewjoin._sj_with_ctes(ctes, body)) -}}
{%- endmacro %}

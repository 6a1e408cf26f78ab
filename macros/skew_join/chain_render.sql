{#- skew_join_chain's SQL from its plan (`_sj_skew_plan`), no query: the
    plain chain, or the large side's hot-key branch and/or the chain of
    slotted shuffle joins of the rest, unioned. -#}
{% macro _sj_chain_sql(pairs, select_list, planned) -%}
    {%- set j = pairs[0] -%}
    {%- set left_alias = j.left.alias -%}
    {%- if planned.plain -%}
        {%- set plain_inputs = {left_alias: j.left['from']} -%}
        {%- for p in pairs -%}{%- do plain_inputs.update({p.right.alias: p.right['from']}) -%}{%- endfor -%}
        {{- return(skewjoin._sj_chain_join_sql(pairs, select_list, plain_inputs)) -}}
    {%- endif -%}
    {%- set hot = planned.hot -%}
    {%- set plan = planned.layout -%}
    {%- set ctes = [[left_alias ~ '_input', 'select * from ' ~ j.left['from'] ~ ' as sj_source']] -%}
    {%- set inputs = {left_alias: left_alias ~ '_input'} -%}
    {%- for p in pairs -%}
        {%- do ctes.append([p.right.alias ~ '_input', 'select * from ' ~ p.right['from'] ~ ' as sj_source']) -%}
        {%- do inputs.update({p.right.alias: p.right.alias ~ '_input'}) -%}
    {%- endfor -%}
    {%- set selects = [] -%}
    {%- set rest = inputs -%}
    {%- if hot.active -%}
        {%- set hot_sql = skewjoin._sj_hot_chain_ctes(pairs, hot, inputs, select_list) -%}
        {%- do ctes.extend(hot_sql.ctes) -%}
        {%- do selects.extend(hot_sql.selects) -%}
        {%- set rest = hot_sql.rest -%}
    {%- endif -%}
    {%- if plan is not none -%}
        {%- set slotted = {} -%}
        {%- set a_side = skewjoin._sj_slotted_side_ctes(j, plan, 'left', rest[left_alias]) -%}
        {%- do ctes.extend(a_side.ctes) -%}
        {%- do slotted.update({left_alias: a_side.final}) -%}
        {%- for p in pairs -%}
            {%- set b_side = skewjoin._sj_slotted_side_ctes(p, plan, 'right', rest[p.right.alias]) -%}
            {%- do ctes.extend(b_side.ctes) -%}
            {%- do slotted.update({p.right.alias: b_side.final}) -%}
        {%- endfor -%}
        {%- set rest_sql = skewjoin._sj_chain_join_sql(pairs, select_list, slotted, slot=true) -%}
    {%- else -%}
        {%- set rest_sql = skewjoin._sj_chain_join_sql(pairs, select_list, rest) -%}
    {%- endif -%}
    {%- set body = skewjoin._sj_skew_body(selects | length > 0, ctes, selects, 'rest_chain', rest_sql) -%}
    {{- return(skewjoin._sj_with_ctes(ctes, body)) -}}
{%- endmacro %}

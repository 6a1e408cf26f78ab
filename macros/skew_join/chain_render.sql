{#- skew_join_chain's SQL from its plan (no query): the large side's hot-key
    branch and/or the chain of slotted shuffle joins of the rest, unioned.
    `planned`: {'hot', 'plan', 'slots'} (`_sj_plan_skew`); `retyped`: whether
    a join's key type differs from the chain's. Returns {'sql', 'lines' (the
    record of what was rendered)}. -#}
{% macro _sj_chain_sql(pairs, select_list, planned, retyped) -%}
    {%- set j = pairs[0] -%}
    {%- set left_alias = j.left.alias -%}
    {%- set hot = planned.hot -%}
    {%- set plan = planned.plan -%}
    {%- set slots = planned.slots -%}
    {%- set lines = [] -%}
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
        {%- do lines.extend(hot_sql.lines) -%}
        {%- set rest = hot_sql.rest -%}
    {%- endif -%}
    {%- if plan is not none -%}
        {%- do lines.extend(skewjoin._sj_place_groups(j, plan, slots[1], hot)) -%}
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
        {%- do lines.append('every join of the chain matches on (keys, sj_slot): ' ~ left_alias ~ ' is salted once'
            ~ ' and the rows of every other side (' ~ (pairs | map(attribute='right') | map(attribute='alias')
            | join(', ')) ~ ') of a group are copied to the same slots, so '
            ~ ('Spark keeps the first join\'s partitioning for the next ones and shuffles ' ~ left_alias ~ ' once'
               if not retyped else 'a join whose key type matches the previous one\'s keeps its partitioning (the'
               ~ ' others shuffle again, see above)')) -%}
    {%- else -%}
        {%- set rest_sql = skewjoin._sj_chain_join_sql(pairs, select_list, rest) -%}
    {%- endif -%}
    {%- set last = skewjoin._sj_skew_body(selects | length > 0, ctes, selects, 'rest_chain', rest_sql, plan is not none,
        {'hot': 'a chain of broadcast joins', 'plain': 'the plain chain', 'slotted': 'a chain of shuffle joins'}) -%}
    {{- return({'sql': skewjoin._sj_with_ctes(ctes, last.body), 'lines': lines + [last.line]}) -}}
{%- endmacro %}

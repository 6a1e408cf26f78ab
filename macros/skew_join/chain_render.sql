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


{#- The chain's hot keys (of its large side only; its joins are inner or
    left): the large side's NULL-key rows bypass the chain, its hot rows
    and every other side's rows of those keys go to the hot branch
    (`_sj_hot_branch`, one step per join), the rest to the shuffle joins.
    Returns {'ctes', 'selects', 'rest' (alias -> the CTE of the rows left to
    the shuffle joins)}. -#}
{% macro _sj_hot_chain_ctes(pairs, hot, inputs, select_list) -%}
    {%- set j = pairs[0] -%}
    {%- set a = j.left.alias -%}
    {%- set out = {'ctes': [], 'selects': [], 'rest': {}} -%}
    {%- do out.rest.update(inputs) -%}
    {%- set conds = [] -%}
    {%- if hot.null_left -%}
        {%- set kept = none -%}
        {%- if (pairs | selectattr('join_type', 'equalto', 'left') | list | length) == (pairs | length) -%}
            {%- set empty = {a: a ~ '_null_keys'} -%}
            {%- for p in pairs -%}
                {%- do empty.update({p.right.alias: '(select * from ' ~ inputs[p.right.alias] ~ ' where false)'}) -%}
            {%- endfor -%}
            {%- set kept = skewjoin._sj_chain_join_sql(pairs, select_list, empty) -%}
        {%- endif -%}
        {%- set bypass = skewjoin._sj_null_bypass(j, 'left', inputs[a], kept) -%}
        {%- do conds.append(bypass.pred) -%}
        {%- do out.ctes.extend(bypass.ctes) -%}
        {%- do out.selects.extend(bypass.selects) -%}
    {%- endif -%}
    {%- if hot.left is not none -%}
        {%- set steps = [] -%}
        {%- for p in pairs -%}
            {%- do steps.append({'alias': p.right.alias, 'pair': p, 'pos': 'right',
                                 'keyword': p.join_type ~ ' join'}) -%}
        {%- endfor -%}
        {%- set branch = skewjoin._sj_hot_branch({'alias': a, 'pair': j, 'pos': 'left'}, steps, hot.left.tuples,
            inputs, select_list, {'rows': '{side}_hot', 'branch': 'hot_chain', 'read': false}) -%}
        {%- do conds.append(branch.preds[a]) -%}
        {%- do out.ctes.extend(branch.hub) -%}
        {%- for s in steps -%}
            {%- do out.ctes.extend(branch.others[s.alias]) -%}
            {%- do out.ctes.append([s.alias ~ '_rest', 'select * from ' ~ inputs[s.alias] ~ ' as ' ~ s.alias
                ~ '\nwhere not ' ~ branch.preds[s.alias]]) -%}
            {%- do out.rest.update({s.alias: s.alias ~ '_rest'}) -%}
        {%- endfor -%}
        {%- do out.ctes.extend(branch.branch) -%}
        {%- do out.selects.extend(branch.selects) -%}
    {%- endif -%}
    {%- do out.ctes.append(skewjoin._sj_hot_rest_cte(a, inputs[a], conds)) -%}
    {%- do out.rest.update({a: a ~ '_rest'}) -%}
    {{- return(out) -}}
{%- endmacro %}

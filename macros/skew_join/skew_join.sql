{#- skew_join: the join of two relations, made fast for the skew the user
    describes (explicit skew groups, hot keys), and equal as a multiset of rows
    to the plain Spark join of the same inputs.

    Pipeline, as every capability of the package: spec (arguments and skew
    specification checked, no query) -> resolve (the sides' columns and key
    types) -> plan (slot layout, hot keys, spread) -> render (SQL and the
    decision record).

    Usage in a model:
        {{ config(skew_join={'groups': [{'when': "a.customer_id = 0", 'percent': 40}]}) }}
        {{ skewjoin.skew_join(ref('orders'), ref('customers'), on=['customer_id']) }}
-#}

{% macro skew_join(left, right, on, join_type='inner', columns=none, left_alias='a', right_alias='b', skew=none) -%}
    {{- return(adapter.dispatch('skew_join', 'skewjoin')(
        left, right, on, join_type, columns, left_alias, right_alias, skew)) -}}
{%- endmacro %}


{% macro default__skew_join(left, right, on, join_type, columns, left_alias, right_alias, skew) -%}
    {%- do skewjoin._sj_spark_only('skew_join', 'generates Spark SQL (xxhash64, explode, broadcast hints)') -%}
{%- endmacro %}


{% macro spark__skew_join(left, right, on, join_type, columns, left_alias, right_alias, skew) -%}
    {%- if not execute -%}
        {#- parse time: valid SQL, no queries (configs are not resolved yet) -#}
        {{- return('select * from ' ~ skewjoin._sj_from_text('skew_join', 'left', left) ~ ' as ' ~ left_alias
                   ~ ' cross join ' ~ skewjoin._sj_from_text('skew_join', 'right', right) ~ ' as ' ~ right_alias) -}}
    {%- endif -%}
    {#- spec: no query -#}
    {%- set spec = skewjoin._sj_join_spec('skew_join', left, right, on, join_type, columns, left_alias, right_alias) -%}
    {%- set skew = skewjoin._sj_skew_spec(spec, skew) -%}
    {#- resolve -#}
    {%- set j = skewjoin._sj_resolve_join(spec) -%}
    {#- plan -#}
    {%- set lines = [skewjoin._sj_join_record_line(j, skew.source)] -%}
    {%- if j.renamed -%}
        {%- do lines.append('output columns of ' ~ right_alias ~ ' renamed to avoid duplicate names: '
            ~ (j.renamed | join(', '))) -%}
    {%- endif -%}
    {%- set guard = skewjoin._sj_parallelism_guard(skew) -%}
    {%- do lines.extend(guard.lines) -%}
    {%- if skew.auto is not none -%}
        {%- set auto = skewjoin._sj_auto_skew(spec, j, skew, guard) -%}
        {%- do lines.extend(auto.lines) -%}
        {%- set skew = auto.skew -%}
    {%- endif -%}
    {%- set planned = skewjoin._sj_plan_skew(j, skew, guard) -%}
    {%- set hot = planned.hot -%}
    {%- set plan = planned.plan -%}
    {%- set slots = planned.slots -%}
    {%- do lines.extend(hot.lines) -%}
    {%- do lines.extend(planned.lines) -%}
    {%- if guard.declined -%}
        {%- do lines.append('strategy: plain join (skew plans declined on this local Spark, see above)') -%}
        {{- return(skewjoin._sj_record_sql('skew_join', lines) ~ '\n' ~ skewjoin._sj_plain_join_sql(j)) -}}
    {%- endif -%}
    {%- if plan is none and not hot.active -%}
        {%- set hot_text = ' and no hot keys' if not hot.requested else (', hot keys dropped after verification'
            if hot.get('dropped') else ', hot keys declined') -%}
        {%- do lines.append('strategy: plain join (no skew groups' ~ (' left after verification' if planned.dropped
            else '') ~ hot_text ~ ')') -%}
        {{- return(skewjoin._sj_record_sql('skew_join', lines) ~ '\n' ~ skewjoin._sj_plain_join_sql(j)) -}}
    {%- endif -%}
    {#- render -#}
    {%- set ctes = [
        [left_alias ~ '_input', 'select * from ' ~ j.left['from'] ~ ' as sj_source'],
        [right_alias ~ '_input', 'select * from ' ~ j.right['from'] ~ ' as sj_source']
    ] -%}
    {%- set inputs = {'left': left_alias ~ '_input', 'right': right_alias ~ '_input'} -%}
    {%- set final_selects = [] -%}
    {%- if hot.active -%}
        {%- set hot_sql = skewjoin._sj_hot_key_ctes(j, hot, inputs) -%}
        {%- do ctes.extend(hot_sql.ctes) -%}
        {%- do final_selects.extend(hot_sql.selects) -%}
        {%- set inputs = hot_sql.rest_inputs -%}
        {%- do lines.extend(hot_sql.lines) -%}
    {%- endif -%}
    {%- if plan is not none -%}
        {%- do lines.extend(skewjoin._sj_place_groups(j, plan, slots[1], hot)) -%}
        {%- set left_side = skewjoin._sj_slotted_side_ctes(j, plan, 'left', inputs.left) -%}
        {%- set right_side = skewjoin._sj_slotted_side_ctes(j, plan, 'right', inputs.right) -%}
        {%- do ctes.extend(left_side.ctes) -%}
        {%- do ctes.extend(right_side.ctes) -%}
        {%- set rest_join -%}
select
    {{ j.select_list | join(',\n    ') }}
from {{ left_side.final }} as {{ left_alias }}
{{ j.semantics.keyword }} {{ right_side.final }} as {{ right_alias }}
    on {{ skewjoin._sj_on_condition(j) }}
    and {{ left_alias }}.sj_slot = {{ right_alias }}.sj_slot
        {%- endset -%}
    {%- else -%}
        {%- set rest_join = skewjoin._sj_plain_join_sql(j, inputs.left, inputs.right) -%}
    {%- endif -%}
    {%- if hot.active -%}
        {%- do ctes.append(['rest_joined', rest_join]) -%}
        {%- do final_selects.append('select * from rest_joined') -%}
        {%- set body = final_selects | join('\nunion all\n') -%}
        {%- do lines.append('strategy: hot keys by broadcast + ' ~ ('skew groups for the rest' if plan is not none
            else 'plain shuffle join for the rest') ~ ', results unioned') -%}
    {%- else -%}
        {%- set body = rest_join -%}
        {%- do lines.append('strategy: skew groups over a shuffle join on (keys, slot)') -%}
    {%- endif -%}
    {{- return(skewjoin._sj_record_sql('skew_join', lines) ~ '\n' ~ skewjoin._sj_with_ctes(ctes, body)) -}}
{%- endmacro %}


{#- The plan of a checked specification: its hot keys (with the input splits
    'auto' measured, which the spread rule reads) and its skew groups,
    verified against the data (verify.sql) and laid out in the total
    slots. Returns {'hot', 'plan' (none without groups), 'slots' ([n, where
    it came from], or none), 'lines' (the verification's record), 'dropped'
    (the groups it dropped)}. -#}
{% macro _sj_plan_skew(j, skew, guard) -%}
    {%- set out = {'hot': none, 'plan': none, 'slots': none, 'lines': [], 'dropped': []} -%}
    {#- every declared group is checked against the rules before any data is counted -#}
    {%- if skew.groups -%}
        {%- set slots = skewjoin._sj_total_slots(skew) -%}
        {%- do out.update({'slots': slots, 'plan': skewjoin._sj_plan_groups(j, skew.groups, slots[0])}) -%}
    {%- endif -%}
    {%- set hot = skewjoin._sj_plan_hot_keys(j, skew.hot, skew, guard) -%}
    {%- for side in (skew.get('splits') or {}) -%}
        {%- do hot.update({'splits_' ~ side: skew.splits[side]}) -%}
    {%- endfor -%}
    {%- do out.update({'hot': hot}) -%}
    {#- then (unless declined) the groups are counted, on the rows the hot keys leave them -#}
    {%- if out.plan is not none and skew.get('verify') is not none and not guard.declined -%}
        {%- set verified = skewjoin._sj_verify_groups(j, out.plan, skew.verify, hot) -%}
        {%- do out.update({'lines': verified.lines, 'dropped': verified.dropped}) -%}
        {%- if verified.dropped -%}
            {%- do out.update({'plan': skewjoin._sj_plan_groups(j, verified.kept, out.slots[0]) if verified.kept
                else none}) -%}
        {%- endif -%}
    {%- endif -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The record's first line: the join, its keys and their types. -#}
{% macro _sj_join_record_line(j, source) -%}
    {%- set key_text = [] -%}
    {%- for k in j['keys'] -%}
        {%- set compared = (', compared as ' ~ k.type) if k.left_type != k.right_type else '' -%}
        {%- do key_text.append(j.left.alias ~ '.' ~ k.left ~ ' (' ~ k.left_type ~ ') = ' ~ j.right.alias ~ '.' ~ k.right
            ~ ' (' ~ k.right_type ~ ')' ~ compared) -%}
    {%- endfor -%}
    {{- return(j.join_type ~ ' join on ' ~ (key_text | join(' and ')) ~ '; skew specification from ' ~ source) -}}
{%- endmacro %}

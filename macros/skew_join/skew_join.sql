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
        {#- parse time: valid SQL, no queries (configs are not resolved yet), no error (a bad argument stops
            this model when it compiles, not every dbt command at parse time) -#}
        {%- if not (skewjoin._sj_input_renders(left) and skewjoin._sj_input_renders(right)) -%}
            {{- return('select 1 as sj_parse_time') -}}
        {%- endif -%}
        {{- return('select * from ' ~ skewjoin._sj_from_text('skew_join', 'left', left) ~ ' as ' ~ left_alias
                   ~ ' cross join ' ~ skewjoin._sj_from_text('skew_join', 'right', right) ~ ' as ' ~ right_alias) -}}
    {%- endif -%}
    {#- spec: the arguments and the skew specification, checked (no query) -#}
    {%- set spec = skewjoin._sj_join_spec('skew_join', left, right, on, join_type, columns, left_alias, right_alias) -%}
    {%- set skew = skewjoin._sj_skew_spec(spec, skew) -%}
    {#- resolve: the sides' columns, the keys' common types, the output columns -#}
    {%- set j = skewjoin._sj_resolve_join(spec) -%}
    {#- measure and plan: every query (parallelism, 'auto', verification, slot placement, spread), then the
        strategy; nothing below queries -#}
    {%- set planned = skewjoin._sj_skew_join_plan(spec, j, skew) -%}
    {#- render: the SQL, and the decision record (the plan's lines, then the rendered branches') -#}
    {%- set rendered = skewjoin._sj_skew_join_sql(j, planned) -%}
    {{- return(skewjoin._sj_record_sql('skew_join', planned.lines + rendered.lines) ~ '\n' ~ rendered.sql) -}}
{%- endmacro %}


{#- The plan of a checked specification: its hot keys (with the input splits
    'auto' measured, which the spread rule reads) and its skew groups,
    verified against the data (verify.sql) and laid out in the total
    slots, then (`spread`: skew_join's hot branch) each hot side's spread
    decided and the groups' slots placed: every query of a skew plan runs
    here, before anything is rendered. Returns {'hot', 'plan' (none without groups), 'slots' ([n, where
    it came from], or none), 'lines' (the verification's record), 'dropped'
    (the groups it dropped)}. -#}
{% macro _sj_plan_skew(j, skew, guard, spread=false) -%}
    {%- set out = {'hot': none, 'plan': none, 'slots': none, 'lines': [], 'dropped': []} -%}
    {#- every declared group is checked against the rules before any data is counted -#}
    {%- set groups = [] -%}
    {%- if skew.groups -%}
        {%- set slots = skewjoin._sj_total_slots(skew) -%}
        {%- set groups = skewjoin._sj_sized_groups(j, skew.groups, slots[0]) -%}
        {%- do out.update({'slots': slots}) -%}
    {%- endif -%}
    {%- set hot = skewjoin._sj_plan_hot_keys(j, skew.hot, skew, guard) -%}
    {%- for side in (skew.get('splits') or {}) -%}
        {%- do hot.update({'splits_' ~ side: skew.splits[side]}) -%}
    {%- endfor -%}
    {%- do out.update({'hot': hot}) -%}
    {#- then (unless declined) the groups are counted, on the rows the hot keys leave them -#}
    {%- if groups and skew.get('verify') is not none and not guard.declined -%}
        {%- set verified = skewjoin._sj_verify_groups(j, {'groups': groups, 'total_slots': out.slots[0]},
            skew.verify, hot) -%}
        {%- do out.update({'lines': verified.lines, 'dropped': verified.dropped}) -%}
        {%- set groups = verified.kept -%}
    {%- endif -%}
    {#- the groups laid out once, those verification kept -#}
    {%- if groups -%}
        {%- do out.update({'plan': skewjoin._sj_plan_groups(groups, out.slots[0])}) -%}
    {%- endif -%}
    {#- the last queries: each hot side's spread (its input splits) and the groups' slot placement -#}
    {%- if not guard.declined -%}
        {%- for side in ['left', 'right'] if spread and hot.active and hot[side] is not none -%}
            {%- do hot.update({'spread_' ~ side: skewjoin._sj_hot_spread(j, hot, side)}) -%}
        {%- endfor -%}
        {%- if out.plan is not none -%}
            {%- do out.plan.update({'placement': skewjoin._sj_place_slots(j, out.plan)}) -%}
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

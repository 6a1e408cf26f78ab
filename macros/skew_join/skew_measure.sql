{#- skew_join's and skew_join_chain's measure: every query their plan needs,
    in one place and in this order: the parallelism guard, 'auto''s counts,
    the total slots, the hot keys (found or verified), the groups'
    verification, each hot side's input splits (the spread rule), the
    groups' slot placement, and, for skew_join's declared plan whose keys
    verification counted, what the AQE forecast reads (aqe_forecast.sql:
    settings and size estimates, metadata).

    Some counts depend on earlier decisions (the groups are counted on the
    rows the hot keys leave them; only the groups verification keeps are
    placed): the measure asks the plan's own pure rules for those decisions
    on the facts gathered so far. It returns facts only; the plan
    (`_sj_skew_plan`) makes every decision from them, without a query.

    Returns {'guard' (`_sj_parallelism_guard`), 'auto' (`_sj_auto_facts`,
    with 'auto'), 'slots' ([n, source], with groups), 'hot'
    (`_sj_measure_hot_keys`), 'groups' (`_sj_count_groups`, when verified),
    'spread' ({side: `_sj_measure_spread`}), 'placement'
    (`_sj_measure_placement`, with groups), 'aqe' (`_sj_aqe_read`, for a
    declared plan of skew_join)}. `spread`: whether hot rows may be spread
    (skew_join's hot branch; the chain's is not). -#}
{% macro _sj_skew_measure(spec, j, skew, spread=true) -%}
    {%- do skewjoin._sj_check_measurable_keys(spec, j, skew) -%}
    {%- set guard = skewjoin._sj_parallelism_guard(skew) -%}
    {%- set facts = {'guard': guard, 'spread': {}} -%}
    {%- if skew.auto is not none -%}
        {%- do facts.update({'auto': skewjoin._sj_auto_facts(j, skew, guard)}) -%}
        {%- set skew = skewjoin._sj_auto_decide(spec, j, skew, facts.auto).skew -%}
    {%- endif -%}
    {%- set groups = [] -%}
    {%- if skew.groups -%}
        {%- do facts.update({'slots': skewjoin._sj_total_slots(skew)}) -%}
        {%- set groups = skewjoin._sj_sized_groups(j, skew.groups, facts.slots[0]) -%}
    {%- endif -%}
    {%- do facts.update({'hot': skewjoin._sj_measure_hot_keys(j, skew, guard)}) -%}
    {%- set hot = skewjoin._sj_plan_hot_keys(j, skew, guard, facts.hot) -%}
    {%- set verified = none -%}
    {%- if groups and skew.get('verify') is not none and not guard.declined -%}
        {%- do facts.update({'groups': skewjoin._sj_count_groups(j, groups, skew.verify, hot)}) -%}
        {%- set verified = skewjoin._sj_judge_groups(groups, facts.slots[0], skew.verify, facts.groups) -%}
        {%- set groups = verified.kept -%}
    {%- endif -%}
    {%- if guard.declined -%}
        {{- return(facts) -}}
    {%- endif -%}
    {%- set known = {'parallelism': guard.parallelism} -%}
    {%- for side in ['left', 'right'] if spread and hot.active and hot[side] is not none -%}
        {%- do facts.spread.update({side: skewjoin._sj_measure_spread(j, hot, side, known)}) -%}
    {%- endfor -%}
    {%- if groups -%}
        {%- do facts.update({'placement': skewjoin._sj_measure_placement(j,
            skewjoin._sj_plan_groups(groups, facts.slots[0]))}) -%}
    {%- endif -%}
    {#- a declared plan of skew_join whose keys verification counted: what AQE's forecast reads -#}
    {%- if spec.macro == 'skew_join' and skew.auto is none -%}
        {%- set spreads = {} -%}
        {%- for side, measured in facts.spread.items() -%}
            {%- do spreads.update({side: skewjoin._sj_hot_spread(hot, side, measured)}) -%}
        {%- endfor -%}
        {%- set declared = skewjoin._sj_aqe_declared_keys(j, hot, spreads, verified) -%}
        {%- if declared is not none and declared['keys'] and not declared.unknown -%}
            {%- do facts.update({'aqe': skewjoin._sj_aqe_read(j, declared['keys'])}) -%}
        {%- endif -%}
    {%- endif -%}
    {{- return(facts) -}}
{%- endmacro %}


{#- 'auto' (the whole plan, or a side's hot keys) counts keys and declares the heavy ones as literals: a key of an
    array, map, struct or variant type has no literal, and Spark's cast of its text fails. Refused on every
    machine (a small one that declines the plan too), before any query. -#}
{% macro _sj_check_measurable_keys(spec, j, skew) -%}
    {%- if skew.auto is none and 'auto' not in (skew.hot.sides.values() | list) -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- for k in j['keys'] if skewjoin._sj_is_complex_type(k.type) -%}
        {%- set argument = 'skew_join' if skew.auto is not none else 'skew_join.hot_keys' -%}
        {%- set problem -%}
'auto' counts the keys and declares the heavy ones as literals, and the key {{ k.left }} is {{ k.type }}, a type with
no literal; describe its skew with groups (a `when` over the key), or join without a skew specification
        {%- endset -%}
        {%- do skewjoin._sj_raise(spec.macro, argument, problem, "{'groups': [{'when': '" ~ j.left.alias ~ '.'
            ~ k.left_ident ~ " is not null', 'slots': 4}]}") -%}
    {%- endfor -%}
{%- endmacro %}

{#- The plan of skew_join and skew_join_chain (pure: no query), from the
    checked specification and the measure's facts (`_sj_skew_measure`).

    Returns a dict holding every decision and the facts behind it, which the
    record (`_sj_skew_record`, `_sj_chain_record`) and the SQL renderers
    read, and nothing else:
      'macro', 'source'      the macro and where its specification came from
      'guard'                the parallelism guard: 'declined', and what it read
      'auto'                 'auto''s counts, its rules' decision on each key and
                             the specification it planned (`_sj_auto_decide`),
                             or none
      'skew'                 the specification planned (auto's, or the declared)
      'hot'                  the hot keys (`_sj_plan_hot_keys`): each side's
                             keys, how they were found or verified, and (where
                             rendered) 'spread_<side>' (`_sj_hot_spread`)
      'slots'                the total slots, [n, source] (with groups)
      'verify'               the groups' verification (`_sj_judge_groups`), or none
      'dropped'              the groups verification dropped
      'layout'               the kept groups laid out in the slots, with their
                             'placement' (`_sj_place_slots`), or none
      'aqe'                  skew_join's declared plan: the AQE forecast
                             (`_sj_aqe_declared_forecast`: would AQE split
                             every declared key as finely? then a warning),
                             or none
      'plain'                true: the plain join (see 'guard', 'hot', 'layout')
    A new decision (or the facts of a new measure) is one more key here and
    one more line in the record renderer. -#}
{% macro _sj_skew_plan(spec, j, skew, facts) -%}
    {%- set guard = facts.guard -%}
    {%- set plan = {'macro': spec.macro, 'source': skew.source, 'guard': guard, 'auto': none, 'slots': none,
                    'verify': none, 'dropped': [], 'layout': none, 'aqe': none} -%}
    {%- if skew.auto is not none -%}
        {%- do plan.update({'auto': skewjoin._sj_auto_decide(spec, j, skew, facts.auto)}) -%}
        {%- set skew = plan.auto.skew -%}
    {%- endif -%}
    {%- do plan.update({'skew': skew}) -%}
    {%- set groups = [] -%}
    {%- if skew.groups -%}
        {%- do plan.update({'slots': facts.slots}) -%}
        {%- set groups = skewjoin._sj_sized_groups(j, skew.groups, facts.slots[0]) -%}
    {%- endif -%}
    {%- set hot = skewjoin._sj_plan_hot_keys(j, skew, guard, facts.hot) -%}
    {%- do plan.update({'hot': hot}) -%}
    {%- if facts.get('groups') is not none -%}
        {%- set verified = skewjoin._sj_judge_groups(groups, facts.slots[0], skew.verify, facts.groups) -%}
        {%- do plan.update({'verify': verified, 'dropped': verified.dropped}) -%}
        {%- set groups = verified.kept -%}
    {%- endif -%}
    {%- if groups -%}
        {%- do plan.update({'layout': skewjoin._sj_plan_groups(groups, facts.slots[0])}) -%}
    {%- endif -%}
    {%- for side, measured in facts.spread.items() -%}
        {%- do hot.update({'spread_' ~ side: skewjoin._sj_hot_spread(hot, side, measured)}) -%}
    {%- endfor -%}
    {%- if plan.layout is not none and facts.get('placement') is not none -%}
        {%- do plan.layout.update({'placement': skewjoin._sj_place_slots(facts.placement)}) -%}
    {%- endif -%}
    {#- a declared plan whose keys verification counted: would AQE split them as finely (the measure read its facts
        under the same condition) -#}
    {%- if spec.macro == 'skew_join' and plan.auto is none and not guard.declined -%}
        {%- set spreads = {} -%}
        {%- for side in facts.spread -%}{%- do spreads.update({side: hot['spread_' ~ side]}) -%}{%- endfor -%}
        {%- do plan.update({'aqe': skewjoin._sj_aqe_declared_forecast(j,
            skewjoin._sj_aqe_declared_keys(j, hot, spreads, plan.verify), facts.get('aqe'))}) -%}
    {%- endif -%}
    {%- do plan.update({'plain': guard.declined or (plan.layout is none and not hot.active)}) -%}
    {{- return(plan) -}}
{%- endmacro %}

{#- skew_join's plan: every query (the parallelism guard, 'auto''s counts,
    hot-key detection and verification, the groups' verification, slot
    placement, the hot rows' spread), then the strategy. Returns {'lines' (the
    decision record so far), 'hot', 'plan' (the groups' layout, or none),
    'slots', 'plain' (true: the plain join)}. -#}
{% macro _sj_skew_join_plan(spec, j, skew) -%}
    {%- set lines = [skewjoin._sj_join_record_line(j, skew.source)] -%}
    {%- if j.renamed -%}
        {%- do lines.append('output columns of ' ~ j.right.alias ~ ' renamed to avoid duplicate names: '
            ~ (j.renamed | join(', '))) -%}
    {%- endif -%}
    {%- set guard = skewjoin._sj_parallelism_guard(skew) -%}
    {%- do lines.extend(guard.lines) -%}
    {%- if skew.auto is not none -%}
        {#- 'auto': measured and planned into the specification the rest of the plan reads -#}
        {%- set auto = skewjoin._sj_auto_skew(spec, j, skew, guard) -%}
        {%- do lines.extend(auto.lines) -%}
        {%- set skew = auto.skew -%}
    {%- endif -%}
    {%- set planned = skewjoin._sj_plan_skew(j, skew, guard, spread=true) -%}
    {%- set hot = planned.hot -%}
    {%- do lines.extend(hot.lines) -%}
    {%- do lines.extend(planned.lines) -%}
    {%- set out = {'lines': lines, 'hot': hot, 'plan': planned.plan, 'slots': planned.slots, 'plain': true} -%}
    {%- if guard.declined -%}
        {%- do lines.append('strategy: plain join (skew plans declined on this local Spark, see above)') -%}
    {%- elif planned.plan is none and not hot.active -%}
        {%- set hot_text = ' and no hot keys' if not hot.requested else (', hot keys dropped after verification'
            if hot.get('dropped') else ', hot keys declined') -%}
        {%- do lines.append('strategy: plain join (no skew groups' ~ (' left after verification' if planned.dropped
            else '') ~ hot_text ~ ')') -%}
    {%- else -%}
        {%- do out.update({'plain': false}) -%}
    {%- endif -%}
    {{- return(out) -}}
{%- endmacro %}

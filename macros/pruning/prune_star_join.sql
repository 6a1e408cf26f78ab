{#- Join-driven pruning inside star_join (its `prune` hook). star_join passes
    its inner and left semi dimensions in the form prune_predicate takes; the
    ones with a filter prune the fact (a dimension without a filter keeps all
    its keys, and collecting them rarely pays). Returns {'predicate': SQL on
    the fact's alias or none, 'lines': decision record lines}. Needs `execute`. -#}

{% macro _sj_star_join_prune_predicate(fact, fact_alias, small, cache=none) -%}
    {%- set filtered = [] -%}
    {%- for d in small if d.get('filter') is not none -%}
        {%- do filtered.append(d) -%}
    {%- endfor -%}
    {%- if not filtered -%}
        {{- return({'predicate': none,
                    'lines': ['pruning: no inner or left semi dimension has a filter, so the fact is read whole']}) -}}
    {%- endif -%}
    {%- set spec = skewjoin._sj_prune_spec('star_join', fact, fact_alias, filtered, 'inner', none, none, cache) -%}
    {%- if not skewjoin._sj_queries_allowed() -%}
        {%- set line -%}
pruning: none, run-time queries are off {{ skewjoin._sj_queries_off_reason() }}: no key was collected, so the fact is read
whole
        {%- endset -%}
        {{- return({'predicate': none, 'lines': [line | replace('\n', ' ')]}) -}}
    {%- endif -%}
    {%- set spec = skewjoin._sj_prune_resolve(spec) -%}
    {%- set plan = skewjoin._sj_prune_plan(spec, skewjoin._sj_prune_measure(spec)) -%}
    {%- set lines = [] -%}
    {%- for line in plan.lines -%}
        {%- do lines.append('pruning: ' ~ line) -%}
    {%- endfor -%}
    {{- return({'predicate': plan.predicate, 'lines': lines}) -}}
{%- endmacro %}

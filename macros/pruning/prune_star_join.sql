{#- Join-driven pruning inside star_join (its `prune` option), one macro per
    phase of star_join. The inner and left semi dimensions are passed in the
    form prune_predicate takes; the ones with a filter prune the fact (a
    dimension without a filter keeps all its keys, and collecting them
    rarely pays). The pruning is data:
      {'state': 'no_dimension' (no inner or left semi dimension), 'no_filter',
                'off' (compile-time queries are off), 'ready' (spec), 'measured'
                or 'planned',
       'spec', 'measured', 'plan' (the pruning plan, `_sj_prune_plan`),
       'predicate': SQL on the fact's alias, or none}. -#}

{#- spec (no query): the pruning request from star_join's checked request. -#}
{% macro _sj_star_prune_spec(star, cache) -%}
    {%- set small = [] -%}
    {%- for d in star.dims if d.join_type in ('inner', 'left semi') -%}
        {#- a path is passed as a query (prune_predicate takes relations, table names and queries) -#}
        {%- set relation = ('select * from ' ~ d.input['from']) if d.input.kind == 'path' else d.relation -%}
        {%- do small.append({'relation': relation, 'alias': d.alias, 'on': d.pairs, 'filter': d.filter,
                             'join_type': d.join_type}) -%}
    {%- endfor -%}
    {%- set filtered = small | rejectattr('filter', 'none') | list -%}
    {%- if not small -%}
        {{- return({'state': 'no_dimension', 'predicate': none}) -}}
    {%- elif not filtered -%}
        {{- return({'state': 'no_filter', 'predicate': none}) -}}
    {%- endif -%}
    {%- set fact = ('select * from ' ~ star.fact['from']) if star.fact.kind == 'path' else star.raw_fact -%}
    {{- return({'state': 'ready', 'predicate': none, 'spec': skewjoin._sj_prune_spec('star_join', fact,
        star.fact_alias, filtered, 'inner', none, none, cache)}) -}}
{%- endmacro %}


{#- resolve and measure: every query of the pruning. -#}
{% macro _sj_star_prune_measure(pruning) -%}
    {%- if pruning.state != 'ready' -%}
        {{- return(pruning) -}}
    {%- elif not skewjoin._sj_queries_allowed() -%}
        {{- return({'state': 'off', 'predicate': none}) -}}
    {%- endif -%}
    {%- set spec = skewjoin._sj_prune_resolve(pruning.spec) -%}
    {%- if not spec.sources -%}
        {{- return({'state': 'declined', 'predicate': none, 'declined': spec.declined}) -}}
    {%- endif -%}
    {{- return({'state': 'measured', 'predicate': none, 'spec': spec, 'declined': spec.declined,
                'measured': skewjoin._sj_prune_measure(spec)}) -}}
{%- endmacro %}


{#- plan (no query). -#}
{% macro _sj_star_prune_plan(pruning) -%}
    {%- if pruning.state != 'measured' -%}
        {{- return(pruning) -}}
    {%- endif -%}
    {%- set plan = skewjoin._sj_prune_plan(pruning.spec, pruning.measured) -%}
    {{- return({'state': 'planned', 'predicate': plan.predicate, 'plan': plan, 'declined': pruning.declined}) -}}
{%- endmacro %}


{#- The pruning's lines of the star_join record. -#}
{% macro _sj_star_prune_record(pruning) -%}
    {%- if pruning.state == 'no_dimension' -%}
        {{- return(['pruning: no inner or left semi dimension, so nothing may prune the fact']) -}}
    {%- elif pruning.state == 'no_filter' -%}
        {{- return(['pruning: no inner or left semi dimension has a filter, so the fact is read whole']) -}}
    {%- elif pruning.state == 'off' -%}
        {%- set line -%}
pruning: none, compile-time queries are off {{ skewjoin._sj_queries_off_reason() }}: no key was collected, so the fact is
read whole
        {%- endset -%}
        {{- return([line | replace('\n', ' ')]) -}}
    {%- endif -%}
    {%- set lines = [] -%}
    {%- for src in pruning.get('declined') or [] -%}
        {%- do lines.append('pruning: dimension ' ~ src.alias ~ ' does not prune the fact: ' ~ src.declined
            ~ ' (it is joined as written)') -%}
    {%- endfor -%}
    {%- if pruning.state == 'declined' -%}
        {%- do lines.append('pruning: none, so the fact is read whole') -%}
        {{- return(lines) -}}
    {%- endif -%}
    {%- for line in skewjoin._sj_prune_record(pruning.plan) -%}
        {%- do lines.append('pruning: ' ~ line) -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}

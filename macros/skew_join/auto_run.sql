{#- skew_join 'auto' at run time: its measure (the counts) and its decision
    (the specification the rest of skew_join plans); auto_record.sql says it. -#}


{#- The measure: {'skipped' ('declined', 'off' or none), 'reason' (why
    queries are off), 'measured' (`_sj_auto_measure`), 'slots' ([n, source]
    of the total slots)}. -#}
{% macro _sj_auto_facts(j, skew, guard) -%}
    {%- if guard.declined -%}
        {{- return({'skipped': 'declined'}) -}}
    {%- elif not skewjoin._sj_queries_allowed() -%}
        {{- return({'skipped': 'off', 'reason': skewjoin._sj_queries_off_reason()}) -}}
    {%- endif -%}
    {%- set measured = skewjoin._sj_auto_measure(j, skew.auto) -%}
    {{- return({'skipped': none, 'measured': measured,
                'slots': skewjoin._sj_total_slots({'total_slots': skew.auto.total_slots})}) -}}
{%- endmacro %}


{#- The decision (pure): the plan from the counts (`_sj_auto_plan`) and the
    specification it makes, which the rest of skew_join plans as a declared
    one. Returns `facts` with 'options', 'planned' (none when nothing was
    measured), 'config' and 'skew'. -#}
{% macro _sj_auto_decide(spec, j, skew, facts) -%}
    {%- set options = skew.auto -%}
    {%- set auto = {'options': options, 'planned': none, 'config': {}} -%}
    {%- do auto.update(facts) -%}
    {#- the empty specification (the plain join), as _sj_skew_spec makes it, from the same source -#}
    {%- set empty = skewjoin._sj_skew_spec(spec, {}) -%}
    {%- do empty.update({'source': skew.source, 'min_parallelism': skew.min_parallelism}) -%}
    {%- do auto.update({'skew': empty}) -%}
    {%- if facts.skipped is not none -%}
        {{- return(auto) -}}
    {%- endif -%}
    {%- set planned = skewjoin._sj_auto_plan(j, facts.measured, options, facts.slots[0]) -%}
    {%- set config = planned.config -%}
    {%- if config.get('hot_keys') and options.hot_keys_options is not none -%}
        {%- do config.update({'hot_keys_options': options.hot_keys_options}) -%}
    {%- endif -%}
    {%- do auto.update({'planned': planned, 'config': config}) -%}
    {%- if not config -%}
        {{- return(auto) -}}
    {%- endif -%}
    {%- set planned_skew = skewjoin._sj_skew_spec(spec, config) -%}
    {#- its groups come from the counts just measured: not verified again -#}
    {%- do planned_skew.update({'source': skew.source, 'min_parallelism': skew.min_parallelism, 'verify': none,
                                'splits': {'left': facts.measured.left.splits,
                                           'right': facts.measured.right.splits}}) -%}
    {%- do planned_skew.hot.update({'origin': 'planned from the measured counts'}) -%}
    {%- do auto.update({'skew': planned_skew}) -%}
    {{- return(auto) -}}
{%- endmacro %}

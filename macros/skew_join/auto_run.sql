{#- skew_join 'auto' at run time: its measure (the counts) and its decision
    (the specification the rest of skew_join plans); auto_record.sql says it. -#}


{#- The measure: {'skipped' ('declined', 'off', 'aqe' (left to AQE before
    counting: 'regime') or none), 'reason' (why queries are off), 'regime'
    (`_sj_aqe_regime`, where read), 'measured' (`_sj_auto_measure`), 'slots' ([n, source]
    of the total slots), 'aqe' (`_sj_aqe_facts`), 'reach'
    (`_sj_auto_salt_reach_facts`)}. -#}
{% macro _sj_auto_facts(j, skew, guard) -%}
    {%- if guard.declined -%}
        {{- return({'skipped': 'declined'}) -}}
    {%- elif not skewjoin._sj_queries_allowed() -%}
        {{- return({'skipped': 'off', 'reason': skewjoin._sj_queries_off_reason()}) -}}
    {%- endif -%}
    {#- skew_join's inner join in AQE's own regime goes back to AQE before anything is counted
        (aqe_regime.sql) -#}
    {%- set known = skewjoin._sj_aqe_regime_facts(j) -%}
    {%- set regime = skewjoin._sj_aqe_regime(j, known) -%}
    {%- if regime.hand_back -%}
        {{- return({'skipped': 'aqe', 'regime': regime}) -}}
    {%- endif -%}
    {%- set measured = skewjoin._sj_auto_measure(j, skew.auto) -%}
    {%- set slots = skewjoin._sj_total_slots({'total_slots': skew.auto.total_slots}) -%}
    {%- set facts = {'skipped': none, 'measured': measured, 'slots': slots, 'aqe': none, 'reach': [],
                     'regime': regime} -%}
    {#- what the plan of these counts will spread (its pure rules), and then its last queries: whether AQE would
        split the plain join itself (aqe_forecast.sql), and, unless so, how far each random group's salt reaches
        (identical_rows.sql) -#}
    {%- set planned = skewjoin._sj_auto_plan(j, measured, skew.auto, slots[0]) -%}
    {%- if planned.config -%}
        {%- do facts.update({'aqe': skewjoin._sj_aqe_facts(j, measured, planned, skew.auto, known)}) -%}
        {%- if not skewjoin._sj_aqe_forecast(j, measured, planned, skew.auto, facts.aqe).hand_back -%}
            {%- do facts.update({'reach': skewjoin._sj_auto_salt_reach_facts(j, planned.config, skew.auto)}) -%}
        {%- endif -%}
    {%- endif -%}
    {{- return(facts) -}}
{%- endmacro %}


{#- The decision (pure): the plan from the counts (`_sj_auto_plan`) and the
    specification it makes, which the rest of skew_join plans as a declared
    one. Returns `facts` with 'options', 'planned' (none when nothing was
    measured), 'config', 'aqe' (the AQE forecast: {'hand_back', 'lines'}; on
    a hand-back the plain join is the specification) and 'skew'. -#}
{% macro _sj_auto_decide(spec, j, skew, facts) -%}
    {%- set options = skew.auto -%}
    {%- set auto = {'options': options, 'planned': none, 'config': {}} -%}
    {%- do auto.update(facts) -%}
    {#- the empty specification (the plain join), as _sj_skew_spec makes it, from the same source -#}
    {%- set empty = skewjoin._sj_skew_spec(spec, {}) -%}
    {%- do empty.update({'source': skew.source, 'min_parallelism': skew.min_parallelism}) -%}
    {%- do auto.update({'skew': empty}) -%}
    {%- if facts.skipped == 'aqe' -%}
        {%- do auto.update({'aqe': facts.regime}) -%}
    {%- endif -%}
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
    {#- where AQE will split the plain join's hot partitions as finely, the join goes back to it -#}
    {%- set aqe = skewjoin._sj_aqe_forecast(j, facts.measured, planned, options, facts.aqe) -%}
    {%- do auto.update({'aqe': aqe}) -%}
    {%- if aqe.hand_back -%}
        {{- return(auto) -}}
    {%- endif -%}
    {%- set planned_skew = skewjoin._sj_skew_spec(spec, config) -%}
    {#- its groups come from the counts just measured: not verified again -#}
    {%- do planned_skew.update({'source': skew.source, 'min_parallelism': skew.min_parallelism, 'verify': none,
                                'splits': {'left': facts.measured.left.splits,
                                           'right': facts.measured.right.splits}}) -%}
    {#- the counted rows of each hot key on the side that streams it, and the broadcast budget: where both sides
        get hot keys, one side's may join the other's branch (hot_plan.sql, `_sj_hot_fold`) -#}
    {%- set counted = {} -%}
    {%- for side in ['left', 'right'] -%}
        {%- set pairs = [] -%}
        {%- for p in planned['keys'] if p.action == 'hot_key' and p.side == side -%}
            {%- do pairs.append([p['values'], skewjoin._sj_auto_estimate(p.rows[side], options)]) -%}
        {%- endfor -%}
        {%- do counted.update({side: skewjoin._sj_hot_counted(j, side, pairs)}) -%}
    {%- endfor -%}
    {%- do planned_skew.hot.update({'origin': 'planned from the measured counts', 'counted': counted,
                                    'fold_budget': options.max_broadcast_rows}) -%}
    {%- do auto.update({'skew': planned_skew}) -%}
    {{- return(auto) -}}
{%- endmacro %}

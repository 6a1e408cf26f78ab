{#- skew_join: 'auto' at run time: measure, plan, and the specification the
    rest of skew_join runs. Returns {'skew', 'lines'}. -#}
{% macro _sj_auto_skew(spec, j, skew, guard) -%}
    {%- set options = skew.auto -%}
    {#- the empty specification (the plain join), as _sj_skew_spec makes it, from the same source -#}
    {%- set empty = skewjoin._sj_skew_spec(spec, {}) -%}
    {%- do empty.update({'source': skew.source, 'min_parallelism': skew.min_parallelism}) -%}
    {%- if guard.declined -%}
        {{- return({'skew': empty, 'lines': ["auto: nothing measured (skew plans are declined, see above)"]}) -}}
    {%- endif -%}
    {%- if not skewjoin._sj_queries_allowed() -%}
        {{- return({'skew': empty, 'lines': ["auto: nothing measured: measuring needs a query and run-time queries"
            ~ " are off " ~ skewjoin._sj_queries_off_reason() ~ "; the plain join is written"]}) -}}
    {%- endif -%}
    {%- set measured = skewjoin._sj_auto_measure(j, options) -%}
    {%- set slots = skewjoin._sj_total_slots({'total_slots': options.total_slots}) -%}
    {%- set planned = skewjoin._sj_auto_plan(j, measured, options, slots[0]) -%}
    {%- set lines = measured.lines + [
        'auto: rules min_share ' ~ options.min_share ~ ', max_keys ' ~ options.max_keys ~ ', broadcast budget '
        ~ skewjoin._sj_rows_text(options.max_broadcast_rows) ~ ' rows, multicast budget '
        ~ skewjoin._sj_rows_text(options.max_multicast_rows) ~ ' rows, ' ~ slots[0] ~ ' slots (from ' ~ slots[1] ~ ')'
    ] + planned.lines -%}
    {%- set config = planned.config -%}
    {%- if config.get('hot_keys') and options.hot_keys_options is not none -%}
        {%- do config.update({'hot_keys_options': options.hot_keys_options}) -%}
    {%- endif -%}
    {%- if not config -%}
        {{- return({'skew': empty, 'lines': lines}) -}}
    {%- endif -%}
    {#- where AQE will split the plain join's hot partitions as finely, the join goes back to it (aqe_forecast.sql) -#}
    {%- set aqe = skewjoin._sj_aqe_forecast(j, measured, planned, options) -%}
    {%- do lines.extend(aqe.lines) -%}
    {%- if aqe.hand_back -%}
        {{- return({'skew': empty, 'lines': lines}) -}}
    {%- endif -%}
    {#- how far each random group's salt spreads its rows (identical rows share a slot within a split) -#}
    {%- do lines.extend(skewjoin._sj_auto_salt_reach(j, config, options)) -%}
    {%- do lines.extend(skewjoin._sj_pin_lines(config, j)) -%}
    {%- set pinned -%}
auto: pinned, that specification is counted at compile time as any declared one: a group or hot key under one slot's
even share (1/{{ slots[0] }}) is dropped; add 'verify': {{ options.min_share }} to keep auto's min_share, or 'verify':
false to plan it as written
    {%- endset -%}
    {%- do lines.append(pinned | replace('\n', ' ')) -%}
    {%- set planned_skew = skewjoin._sj_skew_spec(spec, config) -%}
    {#- its groups come from the counts just measured: not verified again -#}
    {%- do planned_skew.update({'source': skew.source, 'min_parallelism': skew.min_parallelism, 'verify': none,
                                'splits': {'left': measured.left.splits, 'right': measured.right.splits}}) -%}
    {%- do planned_skew.hot.update({'origin': 'planned from the measured counts'}) -%}
    {{- return({'skew': planned_skew, 'lines': lines}) -}}
{%- endmacro %}

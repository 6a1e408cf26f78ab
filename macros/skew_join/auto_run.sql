{#- skew_join 'auto' at run time: its measure (the counts), its decision
    (the specification the rest of skew_join plans) and its record. -#}


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


{#- The record of 'auto' (`_sj_auto_decide`): what it measured, its rules,
    each key's decision, and the specification to pin. -#}
{% macro _sj_auto_record(j, auto) -%}
    {%- set options = auto.options -%}
    {%- if auto.skipped == 'declined' -%}
        {{- return(["auto: nothing measured (skew plans are declined, see above)"]) -}}
    {%- elif auto.skipped == 'off' -%}
        {{- return(["auto: nothing measured: measuring needs a query and run-time queries are off " ~ auto.reason
            ~ "; the plain join is written"]) -}}
    {%- endif -%}
    {%- set lines = skewjoin._sj_auto_measure_record(j, auto.measured, options) + [
        'auto: rules min_share ' ~ options.min_share ~ ', max_keys ' ~ options.max_keys ~ ', broadcast budget '
        ~ skewjoin._sj_rows_text(options.max_broadcast_rows) ~ ' rows, multicast budget '
        ~ skewjoin._sj_rows_text(options.max_multicast_rows) ~ ' rows, ' ~ auto.slots[0] ~ ' slots (from '
        ~ auto.slots[1] ~ ')'
    ] + skewjoin._sj_auto_keys_record(j, auto.planned, options) -%}
    {%- if not auto.config -%}
        {{- return(lines) -}}
    {%- endif -%}
    {%- do lines.extend(skewjoin._sj_pin_lines(auto.config, j)) -%}
    {%- set pinned -%}
auto: pinned, that specification is counted at compile time as any declared one: a group or hot key under one slot's
even share (1/{{ auto.slots[0] }}) is dropped; add 'verify': {{ options.min_share }} to keep auto's min_share, or
'verify': false to plan it as written
    {%- endset -%}
    {%- do lines.append(pinned | replace('\n', ' ')) -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- The record of each key 'auto' weighed (`_sj_auto_plan`), its NULL
    keys, and the keys it had no room for. -#}
{% macro _sj_auto_keys_record(j, planned, options) -%}
    {%- set sides = ['left', 'right'] -%}
    {%- set totals = planned.totals -%}
    {%- set lines = [] -%}
    {%- for p in planned['keys'] -%}
        {%- set counts = [] -%}
        {%- for s in sides -%}
            {%- set c = p.rows[s] -%}
            {%- do counts.append(j[s].alias ~ ' ' ~ ('at most ' if s in p.bounded else '') ~ skewjoin._sj_rows_text(c)
                ~ ' rows (' ~ skewjoin._sj_auto_pct(c, totals[s]) ~ ')') -%}
        {%- endfor -%}
        {%- if p.action == 'hot_key' -%}
            {%- set what = 'hot key of ' ~ j[p.side].alias -%}
        {%- elif p.action == 'group' -%}
            {%- set what = 'skew group driven by ' ~ j[p.side].alias ~ ', ' ~ p.slots ~ ' slots, multicast '
                ~ skewjoin._sj_rows_text(p.multicast_rows) ~ ' rows' -%}
        {%- else -%}
            {%- set what = 'left to the shuffle join' -%}
        {%- endif -%}
        {%- do lines.append('auto: key ' ~ (p['values'] | join(', ')) ~ ' (' ~ (counts | join(', ')) ~ '): ' ~ what
            ~ ': ' ~ p.reason) -%}
    {%- endfor -%}
    {%- for s in sides if planned.null_bypass[s] -%}
        {%- do lines.append('auto: NULL keys of ' ~ j[s].alias ~ ' (' ~ skewjoin._sj_auto_pct(planned.nulls[s],
            totals[s]) ~ '): routed around the join (they never match)') -%}
    {%- endfor -%}
    {%- if planned.more -%}
        {%- do lines.append('auto: ' ~ planned.more ~ ' more key(s) above min_share left to the shuffle join (max_keys '
            ~ options.max_keys ~ ')') -%}
    {%- endif -%}
    {%- if not planned['keys'] and not (planned.null_bypass.values() | select | list) -%}
        {%- do lines.append('auto: no key of either side holds ' ~ ((options.min_share | float) * 100)
            ~ '% (min_share) of its rows') -%}
    {%- endif -%}
    {{- return(lines) -}}
{%- endmacro %}

{#- The decision record of 'auto' (auto_spec.sql describes it), from its
    plan (`_sj_auto_decide`). -#}


{#- The record of 'auto' (`_sj_auto_decide`): what it measured, its rules,
    each key's decision, and the specification to pin. -#}
{% macro _sj_auto_record(j, auto) -%}
    {%- set options = auto.options -%}
    {%- if auto.skipped == 'declined' -%}
        {{- return(["auto: nothing measured (skew plans are declined, see above)"]) -}}
    {%- elif auto.skipped == 'off' -%}
        {{- return(["auto: nothing measured: measuring needs a query and compile-time queries are off " ~ auto.reason
            ~ "; the plain join is written"]) -}}
    {%- elif auto.skipped == 'aqe' -%}
        {{- return(auto.aqe.lines) -}}
    {%- endif -%}
    {%- set lines = auto.regime.lines + skewjoin._sj_auto_measure_record(j, auto.measured, options) + [
        'auto: rules min_share ' ~ options.min_share ~ ', max_keys ' ~ options.max_keys ~ ', broadcast budget '
        ~ skewjoin._sj_rows_text(options.max_broadcast_rows) ~ ' rows, multicast budget '
        ~ skewjoin._sj_rows_text(options.max_multicast_rows) ~ ' rows, ' ~ auto.slots[0] ~ ' slots (from '
        ~ auto.slots[1] ~ ')'
    ] + skewjoin._sj_auto_keys_record(j, auto.planned, options) -%}
    {%- if not auto.config -%}
        {{- return(lines) -}}
    {%- endif -%}
    {%- do lines.extend(auto.aqe.lines) -%}
    {%- if auto.aqe.hand_back -%}
        {{- return(lines) -}}
    {%- endif -%}
    {%- do lines.extend(skewjoin._sj_auto_salt_reach_record(j, auto.reach)) -%}
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


{#- The record's two lines of what 'auto' measured on each side. -#}
{% macro _sj_auto_measure_record(j, measured, options) -%}
    {%- set how = ('a ' ~ ((options.sample_fraction | float) * 100) ~ '% tablesample, counts of the sample'
        if skewjoin._sj_sampled(options)
        else 'every row, exact counts') -%}
    {%- set lines = [] -%}
    {%- for side in ['left', 'right'] -%}
        {%- set c = measured.counted[side] -%}
        {%- set top = [] -%}
        {%- for k in c['keys'][:5] -%}
            {%- do top.append(k[0] | join(', ') ~ ' ' ~ skewjoin._sj_auto_pct(k[1], c.total)) -%}
        {%- endfor -%}
        {#- the other side's heavy keys counted in one more query over this side (`_sj_auto_recount_first`) -#}
        {%- set recount = ('; one more query counted ' ~ c.recounted ~ ' key(s) the other side listed, exactly')
            if c.get('recounted') else '' -%}
        {#- ... or not, where the sketch's bound decides the plan (`_sj_sketch_bound_decides`) -#}
        {%- if c.get('bound_keys') and c.sketch.bound == 0 -%}
            {%- set recount = '; the ' ~ c.bound_keys ~ ' key(s) the other side listed were not counted here: the'
                ~ ' exact sketch listed every key, and none of them' -%}
        {%- elif c.get('bound_keys') -%}
            {%- set recount = '; the ' ~ c.bound_keys ~ ' key(s) the other side listed were not counted here: the'
                ~ " sketch puts each at most " ~ skewjoin._sj_rows_text(c.sketch.bound) ~ ' rows, too few to change'
                ~ ' the plan' -%}
        {%- endif -%}
        {%- if c.get('sketch') is not none or c.get('sample') is not none -%}
            {%- set source -%}
skew measured on {{ j[side].alias }} ({{ skewjoin._sj_sketch_record_text(j[side].alias, c.sketch)
if c.get('sketch') is not none else skewjoin._sj_sample_record_text(j[side].alias, c.sample) }}{{ recount }};
{{ '%.1f' | format(c.seconds) }} s): {{ c.total }} rows in {{ c.splits }} input splits
            {%- endset -%}
        {%- elif c.get('bins') is not none -%}
            {%- set source -%}
skew estimated on {{ j[side].alias }} from Spark's column statistics, no scan (a histogram of {{ c.bins | length }}
bins, as of the table's last ANALYZE TABLE ... FOR COLUMNS; {{ '%.1f' | format(c.seconds) }} s): about {{ c.total }}
rows
            {%- endset -%}
        {%- else -%}
            {%- set source -%}
skew measured on {{ j[side].alias }} (one aggregate query over {{ how }}{{ recount }}, {{ '%.1f' |
format(c.seconds) }} s):
{{ c.total }} rows in {{ c.splits }} input splits
            {%- endset -%}
        {%- endif -%}
        {%- set line -%}
{{ source }}, {{ c.null }} with a NULL key; heaviest keys:
{{ top | join('; ') if top else 'none' }}{{ ' (' ~ j[measured.first].alias ~ "'s heavy keys "
   ~ ('counted exactly' if c.get('sketch') is not none else 'listed first') ~ ')'
   if side != measured.first and measured.extras else '' }}
        {%- endset -%}
        {%- do lines.append(line | replace('\n', ' ')) -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}

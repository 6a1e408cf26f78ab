{#- The AQE forecast of a declared plan (skew groups, hot keys, a pinned
    'auto') whose keys verification counted: aqe_forecast.sql describes the
    rule; the plan is kept, and where AQE would split every key as finely
    the record and the log warn. -#}


{#- A declared plan's heavy keys, as the forecast weighs them (pure, from
    verification's counts, verify.sql): each kept hot key a side streams
    (its rows on that side, spread over the hot branch's tasks: `spreads`,
    {side: `_sj_hot_spread`}) and each kept group whose `when` selects one
    key (its driver's rows, spread over its slots; over one where it
    distributes by keys). `hot`: `_sj_plan_hot_keys`'s; `verified`:
    `_sj_judge_groups`'s or none. Returns none where verification counted
    nothing (off, compile-time queries off, or no declared key left), else
    {'keys' (as `_sj_aqe_heavy_keys`, with 'cost': the work the plan adds
    for the key), 'sides' ({side: {'total',
    'splits'}}), 'unknown' (why a kept key cannot be weighed: the forecast is
    then not made)}. -#}
{% macro _sj_aqe_declared_keys(j, hot, spreads, verified) -%}
    {%- set out = {'keys': [], 'sides': {}, 'unknown': []} -%}
    {%- set state = namespace(counted=false) -%}
    {%- for e in hot.sides -%}
        {%- set alias = j[e.side].alias -%}
        {%- if e.how != 'declared' -%}
            {%- do out.unknown.append('hot keys of ' ~ alias ~ ' are found at compile time, not declared') -%}
            {%- continue -%}
        {%- endif -%}
        {%- set v = e.verify -%}
        {%- if v is none or v.skipped is not none -%}
            {%- if e.lits.tuples -%}
                {%- do out.unknown.append('hot keys of ' ~ alias ~ ' not counted') -%}
            {%- endif -%}
        {%- else -%}
            {%- set state.counted = true -%}
            {%- do out.sides.update({e.side: {'total': v.results[0].total, 'splits': v.splits}}) -%}
            {%- set spread = spreads.get(e.side) -%}
            {%- set tasks = v.splits if spread is none else spread.tasks -%}
            {%- set streamed = hot[e.side].shown if hot[e.side] is not none else [] -%}
            {%- for r in v.results if r.kept and r.shown in streamed -%}
                {%- if tasks is none -%}
                    {%- do out.unknown.append('hot key ' ~ r.shown ~ ' of ' ~ alias ~ ": the hot branch's tasks are"
                        ~ ' not known') -%}
                {%- else -%}
                    {%- do out['keys'].append({'name': r.shown, 'side': e.side, 'rows': r.rows, 'parallelism': tasks,
                        'cost': 'a hot-key branch reads both sides again',
                        'plan': 'hot key of ' ~ alias ~ (', spread over ' ~ tasks ~ ' partitions'
                            if spread is not none and spread.spread else ', its ' ~ tasks ~ ' input splits')}) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
        {%- if e.lits.null -%}
            {%- do out.unknown.append('NULL keys of ' ~ alias ~ ' not counted (verification counts declared values)') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if verified is not none and verified.skipped is none -%}
        {%- set state.counted = true -%}
        {%- for r in verified.results if r.kept -%}
            {%- set g = r.group -%}
            {%- set label = 'group ' ~ g.index ~ ' ' ~ g.name -%}
            {%- set values = skewjoin._sj_when_key_values(j, g) -%}
            {%- if values is none or values | length != 1 -%}
                {%- do out.unknown.append(label ~ ": its `when` selects more than one key (the forecast weighs one"
                    ~ " key's partition)") -%}
                {%- continue -%}
            {%- endif -%}
            {%- if verified.splits.get(g.driver) is none -%}
                {%- do out.unknown.append(label ~ ": its driver's input splits not counted") -%}
                {%- continue -%}
            {%- endif -%}
            {%- if g.driver not in out.sides -%}
                {%- do out.sides.update({g.driver: {'total': r.total, 'splits': verified.splits.get(g.driver)}}) -%}
            {%- endif -%}
            {%- set spreads_it = g.distribute != 'keys' and g.slots > 1 -%}
            {%- do out['keys'].append({'name': values[0], 'side': g.driver, 'rows': r.rows,
                'parallelism': g.slots if spreads_it else 1,
                'cost': 'a group adds a slot to every row and a (keys, slot) sort' ~ (", and copies of the other side's"
                    ~ ' rows' if spreads_it else ''),
                'plan': label ~ ', ' ~ g.slots ~ ' slot' ~ ('s' if g.slots != 1 else '') ~ ', distribute '
                    ~ g.distribute ~ ('' if spreads_it else ': one task for the key')}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if not state.counted or not (out['keys'] or out.unknown) -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The forecast for a declared plan (pure): none where none is made
    (`declared` none: nothing counted), else {'lines', 'warning' (the
    warning's text where AQE would split every declared key at least as
    finely as the plan spreads it, else none)}. The plan is kept either way:
    the user asked for it. `declared`: `_sj_aqe_declared_keys`'s; `facts`:
    `_sj_aqe_read`'s over its keys (none where a key cannot be weighed). -#}
{% macro _sj_aqe_declared_forecast(j, declared, facts) -%}
    {%- if declared is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set head = 'AQE forecast for the declared plan (would Spark split the plain join itself?): ' -%}
    {%- if declared.unknown or facts is none -%}
        {{- return({'lines': [head ~ 'not made: ' ~ (declared.unknown | join('; '))], 'warning': none}) -}}
    {%- endif -%}
    {%- set w = skewjoin._sj_aqe_weigh(j, declared.sides, declared['keys'], facts) -%}
    {%- if w.gate is not none -%}
        {{- return({'lines': [head ~ w.gate_text], 'warning': none}) -}}
    {%- endif -%}
    {%- set lines = [] -%}
    {%- for k in w['keys'] if k.numbers is not none -%}
        {%- do lines.append('AQE forecast, key ' ~ k.name ~ ': ' ~ k.numbers) -%}
    {%- endfor -%}
    {%- if w.reasons -%}
        {{- return({'lines': lines + [head ~ 'not for every key (' ~ w.setting ~ '): ' ~ (w.reasons | join('; '))],
                    'warning': none}) -}}
    {%- endif -%}
    {%- set numbers = [] -%}
    {%- for k in w['keys'] -%}
        {%- do numbers.append('key ' ~ k.name ~ ' (' ~ k.plan ~ '): about ' ~ skewjoin._sj_bytes_text(k.bytes) ~ ' of '
            ~ j[k.side].alias ~ ' against the skew bar ' ~ skewjoin._sj_bytes_text(k.bar) ~ ' (max of skewedPartitionFactor '
            ~ facts.settings.factor ~ ' x the median partition ' ~ skewjoin._sj_bytes_text(k.median)
            ~ ', skewedPartitionThresholdInBytes ' ~ skewjoin._sj_bytes_text(facts.settings.threshold) ~ '); AQE cuts '
            ~ k.pieces ~ ' pieces, the specification spreads it over ' ~ k.parallelism) -%}
    {%- endfor -%}
    {%- set costs = w['keys'] | map(attribute='cost') | unique | list -%}
    {%- set warning -%}
this hand-written skew specification will likely lose to AQE: in this session ({{ w.setting }}) AQE would split the
plain join's partition of every declared key at least as finely as the specification spreads it:
{{ numbers | join('; ') }}. The specification is planned as written, but {{ costs | join('; ') }}: work added
to a join AQE already balances. Remove skew_join from this model (the plain join), or use skew_join 'auto', which
measures the keys and hands the join back to AQE where this forecast says so
    {%- endset -%}
    {{- return({'lines': lines + [head ~ 'yes (' ~ w.setting ~ '), for every key: the declared plan is kept, see the'
        ~ ' warning'], 'warning': warning | replace('\n', ' ')}) -}}
{%- endmacro %}

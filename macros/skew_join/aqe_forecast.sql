{#- skew_join 'auto': will Spark's AQE split the plain join's hot partitions
    itself? Where it will, and as finely as the skew plan would spread them,
    the plain join is as fast and does less work (no slot column, no second
    read of the hot side), so 'auto' hands the join back to AQE and writes the
    plain join. The session's settings are read (metadata), never changed
    (docs/decisions/0010-aqe-settings-per-model.md says why).

    AQE's OptimizeSkewedJoin (Spark 3.4-4.x) splits a partition of a
    sort-merge or shuffled hash join whose children are shuffles when
    - spark.sql.adaptive.enabled and spark.sql.adaptive.skewJoin.enabled;
    - the join type lets it split that side: inner either side, left outer,
      left semi and left anti the left side, right outer the right side, full
      outer neither;
    - the partition is larger than skewedPartitionFactor x the median
      partition and than skewedPartitionThresholdInBytes;
    - the shuffle has at most spark.shuffle.minNumPartitionsToHighlyCompress
      (2000) partitions, above which map outputs keep only an average block
      size (unless spark.shuffle.accurateBlockSkewedFactor is set);
    - no shuffle is added by the split: an operator above the join that needs
      its partitioning (an aggregate by the key) makes AQE drop the split
      unless spark.sql.adaptive.forceOptimizeSkewedJoin. The macro sees only
      its own join, so it counts on that only where the model is the join
      alone (the model's code is one skewjoin.skew_join call).
    It cuts the partition into pieces of about max(advisoryPartitionSizeInBytes,
    the other partitions' mean), at most one a map task of that side.

    The forecast, per planned key (and NULL keys routed around the join): the
    heavy side's rows of the key x its bytes per row (Spark's own size
    estimate of the side, `explain cost`, over the measured rows; file bytes,
    compressed, so at most the shuffle's bytes), against twice the thresholds
    (a margin for the estimate), and the pieces against the parallelism the
    skew plan gives the key (a group's slots, a hot key's input splits).

    A declared plan (skew groups, hot keys, a pinned 'auto') whose keys
    verification counted gets the same forecast over its kept keys
    (`_sj_aqe_declared_keys`, `_sj_aqe_declared_forecast`): its plan is kept
    (the user asked for it), and where AQE would split every key as finely
    the record and the log warn, with the numbers. Both weigh with
    `_sj_aqe_weigh`. -#}

{#- The keys an 'auto' plan would spread (`planned`, `_sj_auto_plan`'s
    result, pure): each with the side that holds most of its rows. -#}
{% macro _sj_aqe_heavy_keys(j, measured, planned, options) -%}
    {%- set heavy_keys = [] -%}
    {%- for p in planned['keys'] if p.action in ('hot_key', 'group') -%}
        {%- set side = 'left' if p.rows.left >= p.rows.right else 'right' -%}
        {%- do heavy_keys.append({'name': p['values'] | join(', '), 'side': side,
            'rows': skewjoin._sj_auto_estimate(p.rows[side], options),
            'parallelism': p.slots if p.action == 'group' else measured[p.side].splits,
            'plan': (p.slots ~ ' slots' if p.action == 'group'
                     else 'hot key of ' ~ j[p.side].alias ~ ', its ' ~ measured[p.side].splits ~ ' input splits')}) -%}
    {%- endfor -%}
    {%- for side in ['left', 'right'] if planned.null_bypass.get(side) -%}
        {%- do heavy_keys.append({'name': 'NULL', 'side': side,
            'rows': skewjoin._sj_auto_estimate(measured[side].null, options),
            'parallelism': measured[side].splits, 'plan': 'NULL keys routed around the join'}) -%}
    {%- endfor -%}
    {{- return(heavy_keys) -}}
{%- endmacro %}


{#- The sides AQE may split in this join type. -#}
{% macro _sj_aqe_splittable(j) -%}
    {{- return({'left': j.join_type in ('inner', 'left', 'left semi', 'left anti'),
                'right': j.join_type in ('inner', 'right')}) -}}
{%- endmacro %}


{#- Why AQE will not split this join whatever the sizes (settings `s`,
    `whole`: the join is the whole model, none while not known): 'off', 'partitions'
    (above 2000 with no accurate block sizes), 'part_of_query', or none. -#}
{% macro _sj_aqe_gate(s, whole) -%}
    {%- if not s.enabled -%}
        {{- return('off') -}}
    {%- elif s.partitions > s.highly_compressed and s.accurate_factor <= 0 -%}
        {{- return('partitions') -}}
    {%- elif whole is not none and not whole and not s.force -%}
        {{- return('part_of_query') -}}
    {%- endif -%}
    {{- return(none) -}}
{%- endmacro %}


{#- The forecast's measure (metadata queries only, in the measure phase):
    the session's AQE settings, whether the join is the whole model, and
    Spark's size estimate of each side a heavy key needs, each read only
    where the forecast goes on to use it. Returns none (no key to forecast)
    or {'settings', 'whole', 'bytes': side -> bytes or none}. -#}
{% macro _sj_aqe_facts(j, measured, planned, options, known=none) -%}
    {{- return(skewjoin._sj_aqe_read(j, skewjoin._sj_aqe_heavy_keys(j, measured, planned, options), known)) -}}
{%- endmacro %}


{#- `_sj_aqe_facts` for any list of heavy keys ({'side', ...}): an 'auto'
    plan's (`_sj_aqe_heavy_keys`) or a declared one's
    (`_sj_aqe_declared_keys`). -#}
{% macro _sj_aqe_read(j, heavy_keys, known=none) -%}
    {%- if not heavy_keys -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set s = skewjoin._sj_aqe_settings() if known is none else known.settings -%}
    {%- set facts = {'settings': s, 'whole': none, 'bytes': {}} -%}
    {%- if known is not none -%}
        {%- do facts.bytes.update(known.bytes) -%}
    {%- endif -%}
    {%- if skewjoin._sj_aqe_gate(s, none) -%}
        {{- return(facts) -}}
    {%- endif -%}
    {%- do facts.update({'whole': skewjoin._sj_join_is_the_model() if known is none or known.whole is none
        else known.whole}) -%}
    {%- if skewjoin._sj_aqe_gate(s, facts.whole) -%}
        {{- return(facts) -}}
    {%- endif -%}
    {%- set splittable = skewjoin._sj_aqe_splittable(j) -%}
    {%- for k in heavy_keys if splittable[k.side] and k.side not in facts.bytes -%}
        {%- do facts.bytes.update({k.side: skewjoin._sj_side_bytes(j, k.side)}) -%}
    {%- endfor -%}
    {{- return(facts) -}}
{%- endmacro %}

{#- The forecast for an 'auto' plan (pure): {'hand_back': bool, 'lines':
    [...]}. `planned`: _sj_auto_plan's result; `measured`: _sj_auto_measure's;
    `facts`: _sj_aqe_facts's. -#}
{% macro _sj_aqe_forecast(j, measured, planned, options, facts) -%}
    {%- set head = 'auto: AQE forecast (would Spark split the plain join itself?): ' -%}
    {%- if facts is none -%}
        {{- return({'hand_back': false, 'lines': []}) -}}
    {%- endif -%}
    {%- set sides = {} -%}
    {%- for side in ['left', 'right'] -%}
        {%- do sides.update({side: {'total': skewjoin._sj_auto_estimate(measured[side].total, options),
                                    'splits': measured[side].splits}}) -%}
    {%- endfor -%}
    {%- set w = skewjoin._sj_aqe_weigh(j, sides, skewjoin._sj_aqe_heavy_keys(j, measured, planned, options), facts) -%}
    {%- if w.gate is not none -%}
        {{- return({'hand_back': false, 'lines': [head ~ w.gate_text ~ '; the skew plan is kept']}) -}}
    {%- endif -%}
    {%- set measured_lines = [] -%}
    {%- for k in w['keys'] if k.numbers is not none -%}
        {%- do measured_lines.append('auto: AQE forecast, key ' ~ k.name ~ ': ' ~ k.numbers) -%}
    {%- endfor -%}
    {%- if w.reasons -%}
        {{- return({'hand_back': false, 'lines': measured_lines + [head ~ 'not for every key (' ~ w.setting ~ '): '
            ~ (w.reasons | join('; ')) ~ '; the skew plan is kept']}) -}}
    {%- endif -%}
    {{- return({'hand_back': true, 'lines': measured_lines + [head ~ 'yes (' ~ w.setting ~ '), for every key: the plain'
        ~ ' join is written and AQE splits it (a skew plan would add work to a join AQE already balances)']}) -}}
{%- endmacro %}


{#- The rule (pure), one home for 'auto' and declared plans: would AQE split
    the plain join's partition of each heavy key (`heavy_keys`: {'name',
    'side', 'rows', 'parallelism', 'plan'}) at least as finely as the plan
    spreads it? `sides`: {side: {'total' (its rows), 'splits' (its input
    splits, AQE's map tasks)}}; `facts`: `_sj_aqe_read`'s. Returns {'gate'
    (`_sj_aqe_gate`, then 'gate_text' says it), 'setting', 'keys': [the heavy
    key with 'numbers' (the measured line, none where not weighed), 'bytes',
    'bar', 'median', 'pieces']}, 'reasons' (why not every key; empty: AQE
    splits every key as finely)}. -#}
{% macro _sj_aqe_weigh(j, sides, heavy_keys, facts) -%}
    {%- set s = facts.settings -%}
    {%- set gate = skewjoin._sj_aqe_gate(s, facts.whole) -%}
    {%- set out = {'gate': gate, 'keys': [], 'reasons': []} -%}
    {%- if gate == 'off' -%}
        {%- do out.update({'gate_text': 'no, ' ~ ('spark.sql.adaptive.enabled' if not s.aqe
            else 'spark.sql.adaptive.skewJoin.enabled') ~ ' is false in this session'}) -%}
    {%- elif gate == 'partitions' -%}
        {%- do out.update({'gate_text': 'no, the join shuffles into ' ~ s.partitions
            ~ ' partitions, above spark.shuffle.minNumPartitionsToHighlyCompress (' ~ s.highly_compressed
            ~ '): map outputs keep one average block size, AQE sees no skew (spark.shuffle.accurateBlockSkewedFactor'
            ~ ' is off)'}) -%}
    {%- elif gate == 'part_of_query' -%}
        {%- do out.update({'gate_text': 'not counted on: the join is part of a larger query (the'
            ~ " model's code is more than one skewjoin.skew_join call, or the model is a view or ephemeral, read inside other"
            ~ ' queries), where an operator above it that needs its'
            ~ ' partitioning (an aggregate by the key) makes AQE drop the split unless'
            ~ ' spark.sql.adaptive.forceOptimizeSkewedJoin'}) -%}
    {%- endif -%}
    {%- if gate is not none -%}
        {{- return(out) -}}
    {%- endif -%}
    {%- set splittable = skewjoin._sj_aqe_splittable(j) -%}
    {%- set bpr = {} -%}
    {%- for k in heavy_keys -%}
        {%- set alias = j[k.side].alias -%}
        {%- set weighed = {'numbers': none} -%}
        {%- do weighed.update(k) -%}
        {%- do out['keys'].append(weighed) -%}
        {%- if not splittable[k.side] -%}
            {%- do out.reasons.append('key ' ~ k.name ~ ': AQE never splits ' ~ alias ~ ' in a ' ~ j.join_type
                ~ ' join') -%}
            {%- continue -%}
        {%- endif -%}
        {%- if k.side not in bpr -%}
            {%- set bytes = facts.bytes.get(k.side) -%}
            {%- set total = sides[k.side].total -%}
            {%- do bpr.update({k.side: (bytes / total) if bytes is not none and total else none}) -%}
        {%- endif -%}
        {%- if bpr[k.side] is none -%}
            {%- do out.reasons.append('key ' ~ k.name ~ ': Spark gives no size estimate of ' ~ alias) -%}
            {%- continue -%}
        {%- endif -%}
        {#- a side read from its column statistics (no scan) has no count of its input splits, which bound
            AQE's pieces and a hot key's tasks -#}
        {%- if sides[k.side].splits is none or k.parallelism is none -%}
            {%- do out.reasons.append('key ' ~ k.name ~ ': the input splits of ' ~ alias ~ ' are not known (its'
                ~ ' skew was estimated from column statistics), and they bound the pieces AQE cuts') -%}
            {%- continue -%}
        {%- endif -%}
        {%- set others = namespace(rows=sides[k.side].total) -%}
        {%- for o in heavy_keys if o.side == k.side -%}{%- set others.rows = others.rows - o.rows -%}{%- endfor -%}
        {%- set bytes = k.rows * bpr[k.side] -%}
        {%- set median = ([others.rows, 0] | max) / s.partitions * bpr[k.side] -%}
        {%- set bar = [s.factor * median, s.threshold] | max -%}
        {%- set target = [s.advisory, median] | max -%}
        {%- set pieces = [sides[k.side].splits, (bytes / target) | round(0, 'ceil') | int] | min -%}
        {%- set numbers = 'about ' ~ skewjoin._sj_bytes_text(bytes) ~ ' (' ~ skewjoin._sj_rows_text(k.rows)
            ~ ' rows of ' ~ alias ~ ') against a skew bar of ' ~ skewjoin._sj_bytes_text(bar)
            ~ ' (max of ' ~ s.factor ~ ' x the median ' ~ skewjoin._sj_bytes_text(median)
            ~ ', skewedPartitionThresholdInBytes ' ~ skewjoin._sj_bytes_text(s.threshold) ~ '); pieces of '
            ~ skewjoin._sj_bytes_text(target) ~ ', at most one a map task (' ~ sides[k.side].splits ~ '): '
            ~ pieces ~ ", against the skew plan's " ~ k.parallelism ~ ' (' ~ k.plan ~ ')' -%}
        {%- do weighed.update({'numbers': numbers, 'bytes': bytes, 'bar': bar, 'median': median,
                               'pieces': pieces}) -%}
        {%- if bytes < 2 * bar -%}
            {%- do out.reasons.append('key ' ~ k.name ~ ': under twice the skew bar') -%}
        {%- elif pieces < k.parallelism -%}
            {%- do out.reasons.append('key ' ~ k.name ~ ': AQE would cut ' ~ pieces ~ ' pieces, the skew plan spreads'
                ~ ' it over ' ~ k.parallelism) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do out.update({'setting': 'AQE on, ' ~ s.partitions ~ ' shuffle partitions' ~ (', forceOptimizeSkewedJoin'
        if s.force else ', the join is the whole model')}) -%}
    {{- return(out) -}}
{%- endmacro %}

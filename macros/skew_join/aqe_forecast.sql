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


{#- Bytes from a Spark size setting ('268435456b', '64m', '1g', '10MB'). -#}
{% macro _sj_conf_bytes(text, default) -%}
    {%- set m = modules.re.fullmatch('\\s*(-?[0-9.]+)\\s*([kmgtp]?)i?b?\\s*', (text | string) | lower) -%}
    {%- if text is none or m is none -%}
        {{- return(default) -}}
    {%- endif -%}
    {%- set scale = {'': 1, 'k': 1024, 'm': 1048576, 'g': 1073741824, 't': 1099511627776,
                     'p': 1125899906842624}[m.group(2)] -%}
    {{- return((m.group(1) | float) * scale) -}}
{%- endmacro %}


{#- The session's AQE settings (one `set` each: metadata). -#}
{% macro _sj_aqe_settings() -%}
    {%- set on = skewjoin._sj_spark_conf('spark.sql.adaptive.enabled', 'true') | lower == 'true' -%}
    {%- set skew_on = skewjoin._sj_spark_conf('spark.sql.adaptive.skewJoin.enabled', 'true') | lower == 'true' -%}
    {%- set out = {'enabled': on and skew_on, 'aqe': on, 'skew_join': skew_on} -%}
    {%- if not out.enabled -%}
        {{- return(out) -}}
    {%- endif -%}
    {%- set initial = skewjoin._sj_spark_conf('spark.sql.adaptive.coalescePartitions.initialPartitionNum') -%}
    {%- set partitions = (initial if initial is not none and initial | trim != ''
        else skewjoin._sj_spark_conf('spark.sql.shuffle.partitions', '200')) | int -%}
    {%- do out.update({
        'partitions': partitions,
        'factor': skewjoin._sj_spark_conf('spark.sql.adaptive.skewJoin.skewedPartitionFactor', '5.0') | float,
        'threshold': skewjoin._sj_conf_bytes(skewjoin._sj_spark_conf(
            'spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes'), 268435456),
        'advisory': skewjoin._sj_conf_bytes(skewjoin._sj_spark_conf(
            'spark.sql.adaptive.advisoryPartitionSizeInBytes'), 67108864),
        'highly_compressed': (skewjoin._sj_spark_conf('spark.shuffle.minNumPartitionsToHighlyCompress', '2000')
            | int),
        'accurate_factor': (skewjoin._sj_spark_conf('spark.shuffle.accurateBlockSkewedFactor', '-1') | float),
        'force': skewjoin._sj_spark_conf('spark.sql.adaptive.forceOptimizeSkewedJoin', 'false') | lower == 'true'
    }) -%}
    {{- return(out) -}}
{%- endmacro %}


{#- Spark's size estimate of a side, in bytes (`explain cost`: no data
    read), or none (no estimate, or Spark's "unknown", 8 EiB). Read once a
    macro call: the sampling decision, the AQE regime and the forecast
    each ask for it (kept on the call's join, `j.sj_sizes`). -#}
{% macro _sj_side_bytes(j, side) -%}
    {%- if 'sj_sizes' not in j -%}
        {%- do j.update({'sj_sizes': {}}) -%}
    {%- endif -%}
    {%- if side not in j.sj_sizes -%}
        {%- do j.sj_sizes.update({side: skewjoin._sj_side_bytes_read(j, side)}) -%}
    {%- endif -%}
    {{- return(j.sj_sizes[side]) -}}
{%- endmacro %}


{% macro _sj_side_bytes_read(j, side) -%}
    {%- set result = skewjoin._sj_run_query('explain cost select * from ' ~ j[side]['from'] ~ ' as sj_sized',
        'metadata') -%}
    {%- set text = result.rows[0][0] | string if result.rows else '' -%}
    {%- set m = modules.re.search('== Optimized Logical Plan ==\\s*\\n[^\\n]*?Statistics\\(sizeInBytes=([0-9.E+]+) ?([KMGTPE]?i?B)', text) -%}
    {%- if m is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set scale = {'B': 1, 'KiB': 1024, 'MiB': 1048576, 'GiB': 1073741824, 'TiB': 1099511627776,
                     'PiB': 1125899906842624, 'EiB': 1152921504606846976}.get(m.group(2)) -%}
    {%- if scale is none or scale >= 1125899906842624 -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return((m.group(1) | float) * scale) -}}
{%- endmacro %}


{#- Whether the model's code is one skewjoin.skew_join call (besides its
    config, comments and statement tags such as {% do %} and {% set %}, which
    write no SQL): nothing of the model above the join can need its
    partitioning. -#}
{% macro _sj_join_is_the_model() -%}
    {%- if model is not defined or model is none or model is not mapping -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- set code = (model.get('raw_code') or model.get('raw_sql') or '') | string -%}
    {%- set code = modules.re.sub('\\{#.*?#\\}|\\{%.*?%\\}|--[^\\n]*', '', code, flags=modules.re.S) -%}
    {%- set code = modules.re.sub('\\{\\{\\s*config\\(.*?\\)\\s*\\}\\}', '', code, flags=modules.re.S) -%}
    {{- return(modules.re.fullmatch('\\s*\\{\\{\\s*skewjoin\\.skew_join\\((?:.(?!\\}\\}))*.\\)\\s*\\}\\}\\s*', code,
        flags=modules.re.S) is not none) -}}
{%- endmacro %}


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


{#- Before 'auto' counts anything: is this join in AQE's own regime, where
    measuring cannot find a plan that beats it? Counting the keys reads both
    sides in full at every run; where AQE already balances the join at run
    time with exact sizes, that scan is the user's whole extra cost (issue
    29: at 10,000,000 rows the measuring alone took as long as Spark's best
    join). The join goes back to AQE unmeasured when all of these hold:
    - AQE and its skew join are on, the shuffle keeps accurate block sizes
      (at most spark.shuffle.minNumPartitionsToHighlyCompress partitions, or
      spark.shuffle.accurateBlockSkewedFactor set), and the join is the
      whole model (or forceOptimizeSkewedJoin): `_sj_aqe_gate`;
    - the join is inner, so AQE may split either side: whichever side is hot;
    - Spark estimates both sides' sizes (`explain cost`, metadata);
    - AQE's settings are tuned to this join's size: with m the join's mean
      shuffle partition (both sides' estimates over the session's shuffle
      partitions), a partition AQE leaves whole, under max(threshold,
      factor x the side's mean partition) and never above the side itself,
      is at most 5 m (AQE's own default skewedPartitionFactor: what Spark
      itself calls skew), and its pieces (advisory size) are at most 5 m.
      Spark's defaults (256 MB, 64 MB) meet this from a mean partition of
      about 51 MB (10 GB at 200 partitions); below that AQE leaves a hot key
      whole, and 'auto' measures.
    Anything else measures as before, and the forecast after the counts
    (`_sj_aqe_forecast`) still weighs each planned key. -#}


{#- The pre-check's measure (metadata only): `_sj_aqe_read`'s settings and
    whether the join is the model, and both sides' size estimates, read only
    where the gate lets it hand back. Returns none (not an inner join: no
    query) or {'settings', 'whole', 'bytes'}, which the forecast after the
    counts reads again (`_sj_aqe_read`'s `known`). -#}
{% macro _sj_aqe_regime_facts(j) -%}
    {%- if j.join_type != 'inner' -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set s = skewjoin._sj_aqe_settings() -%}
    {%- set facts = {'settings': s, 'whole': skewjoin._sj_join_is_the_model(), 'bytes': {}} -%}
    {%- if skewjoin._sj_aqe_gate(s, facts.whole) -%}
        {{- return(facts) -}}
    {%- endif -%}
    {%- for side in ['left', 'right'] -%}
        {%- do facts.bytes.update({side: skewjoin._sj_side_bytes(j, side)}) -%}
    {%- endfor -%}
    {{- return(facts) -}}
{%- endmacro %}


{#- The pre-check (pure): {'hand_back': bool, 'lines': [...]}; lines are
    empty where it does not apply (the gate, the join type, no estimate):
    the counts are then taken and the record says nothing of it. -#}
{% macro _sj_aqe_regime(j, facts) -%}
    {%- if facts is none -%}
        {{- return({'hand_back': false, 'lines': []}) -}}
    {%- endif -%}
    {%- set s = facts.settings -%}
    {%- set head = 'auto: AQE regime (measure, or leave the join to AQE?): ' -%}
    {%- if j.join_type != 'inner' or skewjoin._sj_aqe_gate(s, facts.whole) is not none
           or facts.bytes.get('left') is none or facts.bytes.get('right') is none -%}
        {{- return({'hand_back': false, 'lines': []}) -}}
    {%- endif -%}
    {%- set mean = (facts.bytes.left + facts.bytes.right) / s.partitions -%}
    {%- set bound = 5 * mean -%}
    {%- set whole = {} -%}
    {%- for side in ['left', 'right'] -%}
        {%- do whole.update({side: [[s.threshold, s.factor * facts.bytes[side] / s.partitions] | max,
                                    facts.bytes[side]] | min}) -%}
    {%- endfor -%}
    {%- set numbers = 'Spark estimates ' ~ j.left.alias ~ ' at ' ~ skewjoin._sj_bytes_text(facts.bytes.left) ~ ' and '
        ~ j.right.alias ~ ' at ' ~ skewjoin._sj_bytes_text(facts.bytes.right) ~ ', a mean partition of '
        ~ skewjoin._sj_bytes_text(mean) ~ ' over ' ~ s.partitions ~ ' shuffle partitions; the largest partition AQE'
        ~ ' leaves whole is ' ~ j.left.alias ~ ' ' ~ skewjoin._sj_bytes_text(whole.left) ~ ', ' ~ j.right.alias ~ ' '
        ~ skewjoin._sj_bytes_text(whole.right) ~ ' (max of skewedPartitionThresholdInBytes '
        ~ skewjoin._sj_bytes_text(s.threshold) ~ ' and skewedPartitionFactor ' ~ s.factor
        ~ ' x the mean, at most the side), its pieces ' ~ skewjoin._sj_bytes_text(s.advisory)
        ~ ' (advisoryPartitionSizeInBytes), against 5 x the mean partition, ' ~ skewjoin._sj_bytes_text(bound) -%}
    {%- if [whole.left, whole.right, s.advisory] | max > bound -%}
        {{- return({'hand_back': false, 'lines': [head ~ 'measure: ' ~ numbers ~ '; AQE may leave a hot key whole']}) -}}
    {%- endif -%}
    {{- return({'hand_back': true, 'lines': [head ~ 'left to AQE, nothing counted: AQE on, ' ~ s.partitions
        ~ ' shuffle partitions, ' ~ ('forceOptimizeSkewedJoin' if s.force else 'the join is the whole model')
        ~ ', an inner join (AQE splits either side); ' ~ numbers
        ~ '. AQE balances this join at run time with exact sizes; counting its keys would read both sides in full'],
        'strategy': "plain join, left to AQE (auto's AQE regime above: nothing counted)"}) -}}
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
            ~ " model's code is more than one skewjoin.skew_join call), where an operator above it that needs its"
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


{#- A declared plan's heavy keys, as the forecast weighs them (pure, from
    verification's counts, verify.sql): each kept hot key a side streams
    (its rows on that side, spread over the hot branch's tasks: `spreads`,
    {side: `_sj_hot_spread`}) and each kept group whose `when` selects one
    key (its driver's rows, spread over its slots; over one where it
    distributes by keys). `hot`: `_sj_plan_hot_keys`'s; `verified`:
    `_sj_judge_groups`'s or none. Returns none where verification counted
    nothing (off, run-time queries off, or no declared key left), else
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
            {%- do out.unknown.append('hot keys of ' ~ alias ~ ' are found at run time, not declared') -%}
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


{#- Bytes as the record prints them (powers of 1024). -#}
{% macro _sj_bytes_text(n) -%}
    {%- set units = [['TiB', 1099511627776], ['GiB', 1073741824], ['MiB', 1048576], ['KiB', 1024]] -%}
    {%- for u in units if n >= u[1] -%}
        {{- return('%.1f' | format(n / u[1]) ~ ' ' ~ u[0]) -}}
    {%- endfor -%}
    {{- return((n | round | int) ~ ' B') -}}
{%- endmacro %}

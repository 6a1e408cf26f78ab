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
    skew plan gives the key (a group's slots, a hot key's input splits). -#}


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
    read), or none (no estimate, or Spark's "unknown", 8 EiB). -#}
{% macro _sj_side_bytes(j, side) -%}
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
{% macro _sj_aqe_facts(j, measured, planned, options) -%}
    {%- set heavy_keys = skewjoin._sj_aqe_heavy_keys(j, measured, planned, options) -%}
    {%- if not heavy_keys -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set s = skewjoin._sj_aqe_settings() -%}
    {%- set facts = {'settings': s, 'whole': none, 'bytes': {}} -%}
    {%- if skewjoin._sj_aqe_gate(s, none) -%}
        {{- return(facts) -}}
    {%- endif -%}
    {%- do facts.update({'whole': skewjoin._sj_join_is_the_model()}) -%}
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
    {%- set heavy_keys = skewjoin._sj_aqe_heavy_keys(j, measured, planned, options) -%}
    {%- set head = 'auto: AQE forecast (would Spark split the plain join itself?): ' -%}
    {%- if facts is none -%}
        {{- return({'hand_back': false, 'lines': []}) -}}
    {%- endif -%}
    {%- set s = facts.settings -%}
    {%- set gate = skewjoin._sj_aqe_gate(s, facts.whole) -%}
    {%- if gate == 'off' -%}
        {{- return({'hand_back': false, 'lines': [head ~ 'no, '
            ~ ('spark.sql.adaptive.enabled' if not s.aqe else 'spark.sql.adaptive.skewJoin.enabled')
            ~ ' is false in this session; the skew plan is kept']}) -}}
    {%- endif -%}
    {%- if gate == 'partitions' -%}
        {{- return({'hand_back': false, 'lines': [head ~ 'no, the join shuffles into ' ~ s.partitions
            ~ ' partitions, above spark.shuffle.minNumPartitionsToHighlyCompress (' ~ s.highly_compressed
            ~ '): map outputs keep one average block size, AQE sees no skew (spark.shuffle.accurateBlockSkewedFactor'
            ~ ' is off); the skew plan is kept']}) -}}
    {%- endif -%}
    {%- if gate == 'part_of_query' -%}
        {{- return({'hand_back': false, 'lines': [head ~ 'not counted on: the join is part of a larger query (the'
            ~ " model's code is more than one skewjoin.skew_join call), where an operator above it that needs its"
            ~ ' partitioning (an aggregate by the key) makes AQE drop the split unless'
            ~ ' spark.sql.adaptive.forceOptimizeSkewedJoin; the skew plan is kept']}) -}}
    {%- endif -%}
    {%- set splittable = skewjoin._sj_aqe_splittable(j) -%}
    {%- set bpr = {} -%}
    {%- set reasons = [] -%}
    {%- set details = [] -%}
    {%- for k in heavy_keys -%}
        {%- set alias = j[k.side].alias -%}
        {%- if not splittable[k.side] -%}
            {%- do reasons.append('key ' ~ k.name ~ ': AQE never splits ' ~ alias ~ ' in a ' ~ j.join_type
                ~ ' join') -%}
            {%- continue -%}
        {%- endif -%}
        {%- if k.side not in bpr -%}
            {%- set bytes = facts.bytes.get(k.side) -%}
            {%- set total = skewjoin._sj_auto_estimate(measured[k.side].total, options) -%}
            {%- do bpr.update({k.side: (bytes / total) if bytes is not none and total else none}) -%}
        {%- endif -%}
        {%- if bpr[k.side] is none -%}
            {%- do reasons.append('key ' ~ k.name ~ ': Spark gives no size estimate of ' ~ alias) -%}
            {%- continue -%}
        {%- endif -%}
        {%- set others = namespace(rows=skewjoin._sj_auto_estimate(measured[k.side].total, options)) -%}
        {%- for o in heavy_keys if o.side == k.side -%}{%- set others.rows = others.rows - o.rows -%}{%- endfor -%}
        {%- set bytes = k.rows * bpr[k.side] -%}
        {%- set median = ([others.rows, 0] | max) / s.partitions * bpr[k.side] -%}
        {%- set bar = [s.factor * median, s.threshold] | max -%}
        {%- set target = [s.advisory, median] | max -%}
        {%- set pieces = [measured[k.side].splits, (bytes / target) | round(0, 'ceil') | int] | min -%}
        {%- set numbers = 'about ' ~ skewjoin._sj_bytes_text(bytes) ~ ' (' ~ skewjoin._sj_rows_text(k.rows)
            ~ ' rows of ' ~ alias ~ ') against a skew bar of ' ~ skewjoin._sj_bytes_text(bar)
            ~ ' (max of ' ~ s.factor ~ ' x the median ' ~ skewjoin._sj_bytes_text(median)
            ~ ', skewedPartitionThresholdInBytes ' ~ skewjoin._sj_bytes_text(s.threshold) ~ '); pieces of '
            ~ skewjoin._sj_bytes_text(target) ~ ', at most one a map task (' ~ measured[k.side].splits ~ '): '
            ~ pieces ~ ", against the skew plan's " ~ k.parallelism ~ ' (' ~ k.plan ~ ')' -%}
        {%- do details.append('key ' ~ k.name ~ ': ' ~ numbers) -%}
        {%- if bytes < 2 * bar -%}
            {%- do reasons.append('key ' ~ k.name ~ ': under twice the skew bar') -%}
        {%- elif pieces < k.parallelism -%}
            {%- do reasons.append('key ' ~ k.name ~ ': AQE would cut ' ~ pieces ~ ' pieces, the skew plan spreads it'
                ~ ' over ' ~ k.parallelism) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set setting = 'AQE on, ' ~ s.partitions ~ ' shuffle partitions' ~ (', forceOptimizeSkewedJoin' if s.force
        else ', the join is the whole model') -%}
    {%- set measured_lines = [] -%}
    {%- for d in details -%}{%- do measured_lines.append('auto: AQE forecast, ' ~ d) -%}{%- endfor -%}
    {%- if reasons -%}
        {{- return({'hand_back': false, 'lines': measured_lines + [head ~ 'not for every key (' ~ setting ~ '): '
            ~ (reasons | join('; ')) ~ '; the skew plan is kept']}) -}}
    {%- endif -%}
    {{- return({'hand_back': true, 'lines': measured_lines + [head ~ 'yes (' ~ setting ~ '), for every key: the plain'
        ~ ' join is written and AQE splits it (a skew plan would add work to a join AQE already balances)']}) -}}
{%- endmacro %}


{#- Bytes as the record prints them (powers of 1024). -#}
{% macro _sj_bytes_text(n) -%}
    {%- set units = [['TiB', 1099511627776], ['GiB', 1073741824], ['MiB', 1048576], ['KiB', 1024]] -%}
    {%- for u in units if n >= u[1] -%}
        {{- return('%.1f' | format(n / u[1]) ~ ' ' ~ u[0]) -}}
    {%- endfor -%}
    {{- return((n | round | int) ~ ' B') -}}
{%- endmacro %}

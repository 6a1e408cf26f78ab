{#- What the AQE forecast and the AQE regime read (metadata queries: the
    session's settings, Spark's size estimates), the model's code, and how
    sizes read and print. -#}


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
    {#- Spark's numShufflePartitions: initialPartitionNum only where AQE coalesces partitions -#}
    {%- set coalescing = skewjoin._sj_spark_conf('spark.sql.adaptive.coalescePartitions.enabled', 'true') | lower
        == 'true' -%}
    {%- set initial = skewjoin._sj_spark_conf('spark.sql.adaptive.coalescePartitions.initialPartitionNum')
        if coalescing else none -%}
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
    partitioning. Not where the model is a view or ephemeral (other queries
    read it inside theirs), nor where the call's arguments call the package
    again (a skew_join over a skew_join: the outer join reuses the inner's
    partitioning). -#}
{% macro _sj_join_is_the_model() -%}
    {%- if model is not defined or model is none or model is not mapping -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- set materialized = ((model.get('config') or {}).get('materialized') or '') | string | lower -%}
    {%- if model.get('resource_type') == 'model' and materialized in ('view', 'ephemeral') -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- set code = (model.get('raw_code') or model.get('raw_sql') or '') | string -%}
    {%- set code = modules.re.sub('\\{%-?\\s*set\\s+\\w+\\s*-?%\\}.*?\\{%-?\\s*endset\\s*-?%\\}', '', code,
        flags=modules.re.S) -%}
    {%- set code = modules.re.sub('\\{#.*?#\\}|\\{%.*?%\\}|--[^\\n]*', '', code, flags=modules.re.S) -%}
    {%- set code = modules.re.sub('\\{\\{-?\\s*config\\(.*?\\)\\s*-?\\}\\}', '', code, flags=modules.re.S) -%}
    {%- set m = modules.re.fullmatch('\\s*\\{\\{-?\\s*skewjoin\\.skew_join\\((.*)\\)\\s*-?\\}\\}\\s*', code, flags=modules.re.S) -%}
    {%- if m is none or '{{' in m.group(1) or modules.re.search('\\bskewjoin\\.\\w+\\s*\\(', m.group(1)) -%}
        {{- return(false) -}}
    {%- endif -%}
    {#- the call's parenthesis closes at the end (string literals skipped): nothing applied to its result, as in
        `skew_join(...) ~ other(...)`; its arguments may hold `}}`, as a nested dict does -#}
    {%- set st = namespace(depth=1, quote=none, escaped=false, closed=false) -%}
    {%- for ch in m.group(1) -%}
        {%- if st.quote is not none -%}
            {%- if st.escaped -%}
                {%- set st.escaped = false -%}
            {%- elif ch == '\\' -%}
                {%- set st.escaped = true -%}
            {%- elif ch == st.quote -%}
                {%- set st.quote = none -%}
            {%- endif -%}
        {%- elif ch in ('"', "'") -%}
            {%- set st.quote = ch -%}
        {%- elif ch == '(' -%}
            {%- set st.depth = st.depth + 1 -%}
        {%- elif ch == ')' -%}
            {%- set st.depth = st.depth - 1 -%}
            {%- if st.depth == 0 -%}
                {%- set st.closed = true -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(not st.closed and st.depth == 1) -}}
{%- endmacro %}

{#- Bytes as the record prints them (powers of 1024). -#}
{% macro _sj_bytes_text(n) -%}
    {%- set units = [['TiB', 1099511627776], ['GiB', 1073741824], ['MiB', 1048576], ['KiB', 1024]] -%}
    {%- for u in units if n >= u[1] -%}
        {{- return('%.1f' | format(n / u[1]) ~ ' ' ~ u[0]) -}}
    {%- endfor -%}
    {{- return((n | round | int) ~ ' B') -}}
{%- endmacro %}

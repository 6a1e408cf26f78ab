{#- skew_join: 'auto' (HIVE-3286's "applied automatically"): the whole skew
    plan from measured skew, on both sides.

    Measure: one aggregate query a side counts its rows, its NULL-key rows
    and its heaviest keys (in the type the keys are compared in); the second
    side's query also counts the first side's heavy keys, so every key heavy
    on the first side has exact counts on both. A key heavy only on the
    second side and not listed on the first has at most the first side's
    smallest listed count (0 when the first side's list is complete), or,
    sketched, the sketch's bound, where that bound cannot change the plan
    (else one more read counts it: auto_measure.sql); the record says "at
    most". With sample_fraction, both queries read a
    tablesample and the record says so. A side Spark estimates above
    sample_above_bytes is sampled to find its candidate keys, which are then
    counted exactly (detection_sample.sql); the record says how.

    Plan: `_sj_auto_plan` (skew_auto.sql), pure: no query; its rules are
    spelled out on examples in tests/render/test_skew_auto_plan.py. The plan is a skew specification
    (hot_keys, groups, total_slots) that then runs through the same checks
    and rendering as one the user writes, and the record prints it, ready to
    pin in the model's config.
-#}


{% macro _sj_auto_defaults() -%}
    {%- set defaults = skewjoin._sj_detection_defaults() -%}
    {%- do defaults.update({'max_broadcast_rows': 100000, 'max_multicast_rows': 10000000, 'total_slots': none,
                            'min_parallelism': none, 'hot_keys_options': none, 'statistics': true}) -%}
    {{- return(defaults) -}}
{%- endmacro %}


{#- 'auto' or {'auto': {options}} -> the options, checked; none when `raw`
    is not an auto specification. -#}
{% macro _sj_auto_spec(raw, macro_name='skew_join') -%}
    {%- set arg = 'skew_join' -%}
    {%- set example = "'auto'  or  {'auto': {'min_share': 0.05, 'max_broadcast_rows': 50000}}" -%}
    {%- if raw is string and raw | lower | trim == 'auto' -%}
        {%- set options = {} -%}
    {%- elif raw is mapping and 'auto' in raw -%}
        {%- if raw | length > 1 -%}
            {%- set others = [] -%}
            {%- for k in raw if k != 'auto' -%}{%- do others.append(k) -%}{%- endfor -%}
            {%- set problem -%}
'auto' plans the whole specification, so it cannot be combined with {{ others | join(', ') }}; put the options
under auto, or write the specification by hand
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, arg, problem, example) -%}
        {%- endif -%}
        {%- set options = raw['auto'] if raw['auto'] is not none else {} -%}
        {%- if options is not mapping -%}
            {%- do skewjoin._sj_raise(macro_name, arg ~ '.auto', 'the options of auto are a mapping; got '
                ~ options, "{'auto': {'min_share': 0.05}}") -%}
        {%- endif -%}
    {%- else -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set defaults = skewjoin._sj_auto_defaults() -%}
    {%- set arg = 'skew_join.auto' -%}
    {%- set out = skewjoin._sj_detection_options(macro_name, arg, options, defaults, 'the options of auto',
        "{'auto': {'min_share': 0.05}}") -%}
    {%- for key in ['max_broadcast_rows', 'max_multicast_rows'] -%}
        {%- do skewjoin._sj_whole_number(macro_name, arg ~ '.' ~ key, out[key], 0, '100000',
            key ~ ', a whole number') -%}
    {%- endfor -%}
    {%- if out.total_slots is not none -%}
        {%- do skewjoin._sj_whole_number(macro_name, arg ~ '.total_slots', out.total_slots, 2, '200',
            'total_slots, a whole number') -%}
    {%- endif -%}
    {%- if out.min_parallelism is not none -%}
        {%- do out.update({'min_parallelism': skewjoin._sj_whole_number(macro_name, arg ~ '.min_parallelism',
            out.min_parallelism, 1, '4', 'min_parallelism, a whole number')}) -%}
    {%- endif -%}
    {%- if out.statistics is not boolean -%}
        {%- do skewjoin._sj_raise(macro_name, arg ~ '.statistics', "statistics is true (read Spark's column"
            ~ ' histograms where a side has them) or false (always scan); got ' ~ out.statistics, 'false') -%}
    {%- endif -%}
    {%- if out.hot_keys_options is not none -%}
        {#- checked as the hot keys' own options, with the spread options the hot branch uses -#}
        {%- do skewjoin._sj_hot_options(out.hot_keys_options, macro_name) -%}
    {%- endif -%}
    {{- return(out) -}}
{%- endmacro %}

{#- The options shared by the two ways of finding heavy keys in the data
    ('auto', and hot_keys 'auto'): their defaults, defined once, and their
    checks. -#}
{% macro _sj_detection_defaults() -%}
    {{- return({'min_share': 0.01, 'max_keys': 20, 'sample_fraction': none, 'sample_above_bytes': none,
                'sample_rows': none, 'sketch': none}) -}}
{%- endmacro %}


{#- `options` (a mapping) checked against `defaults` (its known keys) and
    merged over them; min_share, max_keys, sample_fraction, sample_rows,
    sample_above_bytes and sketch checked, sample_above_bytes and sketch
    resolved (the option, else `_sj_sample_above_bytes`, else
    var('skewjoin_sketch'), else true). `arg` names the options in errors, `what` and
    `example` say what they are. -#}
{% macro _sj_detection_options(macro_name, arg, options, defaults, what, example) -%}
    {%- do skewjoin._sj_check_keys(macro_name, arg, options, defaults.keys() | list, what, example) -%}
    {%- set out = {} -%}
    {%- do out.update(defaults) -%}
    {%- do out.update(options) -%}
    {%- do skewjoin._sj_number_between(macro_name, arg ~ '.min_share', out.min_share, 0, 1, false, '0.01',
        'min_share is a fraction above 0 and below 1') -%}
    {%- do skewjoin._sj_whole_number(macro_name, arg ~ '.max_keys', out.max_keys, 1, '20',
        'max_keys, a whole number') -%}
    {%- if out.sample_fraction is not none -%}
        {%- do skewjoin._sj_number_between(macro_name, arg ~ '.sample_fraction', out.sample_fraction, 0, 1, true,
            '0.1', 'sample_fraction is a fraction above 0 and at most 1') -%}
    {%- endif -%}
    {%- if out.sample_rows is not none -%}
        {%- do out.update({'sample_rows': skewjoin._sj_whole_number(macro_name, arg ~ '.sample_rows', out.sample_rows,
            100, '200000', 'sample_rows, the rows a sample draws, a whole number')}) -%}
    {%- endif -%}
    {%- if out.sample_above_bytes is none -%}
        {%- do out.update({'sample_above_bytes': skewjoin._sj_sample_above_bytes(macro_name)}) -%}
    {%- else -%}
        {%- do out.update({'sample_above_bytes': skewjoin._sj_sample_above_bytes_value(macro_name,
            arg ~ '.sample_above_bytes', out.sample_above_bytes)}) -%}
    {%- endif -%}
    {%- set sketch_arg = arg ~ '.sketch' if out.sketch is not none else "var('skewjoin_sketch')" -%}
    {%- if out.sketch is none -%}
        {%- do out.update({'sketch': var('skewjoin_sketch', true)}) -%}
    {%- endif -%}
    {%- if out.sketch is not boolean -%}
        {%- do skewjoin._sj_raise(macro_name, sketch_arg, 'sketch is true (read each side once, with Spark'
            ~ "'s approx_top_k, where Spark has it) or false (count its keys, on a sample above sample_above_bytes); got "
            ~ out.sketch,
            'false' if not sketch_arg.startswith('var(') else 'vars: {skewjoin_sketch: false}') -%}
    {%- endif -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The size above which a side's heavy keys are counted on a sample
    (detection_sample.sql): var('skewjoin_sample_above_bytes'), else 4 MiB. -#}
{% macro _sj_sample_above_bytes(macro_name) -%}
    {{- return(skewjoin._sj_sample_above_bytes_value(macro_name, "var('skewjoin_sample_above_bytes')",
        var('skewjoin_sample_above_bytes', 4194304))) -}}
{%- endmacro %}


{#- sample_above_bytes checked: a whole number of bytes (Spark's size
    estimate of a side above it samples the side) or false (never sample). -#}
{% macro _sj_sample_above_bytes_value(macro_name, arg, value) -%}
    {%- if value is sameas false -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- if value is boolean or value is none or not modules.re.fullmatch('[0-9]+', value | string | trim) -%}
        {%- set problem -%}
sample_above_bytes is a whole number of bytes (a side Spark estimates above it has its heavy keys counted on a
sample, then the candidates exactly) or false (count every key of every side); got {{ value }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, arg, problem, '268435456' if not arg.startswith('var(')
            else 'vars: {skewjoin_sample_above_bytes: 268435456}') -%}
    {%- endif -%}
    {{- return(value | int) -}}
{%- endmacro %}


{#- Whether a heavy-key count reads a tablesample (sample_fraction under 1). -#}
{% macro _sj_sampled(options) -%}
    {{- return(options.sample_fraction is not none and (options.sample_fraction | float) < 1) -}}
{%- endmacro %}


{#- The rows a heavy-key count reads: `columns` of side `side`, each row
    with its input split (spark_partition_id()), from a tablesample when
    `_sj_sampled`. A subquery aliased as the side. -#}
{% macro _sj_key_count_scan(j, side, columns, options) -%}
    {%- set alias = j[side].alias -%}
    {%- set sample = (' tablesample (' ~ ((options.sample_fraction | float) * 100) ~ ' percent)')
        if skewjoin._sj_sampled(options) else '' -%}
    {%- set scan -%}
(
    select
        {{ columns | join(',\n        ') }},
        spark_partition_id() as sj_split
    from {{ j[side]['from'] }}{{ sample }} as {{ alias }}
) as {{ alias }}
    {%- endset -%}
    {{- return(scan) -}}
{%- endmacro %}

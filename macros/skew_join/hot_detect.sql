{#- Hot keys found at run time ('auto'): the measure of one side's heaviest keys. -#}


{#- Find the heavy keys of one side at run time with one aggregate query.
    Returns {'values': [...tuples...], 'lines': [...], 'splits': n}. -#}
{% macro _sj_detect_hot_keys(j, side, options) -%}
    {%- set alias = j[side].alias -%}
    {%- set key_cols = [] -%}
    {%- set key_texts = [] -%}
    {%- for k in j['keys'] -%}
        {%- set col = alias ~ '.' ~ (k.left_ident if side == 'left' else k.right_ident) -%}
        {%- do key_cols.append(col) -%}
        {#- prefixed text, so that the result table keeps the exact value (dbt's result tables guess types
            from text) -#}
        {%- do key_texts.append("concat('v:', cast(" ~ col ~ ' as string)) as sj_key_' ~ loop.index0) -%}
    {%- endfor -%}
    {%- set query -%}
select
    {{ key_texts | join(',\n    ') }},
    grouping_id() as sj_grouping,
    count(*) as sj_rows,
    count(distinct sj_split) as sj_splits
from {{ skewjoin._sj_key_count_scan(j, side, key_cols, options) }}
group by grouping sets (({{ key_cols | join(', ') }}), ())
order by sj_rows desc
limit {{ (options.max_keys | int) + 1 }}
    {%- endset -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = skewjoin._sj_run_query(query) -%}
    {%- set seconds = (modules.datetime.datetime.now() - started).total_seconds() -%}
    {%- set n = j['keys'] | length -%}
    {%- set state = namespace(total=0, splits=0) -%}
    {%- for row in result.rows if row[n] != 0 -%}
        {%- set state.total = row[n + 1] -%}
        {%- set state.splits = row[n + 2] -%}
    {%- endfor -%}
    {%- set values = [] -%}
    {%- set found = [] -%}
    {%- for row in result.rows if row[n] == 0 and state.total > 0 -%}
        {%- set share = row[n + 1] / state.total -%}
        {%- if share >= (options.min_share | float) and values | length < (options.max_keys | int) -%}
            {%- set t = [] -%}
            {%- for i in range(n) -%}
                {%- do t.append(none if row[i] is none else (row[i] | string)[2:]) -%}
            {%- endfor -%}
            {%- do values.append(t) -%}
            {%- set shown = t | join(', ') if n > 1 else ('NULL' if t[0] is none else t[0] | string) -%}
            {%- do found.append(shown ~ ' ' ~ ('%.1f' | format(share * 100)) ~ '%') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set how = ('a ' ~ ((options.sample_fraction | float) * 100) ~ '% sample') if skewjoin._sj_sampled(options)
        else 'every row, exact counts' -%}
    {%- set line -%}
hot keys of {{ alias }} found at run time (one aggregate query over {{ how }}, {{ '%.1f' | format(seconds) }} s,
{{ state.total }} rows in {{ state.splits }} input splits; min_share {{ options.min_share }}, max_keys
{{ options.max_keys }}): {{ found | join('; ') if found else 'none above the threshold' }}
    {%- endset -%}
    {{- return({'values': values, 'lines': [line | replace('\n', ' ')], 'splits': state.splits}) -}}
{%- endmacro %}

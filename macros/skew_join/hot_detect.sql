{#- Hot keys found at compile time ('auto'): the measure of one side's heaviest keys. -#}


{#- Count the heaviest keys of one side at run time in one read with a
    frequent-items sketch where it can (detection_sketch.sql); else with one
    aggregate query, or above sample_above_bytes with a sample pass and an
    exact count of its candidates (detection_sample.sql). Returns {'total', 'splits',
    'rows': [[tuple, rows]], 'seconds', 'sample' (none unless sampled),
    'sketch' (where sketched)}. -#}
{% macro _sj_detect_hot_keys(j, side, options) -%}
    {%- set alias = j[side].alias -%}
    {%- set key_cols = [] -%}
    {%- set key_texts = [] -%}
    {%- for k in j['keys'] -%}
        {%- do key_cols.append(alias ~ '.' ~ (k.left_ident if side == 'left' else k.right_ident)) -%}
    {%- endfor -%}
    {%- if skewjoin._sj_sketch_side(j, j['keys'][0].left_type if side == 'left' else j['keys'][0].right_type,
                                    options) -%}
        {%- set s = skewjoin._sj_sketch_pass(j, side, key_cols[0], none, [], (options.max_keys | int) + 1, options,
            'sj_hot_counts', true) -%}
        {{- return({'total': s.total, 'splits': s.splits, 'rows': s['keys'], 'seconds': s.seconds,
                    'sample': none, 'sketch': {'tracked': s.tracked, 'listed': s['keys'] | length, 'counted': 0,
                                               'exact': skewjoin._sj_sketch_exact(s.total, s.tracked)}}) -}}
    {%- endif -%}
    {%- set decision = skewjoin._sj_sample_decision(j, side, options) -%}
    {%- set drawn = none if decision is none else skewjoin._sj_sample_side(j, side, key_cols, decision, options,
        (options.max_keys | int) + 1, 'sj_hot_counts', true) -%}
    {%- if drawn is not none -%}
        {%- set exact = skewjoin._sj_exact_pass(j, side, key_cols, drawn.candidates, 'sj_hot_counts') -%}
        {%- set rows = [] -%}
        {%- for t in drawn.candidates if exact.rows[tojson(t)] > 0 -%}
            {%- do rows.append([t, exact.rows[tojson(t)]]) -%}
        {%- endfor -%}
        {%- do drawn.update({'counted': drawn.candidates | length}) -%}
        {{- return({'total': exact.total, 'splits': exact.splits, 'rows': rows | sort(attribute=1, reverse=true),
                    'seconds': drawn.seconds + exact.seconds, 'sample': drawn}) -}}
    {%- endif -%}
    {%- for col in key_cols -%}
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
    {%- set out = {'total': 0, 'splits': 0, 'rows': [], 'seconds': seconds, 'sample': none} -%}
    {%- for row in result.rows -%}
        {%- if row[n] != 0 -%}
            {%- do out.update({'total': row[n + 1], 'splits': row[n + 2]}) -%}
        {%- else -%}
            {%- set t = [] -%}
            {%- for i in range(n) -%}
                {%- do t.append(none if row[i] is none else (row[i] | string)[2:]) -%}
            {%- endfor -%}
            {%- do out.rows.append([t, row[n + 1]]) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The heavy keys of a measured side (`_sj_detect_hot_keys`), pure: those
    holding min_share of its rows, at most max_keys. Returns {'values':
    [tuples], 'found': [shown with their share]}. -#}
{% macro _sj_detected_hot_keys(j, detected, options) -%}
    {%- set n = j['keys'] | length -%}
    {%- set out = {'values': [], 'found': []} -%}
    {#- counted over a sample_fraction's tablesample (no exact count follows): a key is hot only where its
        share holds min_share by the sample's 95% margin (1.96 standard errors of a share of the sampled rows),
        so that a key a small sample met once or twice is not planned as hot -#}
    {%- set sampled = skewjoin._sj_sampled(options) and detected.get('sketch') is none
        and detected.get('sample') is none -%}
    {%- set state = namespace(uncertain=0) -%}
    {%- for row in detected.rows if detected.total > 0 -%}
        {%- set share = row[1] / detected.total -%}
        {%- set margin = 1.96 * ((share * (1 - share) / detected.total) ** 0.5) if sampled else 0 -%}
        {%- if share >= (options.min_share | float) and share - margin < (options.min_share | float) -%}
            {%- set state.uncertain = state.uncertain + 1 -%}
        {%- elif share >= (options.min_share | float) and out['values'] | length < (options.max_keys | int) -%}
            {%- set t = row[0] -%}
            {%- do out['values'].append(t) -%}
            {%- set shown = t | join(', ') if n > 1 else ('NULL' if t[0] is none else t[0] | string) -%}
            {%- do out.found.append(shown ~ ' ' ~ ('%.1f' | format(share * 100)) ~ '%') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if state.uncertain -%}
        {%- do out.found.append(state.uncertain ~ ' key(s) above min_share in the sample but not by its 95% margin'
            ~ ' (too few sampled rows to tell): left to the shuffle join') -%}
    {%- endif -%}
    {{- return(out) -}}
{%- endmacro %}

{#- skew_join 'auto': the measure (auto_spec.sql describes the pipeline). -#}


{#- A row count with thousands separators. -#}
{% macro _sj_rows_text(n) -%}
    {{- return('{:,}'.format(n | int)) -}}
{%- endmacro %}


{#- The share of a count as the record prints it. -#}
{% macro _sj_auto_pct(rows, total) -%}
    {{- return(('%.1f' | format(rows * 100 / total)) ~ '%' if total else '0%') -}}
{%- endmacro %}


{#- One side's aggregate query: its rows, NULL-key rows, input splits and
    heaviest keys; `extras` (lists of key texts) are listed first whatever
    their counts. Returns {'total', 'null', 'splits', 'keys': [[texts,
    rows]], 'complete', 'seconds', 'query'}. -#}
{% macro _sj_auto_count_side(j, side, options, extras) -%}
    {%- set alias = j[side].alias -%}
    {%- set n = j['keys'] | length -%}
    {%- set exprs = skewjoin._sj_common_keys(j, side, alias) -%}
    {%- set inner = [] -%}
    {%- set texts = [] -%}
    {%- set nulls = [] -%}
    {%- set grouped = [] -%}
    {%- for e in exprs -%}
        {%- do inner.append(e ~ ' as sj_k' ~ loop.index0) -%}
        {#- text with a prefix, so that dbt's result table keeps the exact value -#}
        {%- do texts.append("concat('v:', cast(sj_k" ~ loop.index0 ~ ' as string)) as sj_key_' ~ loop.index0) -%}
        {%- do nulls.append('sj_k' ~ loop.index0 ~ ' is null') -%}
        {%- do grouped.append('sj_k' ~ loop.index0) -%}
    {%- endfor -%}
    {%- set ors = [] -%}
    {%- for t in extras -%}
        {%- set ands = [] -%}
        {%- for v in t -%}
            {%- do ands.append('sj_key_' ~ loop.index0 ~ ' = ' ~ skewjoin._sj_quote_string('v:' ~ v)) -%}
        {%- endfor -%}
        {%- do ors.append('(' ~ (ands | join(' and ')) ~ ')') -%}
    {%- endfor -%}
    {%- set limit = (options.max_keys | int) + 2 + (extras | length) -%}
    {%- set query -%}
select *
from (
    select
        {{ texts | join(',\n        ') }},
        grouping_id() as sj_grouping,
        count(*) as sj_rows,
        count_if({{ nulls | join(' or ') }}) as sj_null_rows,
        count(distinct sj_split) as sj_splits
    from {{ skewjoin._sj_indent(skewjoin._sj_key_count_scan(j, side, inner, options), 4)[4:] }}
    group by grouping sets (({{ grouped | join(', ') }}), ())
) as sj_counts
where sj_grouping <> 0 or sj_null_rows = 0
order by sj_grouping desc{{ (', coalesce(' ~ (ors | join(' or ')) ~ ', false) desc') if ors else '' }}, sj_rows desc
limit {{ limit }}
    {%- endset -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = skewjoin._sj_run_query(query) -%}
    {%- set seconds = (modules.datetime.datetime.now() - started).total_seconds() -%}
    {%- set out = {'total': 0, 'null': 0, 'splits': 0, 'keys': [], 'complete': result.rows | length < limit,
                   'seconds': seconds} -%}
    {%- for row in result.rows -%}
        {%- if row[n] != 0 -%}
            {%- do out.update({'total': row[n + 1] | int, 'null': row[n + 2] | int, 'splits': row[n + 3] | int}) -%}
        {%- else -%}
            {%- set t = [] -%}
            {%- for i in range(n) -%}{%- do t.append((row[i] | string)[2:]) -%}{%- endfor -%}
            {%- do out['keys'].append([t, row[n + 1] | int]) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- A side's counts from Spark's column statistics, where it has them: a
    table (not a query) joined on one integral column whose statistics hold
    an equi-height histogram (`ANALYZE TABLE t COMPUTE STATISTICS FOR COLUMNS
    k` with spark.sql.statistics.histogram.enabled). A key holding at least
    one bin's rows has bins of its own (lower = upper bound), each `height`
    rows; a value inside a wider bin gets the bin's rows over its distinct
    count. No scan: one `describe table extended <table> <column>`. Returns
    none where there is no usable histogram, else the shape of
    `_sj_auto_count_side` plus 'bins' (for the estimate of any other key).
    With sample_fraction both sides are sampled scans: the budgets scale the
    counts up by the fraction, which a histogram's counts must not be. -#}
{% macro _sj_auto_histogram(j, side, options) -%}
    {%- set from_text = j[side]['from'] | string | trim -%}
    {%- set sampled = skewjoin._sj_sampled(options) -%}
    {%- if not options.statistics or sampled or j['keys'] | length != 1 or from_text.startswith('(')
           or '/' in from_text
           or modules.re.fullmatch('[A-Za-z0-9_`.]+', from_text) is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set k = j['keys'][0] -%}
    {%- if skewjoin._sj_type_kind(k.left_type if side == 'left' else k.right_type) != 'integral'
           or skewjoin._sj_type_kind(k.type) != 'integral' -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = skewjoin._sj_run_query('describe table extended ' ~ from_text ~ ' '
        ~ (k.left_ident if side == 'left' else k.right_ident), 'metadata') -%}
    {%- set seconds = (modules.datetime.datetime.now() - started).total_seconds() -%}
    {%- set info = {} -%}
    {%- for row in result.rows -%}{%- do info.update({row[0] | string | trim: row[1] | string | trim}) -%}{%- endfor -%}
    {%- set head = modules.re.fullmatch('height: ([0-9.eE+-]+), num_of_bins: ([0-9]+)', info.get('histogram', '')) -%}
    {%- if head is none or not modules.re.fullmatch('[0-9]+', info.get('num_nulls', '')) -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set height = head.group(1) | float -%}
    {%- set bins = [] -%}
    {%- set number = '(-?[0-9.]+(?:[eE][+-]?[0-9]+)?)' -%}
    {%- for i in range(head.group(2) | int) -%}
        {%- set m = modules.re.fullmatch('lower_bound: ' ~ number ~ ', upper_bound: ' ~ number ~ ', distinct_count: '
            ~ '([0-9]+)', info.get('bin_' ~ i, '')) -%}
        {#- integral values beyond 2^53 have no exact double: no estimate from them -#}
        {%- if m is none or [m.group(1) | float | abs, m.group(2) | float | abs] | max >= 9007199254740992 -%}
            {{- return(none) -}}
        {%- endif -%}
        {%- do bins.append([m.group(1) | float, m.group(2) | float, [m.group(3) | int, 1] | max]) -%}
    {%- endfor -%}
    {%- set counts = {} -%}
    {%- for b in bins if b[0] == b[1] -%}
        {%- set key = (b[0] | int) | string -%}
        {%- do counts.update({key: counts.get(key, 0) + height}) -%}
    {%- endfor -%}
    {%- set keys = [] -%}
    {%- for key in counts -%}
        {%- do keys.append([[key], skewjoin._sj_auto_histogram_rows(bins, height, key)]) -%}
    {%- endfor -%}
    {%- set keys = keys | sort(attribute=1, reverse=true) -%}
    {{- return({'total': (info.num_nulls | int) + ((height * (bins | length)) | round | int),
                'null': info.num_nulls | int, 'splits': none, 'keys': keys[:(options.max_keys | int) + 1],
                'complete': false, 'seconds': seconds, 'bins': bins, 'height': height}) -}}
{%- endmacro %}


{#- The rows the histogram gives one integral key value (text). -#}
{% macro _sj_auto_histogram_rows(bins, height, text) -%}
    {%- set v = text | float -%}
    {%- set rows = namespace(n=0.0) -%}
    {%- for b in bins if b[0] <= v <= b[1] -%}
        {%- set rows.n = rows.n + (height if b[0] == b[1] else height / b[2]) -%}
    {%- endfor -%}
    {{- return(rows.n | round | int) -}}
{%- endmacro %}


{#- What one side's first measure will be, before anything is counted:
    {'side', 'histogram' (`_sj_auto_histogram`, else none), 'sketch'
    (detection_sketch.sql: one read with a frequent-items sketch), 'bytes'
    (Spark's size estimate of a sketched side, to read the smaller first),
    'decision' (else the sampling decision: above sample_above_bytes, else
    none)}. Metadata queries only. -#}
{% macro _sj_auto_first_plan(j, side, options) -%}
    {%- set histogram = skewjoin._sj_auto_histogram(j, side, options) -%}
    {%- set sketch = histogram is none and skewjoin._sj_sketch_side(j, j['keys'][0].type, options) -%}
    {{- return({'side': side, 'histogram': histogram, 'sketch': sketch,
                'bytes': skewjoin._sj_side_bytes(j, side) if sketch else none,
                'decision': none if histogram is not none or sketch
                            else skewjoin._sj_sample_decision(j, side, options)}) -}}
{%- endmacro %}


{#- One side's first measure (`first`: `_sj_auto_first_plan`): its
    histogram; else its sketch (with the exact rows of `extras`); else,
    above sample_above_bytes, its sample pass (detection_sample.sql: its
    candidate keys; its exact counts come with `_sj_auto_exact_candidates`);
    else every key counted (`_sj_auto_count_side`). -#}
{% macro _sj_auto_count_first(j, first, options, extras) -%}
    {%- set side = first.side -%}
    {%- if first.histogram is not none -%}
        {{- return(first.histogram) -}}
    {%- endif -%}
    {%- if first.sketch -%}
        {%- set s = skewjoin._sj_sketch_pass(j, side, skewjoin._sj_common_keys(j, side, j[side].alias)[0],
            j['keys'][0].type, extras, (options.max_keys | int) + 2, options, 'sj_counts', false) -%}
        {%- set keys = skewjoin._sj_sketch_merge(s['keys'], s.rows) -%}
        {%- set sketch = {'tracked': s.tracked, 'listed': s['keys'] | length, 'counted': extras | length,
                          'exact': skewjoin._sj_sketch_exact(s.total, s.tracked),
                          'returned': s.returned, 'floor': s.floor, 'limit': (options.max_keys | int) + 2} -%}
        {%- do sketch.update({'bound': skewjoin._sj_sketch_unlisted_bound(s.total, sketch)}) -%}
        {{- return({'total': s.total, 'null': s.null, 'splits': s.splits, 'keys': keys, 'complete': false,
                    'seconds': s.seconds, 'sketch': sketch, 'exact': s.rows}) -}}
    {%- endif -%}
    {%- set drawn = none if first.decision is none else skewjoin._sj_sample_side(j, side,
        skewjoin._sj_common_keys(j, side, j[side].alias), first.decision, options, (options.max_keys | int) + 2,
        'sj_counts', false) -%}
    {%- if drawn is none -%}
        {{- return(skewjoin._sj_auto_count_side(j, side, options, extras)) -}}
    {%- endif -%}
    {%- set keys = [] -%}
    {%- for t in drawn.candidates -%}{%- do keys.append([t, none]) -%}{%- endfor -%}
    {{- return({'total': none, 'null': none, 'splits': none, 'keys': keys, 'complete': true,
                'seconds': drawn.seconds, 'sample': drawn}) -}}
{%- endmacro %}


{#- A side's listed keys ([[values, rows]]) with exact counts (`rows`:
    {tojson(values): rows}) put over them or added (keys with no row left
    out), heaviest first. -#}
{% macro _sj_sketch_merge(listed, rows) -%}
    {%- set out = [] -%}
    {%- for k in listed if tojson(k[0]) not in rows -%}{%- do out.append(k) -%}{%- endfor -%}
    {%- for id in rows if rows[id] > 0 -%}{%- do out.append([fromjson(id), rows[id]]) -%}{%- endfor -%}
    {{- return(out | sort(attribute=1, reverse=true)) -}}
{%- endmacro %}


{#- The first side's exact rows of the second side's heavy keys it has not
    counted, where the second side was sketched (its listed keys are the
    sketch's): one global aggregate over the first side (`_sj_sketch_pass`
    with no sketch). Nothing to do where the first side's list is complete or
    holds them all (a side estimated from its histogram estimates them from
    its bins, without a scan), or where the first side's sketch bounds them
    tightly enough that their exact counts cannot change the plan
    (`_sj_sketch_bound_decides`): the plan then takes the bound, and the
    record says "at most". -#}
{% macro _sj_auto_recount_first(j, side, counted, other, options) -%}
    {%- set have = counted['keys'] | map(attribute=0) | list -%}
    {%- set wanted = [] -%}
    {%- for k in other['keys'] if other.total and k[1] / other.total >= (options.min_share | float)
                                  and k[0] not in have and k[0] not in wanted -%}
        {%- do wanted.append(k[0]) -%}
    {%- endfor -%}
    {%- if counted.complete or not wanted -%}
        {{- return(counted) -}}
    {%- endif -%}
    {%- if counted.get('sketch') is not none and other.get('sketch') is not none
           and skewjoin._sj_sketch_bound_decides(counted, other, wanted, options) -%}
        {%- do counted.update({'bound_keys': wanted | length}) -%}
        {{- return(counted) -}}
    {%- endif -%}
    {%- set s = skewjoin._sj_sketch_pass(j, side, skewjoin._sj_common_keys(j, side, j[side].alias)[0],
        j['keys'][0].type, wanted, 0, options, 'sj_counts', false) -%}
    {%- do counted.exact.update(s.rows) -%}
    {%- do counted.update({'keys': skewjoin._sj_sketch_merge(counted['keys'], s.rows),
                           'seconds': counted.seconds + s.seconds, 'recounted': wanted | length}) -%}
    {{- return(counted) -}}
{%- endmacro %}


{#- A sampled side's exact pass: its rows, NULL keys and input splits, and
    the rows of its candidates and of every key the other side listed; the
    side's 'keys' become those counts (heaviest first, keys with no row left
    out: the list is complete). -#}
{% macro _sj_auto_exact_candidates(j, side, counted, other) -%}
    {%- set wanted = [] -%}
    {%- for k in counted['keys'] + other['keys'] if k[0] not in wanted -%}
        {%- do wanted.append(k[0]) -%}
    {%- endfor -%}
    {%- set exact = skewjoin._sj_exact_pass(j, side, skewjoin._sj_common_keys(j, side, j[side].alias), wanted,
        'sj_counts') -%}
    {%- set keys = [] -%}
    {%- for t in wanted if exact.rows[tojson(t)] > 0 -%}
        {%- do keys.append([t, exact.rows[tojson(t)]]) -%}
    {%- endfor -%}
    {%- do counted.sample.update({'counted': wanted | length}) -%}
    {%- do counted.update({'keys': keys | sort(attribute=1, reverse=true), 'seconds': counted.seconds + exact.seconds,
                           'total': exact.total, 'null': exact.null, 'splits': exact.splits}) -%}
    {{- return(counted) -}}
{%- endmacro %}


{#- Both sides measured: {'left': {'total', 'null', 'splits'}, 'right':
    {...}, 'keys': [{'values': [texts], 'left': rows, 'right': rows,
    'bounded': [sides whose count is an upper bound]}], 'counted' (each
    side's counts as measured), 'extras' (the first side's heavy keys were
    listed first on the second), 'first' (the side measured first)}. The
    left side is measured first, but where only the right one is sketched,
    or both are and Spark estimates the right one smaller
    (detection_sketch.sql): the second side, sketched, is read once, with
    the first side's heavy keys counted exactly, and the first side counts
    the second side's heavy keys exactly in one more query. A sampled side (detection_sample.sql) has
    exact counts of its candidates and of every key the other side listed. -#}
{% macro _sj_auto_measure(j, options) -%}
    {%- set plans = {'left': skewjoin._sj_auto_first_plan(j, 'left', options)} -%}
    {%- set order = ['left', 'right'] -%}
    {%- if plans.left.sketch -%}
        {%- do plans.update({'right': skewjoin._sj_auto_first_plan(j, 'right', options)}) -%}
        {%- if not plans.right.sketch or (plans.left.bytes is not none and plans.right.bytes is not none
                                          and plans.right.bytes < plans.left.bytes) -%}
            {%- set order = ['right', 'left'] -%}
        {%- endif -%}
    {%- endif -%}
    {%- set first = skewjoin._sj_auto_count_first(j, plans[order[0]], options, []) -%}
    {%- set extras = [] -%}
    {%- if first.get('sample') is not none -%}
        {%- set extras = first['keys'][:(options.max_keys | int)] | map(attribute=0) | list -%}
    {%- else -%}
        {%- for k in first['keys'] if first.total and k[1] / first.total >= (options.min_share | float) -%}
            {%- if extras | length < (options.max_keys | int) -%}{%- do extras.append(k[0]) -%}{%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if order[1] not in plans -%}
        {%- do plans.update({'right': skewjoin._sj_auto_first_plan(j, 'right', options)}) -%}
    {%- endif -%}
    {%- set second = skewjoin._sj_auto_count_first(j, plans[order[1]], options, extras) -%}
    {%- if first.get('sample') is not none -%}
        {%- set first = skewjoin._sj_auto_exact_candidates(j, order[0], first, second) -%}
    {%- elif plans[order[1]].sketch and first.get('bins') is none -%}
        {%- set first = skewjoin._sj_auto_recount_first(j, order[0], first, second, options) -%}
    {%- endif -%}
    {%- if second.get('sample') is not none -%}
        {%- set second = skewjoin._sj_auto_exact_candidates(j, order[1], second, first) -%}
    {%- endif -%}
    {%- set extras = extras if second.get('sample') is none else [] -%}
    {%- set by_side = {order[0]: first, order[1]: second} -%}
    {%- set first = by_side.left -%}
    {%- set second = by_side.right -%}
    {%- set counted = {'left': first, 'right': second} -%}
    {%- set keys = [] -%}
    {%- set index = {} -%}
    {%- for side in ['left', 'right'] -%}
        {%- for k in counted[side]['keys'] -%}
            {%- set id = tojson(k[0]) -%}
            {%- if id not in index -%}
                {%- do index.update({id: keys | length}) -%}
                {%- do keys.append({'values': k[0], 'left': none, 'right': none, 'bounded': []}) -%}
            {%- endif -%}
            {%- do keys[index[id]].update({side: k[1]}) -%}
        {%- endfor -%}
    {%- endfor -%}
    {#- a side's count of a key it did not list: its histogram's estimate; else 0 when its list is complete;
        else at most its sketch's bound, or its smallest count -#}
    {%- for k in keys -%}
        {%- for side in ['left', 'right'] if k[side] is none -%}
            {%- set listed = counted[side]['keys'] | map(attribute=1) | list -%}
            {%- if counted[side].get('bins') is not none -%}
                {%- do k.update({side: skewjoin._sj_auto_histogram_rows(counted[side].bins, counted[side].height,
                    k['values'][0])}) -%}
            {%- elif tojson(k['values']) in counted[side].get('exact', {}) -%}
                {%- do k.update({side: counted[side].exact[tojson(k['values'])]}) -%}
            {%- elif counted[side].get('sketch') is not none -%}
                {%- do k.update({side: counted[side].sketch.bound}) -%}
                {%- if counted[side].sketch.bound > 0 -%}{%- do k.bounded.append(side) -%}{%- endif -%}
            {%- elif counted[side].complete or not listed -%}
                {%- do k.update({side: 0}) -%}
            {%- else -%}
                {%- do k.update({side: listed | min}) -%}
                {%- do k.bounded.append(side) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {{- return({'left': {'total': first.total, 'null': first.null, 'splits': first.splits},
                'right': {'total': second.total, 'null': second.null, 'splits': second.splits},
                'keys': keys, 'counted': counted, 'extras': extras | length > 0, 'first': order[0]}) -}}
{%- endmacro %}

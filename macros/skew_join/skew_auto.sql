{#- skew_join: 'auto' (HIVE-3286's "applied automatically"): the whole skew
    plan from measured skew, on both sides.

    Measure: one aggregate query a side counts its rows, its NULL-key rows
    and its heaviest keys (in the type the keys are compared in); the second
    side's query also counts the first side's heavy keys, so every key heavy
    on the first side has exact counts on both. A key heavy only on the
    second side and not listed on the first has at most the first side's
    smallest listed count (0 when the first side's list is complete); the
    record says "at most". With sample_fraction, both queries read a
    tablesample and the record says so.

    Plan: `_sj_auto_plan`, the rules of the Python planner
    (python_helpers/src/skewjoin/join_plan.py), rule for rule; a
    property-based test compares the two. The plan is a skew specification
    (hot_keys, groups, total_slots) that then runs through the same checks
    and rendering as one the user writes, and the record prints it, ready to
    pin in the model's config.
-#}

{% macro _sj_auto_defaults() -%}
    {{- return({'min_share': 0.01, 'max_keys': 20, 'sample_fraction': none, 'max_broadcast_rows': 100000,
                'max_multicast_rows': 10000000, 'total_slots': none, 'min_parallelism': none,
                'hot_keys_options': none, 'statistics': true}) -}}
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
    {%- do skewjoin._sj_check_keys(macro_name, arg, options, defaults.keys() | list, 'the options of auto',
        "{'auto': {'min_share': 0.05}}") -%}
    {%- set out = {} -%}
    {%- do out.update(defaults) -%}
    {%- do out.update(options) -%}
    {%- do skewjoin._sj_number_between(macro_name, arg ~ '.min_share', out.min_share, 0, 1, false, '0.01',
        'min_share is a fraction above 0 and below 1') -%}
    {%- if out.sample_fraction is not none -%}
        {%- do skewjoin._sj_number_between(macro_name, arg ~ '.sample_fraction', out.sample_fraction, 0, 1, true,
            '0.1', 'sample_fraction is a fraction above 0 and at most 1') -%}
    {%- endif -%}
    {%- do skewjoin._sj_whole_number(macro_name, arg ~ '.max_keys', out.max_keys, 1, '20',
        'max_keys, a whole number') -%}
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
    {%- set sample = '' -%}
    {%- if options.sample_fraction is not none and (options.sample_fraction | float) < 1 -%}
        {%- set sample = ' tablesample (' ~ ((options.sample_fraction | float) * 100) ~ ' percent)' -%}
    {%- endif -%}
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
    from (
        select
            {{ inner | join(',\n            ') }},
            spark_partition_id() as sj_split
        from {{ j[side]['from'] }}{{ sample }} as {{ alias }}
    ) as {{ alias }}
    group by grouping sets (({{ grouped | join(', ') }}), ())
) as sj_counts
where sj_grouping <> 0 or sj_null_rows = 0
order by sj_grouping desc{{ (', coalesce(' ~ (ors | join(' or ')) ~ ', false) desc') if ors else '' }}, sj_rows desc
limit {{ limit }}
    {%- endset -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = run_query(query) -%}
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
    {%- set sampled = options.sample_fraction is not none and (options.sample_fraction | float) < 1 -%}
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
    {%- set result = run_query('describe table extended ' ~ from_text ~ ' '
        ~ (k.left_ident if side == 'left' else k.right_ident)) -%}
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


{#- Both sides measured: {'left': {'total', 'null', 'splits'}, 'right':
    {...}, 'keys': [{'values': [texts], 'left': rows, 'right': rows,
    'bounded': [sides whose count is an upper bound]}], 'lines'}. -#}
{% macro _sj_auto_measure(j, options) -%}
    {%- set first = skewjoin._sj_auto_histogram(j, 'left', options) -%}
    {%- if first is none -%}
        {%- set first = skewjoin._sj_auto_count_side(j, 'left', options, []) -%}
    {%- endif -%}
    {%- set extras = [] -%}
    {%- for k in first['keys'] if first.total and k[1] / first.total >= (options.min_share | float) -%}
        {%- if extras | length < (options.max_keys | int) -%}{%- do extras.append(k[0]) -%}{%- endif -%}
    {%- endfor -%}
    {%- set second = skewjoin._sj_auto_histogram(j, 'right', options) -%}
    {%- if second is none -%}
        {%- set second = skewjoin._sj_auto_count_side(j, 'right', options, extras) -%}
    {%- endif -%}
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
    {#- a side's count of a key it did not list: its histogram's estimate; else 0 when its list is complete,
        else at most its smallest count -#}
    {%- for k in keys -%}
        {%- for side in ['left', 'right'] if k[side] is none -%}
            {%- set listed = counted[side]['keys'] | map(attribute=1) | list -%}
            {%- if counted[side].get('bins') is not none -%}
                {%- do k.update({side: skewjoin._sj_auto_histogram_rows(counted[side].bins, counted[side].height,
                    k['values'][0])}) -%}
            {%- elif counted[side].complete or not listed -%}
                {%- do k.update({side: 0}) -%}
            {%- else -%}
                {%- do k.update({side: listed | min}) -%}
                {%- do k.bounded.append(side) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set how = ('a ' ~ ((options.sample_fraction | float) * 100) ~ '% tablesample, counts of the sample'
        if options.sample_fraction is not none and (options.sample_fraction | float) < 1
        else 'every row, exact counts') -%}
    {%- set lines = [] -%}
    {%- for side in ['left', 'right'] -%}
        {%- set c = counted[side] -%}
        {%- set top = [] -%}
        {%- for k in c['keys'][:5] -%}
            {%- do top.append(k[0] | join(', ') ~ ' ' ~ skewjoin._sj_auto_pct(k[1], c.total)) -%}
        {%- endfor -%}
        {%- if c.get('bins') is not none -%}
            {%- set source -%}
skew estimated on {{ j[side].alias }} from Spark's column statistics, no scan (a histogram of {{ c.bins | length }}
bins, as of the table's last ANALYZE TABLE ... FOR COLUMNS; {{ '%.1f' | format(c.seconds) }} s): about {{ c.total }}
rows
            {%- endset -%}
        {%- else -%}
            {%- set source -%}
skew measured on {{ j[side].alias }} (one aggregate query over {{ how }}, {{ '%.1f' | format(c.seconds) }} s):
{{ c.total }} rows in {{ c.splits }} input splits
            {%- endset -%}
        {%- endif -%}
        {%- set line -%}
{{ source }}, {{ c.null }} with a NULL key; heaviest keys:
{{ top | join('; ') if top else 'none' }}{{ ' (' ~ j.left.alias ~ "'s heavy keys listed first)"
   if side == 'right' and extras else '' }}
        {%- endset -%}
        {%- do lines.append(line | replace('\n', ' ')) -%}
    {%- endfor -%}
    {{- return({'left': {'total': first.total, 'null': first.null, 'splits': first.splits},
                'right': {'total': second.total, 'null': second.null, 'splits': second.splits},
                'keys': keys, 'lines': lines}) -}}
{%- endmacro %}


{#- Slots for groups whose shares are exact fractions [[n, d], ...]: the
    rule of the Python planner's allocate_slots, in integers. -#}
{% macro _sj_allocate_slots(fractions, total) -%}
    {%- set wanted = [] -%}
    {%- for f in fractions -%}
        {%- set d = f[1] if f[0] > 0 and f[1] > 0 else 1 -%}
        {%- set nn = f[0] if f[0] > 0 and f[1] > 0 else 0 -%}
        {%- do wanted.append([1, (2 * nn * total + d) // (2 * d)] | max) -%}
    {%- endfor -%}
    {%- set count = fractions | length -%}
    {%- if wanted | sum <= total - 1 -%}
        {{- return(wanted) -}}
    {%- endif -%}
    {%- set spare = total - 1 - count -%}
    {#- common denominator: the product of the distinct denominators -#}
    {%- set state = namespace(common=1) -%}
    {%- set seen = [] -%}
    {%- for f in fractions if f[0] > 0 and f[1] > 0 and f[1] not in seen -%}
        {%- do seen.append(f[1]) -%}
        {%- set state.common = state.common * f[1] -%}
    {%- endfor -%}
    {%- set numerators = [] -%}
    {%- for f in fractions -%}
        {%- do numerators.append(f[0] * (state.common // f[1]) if f[0] > 0 and f[1] > 0 else 0) -%}
    {%- endfor -%}
    {%- set weight = numerators | sum -%}
    {%- if weight == 0 -%}
        {%- set ones = [] -%}
        {%- for f in fractions -%}{%- do ones.append(1) -%}{%- endfor -%}
        {{- return(ones) -}}
    {%- endif -%}
    {%- set extra = [] -%}
    {%- set order = [] -%}
    {%- for x in numerators -%}
        {%- do extra.append((x * spare) // weight) -%}
        {%- do order.append({'i': loop.index0, 'remainder': (x * spare) % weight}) -%}
    {%- endfor -%}
    {%- set left_over = spare - (extra | sum) -%}
    {%- set bumped = (order | sort(attribute='remainder', reverse=true))[:left_over] | map(attribute='i') | list -%}
    {%- set out = [] -%}
    {%- for e in extra -%}{%- do out.append(1 + e + (1 if loop.index0 in bumped else 0)) -%}{%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- Scaled to the whole input when the counts are of a sample. -#}
{% macro _sj_auto_estimate(rows, options) -%}
    {%- if options.sample_fraction is none or (options.sample_fraction | float) >= 1 -%}
        {{- return(rows) -}}
    {%- endif -%}
    {{- return((rows / (options.sample_fraction | float)) | round | int) -}}
{%- endmacro %}


{#- The plan from the measured counts (see skewjoin.join_plan for the rules).
    Returns {'config', 'keys': [{'values', 'action', 'side', 'slots',
    'multicast_rows', 'reason'}], 'null_bypass': {side: bool}, 'lines'}. -#}
{% macro _sj_auto_plan(j, measured, options, total_slots) -%}
    {%- set sides = ['left', 'right'] -%}
    {%- set totals = {'left': measured.left.total, 'right': measured.right.total} -%}
    {%- set min_share = options.min_share | float -%}
    {%- set candidates = [] -%}
    {%- for k in measured['keys'] -%}
        {%- set s_left = k.left / totals.left if totals.left else 0.0 -%}
        {%- set s_right = k.right / totals.right if totals.right else 0.0 -%}
        {%- set top = [s_left, s_right] | max -%}
        {%- if top >= min_share -%}
            {%- do candidates.append({'m': k, 'top': top, 'shares': {'left': s_left, 'right': s_right}}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set candidates = candidates | sort(attribute='top', reverse=true) -%}
    {%- set planned = [] -%}
    {%- set state = namespace(broadcast=0) -%}
    {%- set budget = options.max_broadcast_rows | int -%}
    {%- for c in candidates[:options.max_keys | int] -%}
        {%- set m = c.m -%}
        {%- set heavy = 'left' if m.left >= m.right else 'right' -%}
        {%- set light = 'right' if heavy == 'left' else 'left' -%}
        {%- set p = {'values': m['values'], 'rows': {'left': m.left, 'right': m.right}, 'bounded': m.bounded,
                     'shares': c.shares, 'action': 'rest', 'side': none,
                     'slots': 0, 'multicast_rows': 0, 'reason': ''} -%}
        {%- set usable = namespace(ok=true) -%}
        {%- for v in m['values'] -%}
            {%- if skewjoin._sj_literal(v, j['keys'][loop.index0].type) is none
                   or skewjoin._sj_special_float(v, j['keys'][loop.index0].type) is not none -%}
                {%- set usable.ok = false -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if not usable.ok -%}
            {%- do p.update({'reason': 'the value cannot be declared (not a finite number)'}) -%}
            {%- do planned.append(p) -%}
            {%- continue -%}
        {%- endif -%}
        {%- set o = skewjoin._sj_auto_estimate(m[light], options) -%}
        {%- if state.broadcast + o <= budget -%}
            {%- set state.broadcast = state.broadcast + o -%}
            {%- do p.update({'action': 'hot_key', 'side': heavy, 'reason': 'broadcast ' ~ j[light].alias ~ "'s "
                ~ skewjoin._sj_rows_text(o) ~ ' row(s) of this key'}) -%}
            {%- do planned.append(p) -%}
            {%- continue -%}
        {%- endif -%}
        {%- set over = j[light].alias ~ ' has ' ~ skewjoin._sj_rows_text(o)
            ~ ' rows of this key, over the broadcast budget of ' ~ skewjoin._sj_rows_text(budget) ~ ' rows'
            ~ (' (' ~ skewjoin._sj_rows_text(state.broadcast) ~ ' already taken)'
            if state.broadcast else '') -%}
        {%- set driver = namespace(side=none) -%}
        {%- for d in [heavy, light] if driver.side is none -%}
            {%- if ('right' if d == 'left' else 'left') not in j.semantics.no_multicast -%}
                {%- set driver.side = d -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if driver.side is none -%}
            {%- do p.update({'action': 'hot_key', 'side': heavy, 'reason': over ~ '; a ' ~ j.join_type
                ~ " join cannot copy either side's rows, so it is broadcast anyway (check the executors' memory)"}) -%}
        {%- else -%}
            {%- do p.update({'action': 'group', 'side': driver.side, 'reason': over}) -%}
        {%- endif -%}
        {%- do planned.append(p) -%}
    {%- endfor -%}
    {%- set null_bypass = {} -%}
    {%- set nulls = {'left': measured.left.null, 'right': measured.right.null} -%}
    {%- for s in sides -%}
        {%- do null_bypass.update({s: nulls[s] > 0 and nulls[s] / totals[s] >= min_share}) -%}
    {%- endfor -%}
    {%- set groups = planned | selectattr('action', 'equalto', 'group') | list -%}
    {%- if groups -%}
        {%- set shuffled = {} -%}
        {%- for s in sides -%}
            {%- set hot_rows = namespace(n=0) -%}
            {%- for p in planned if p.action == 'hot_key' -%}
                {%- set hot_rows.n = hot_rows.n + p.rows[s] -%}
            {%- endfor -%}
            {%- do shuffled.update({s: totals[s] - hot_rows.n - (nulls[s] if null_bypass[s] else 0)}) -%}
        {%- endfor -%}
        {%- set kept = groups[:total_slots - 1] -%}
        {%- for p in groups[total_slots - 1:] -%}
            {%- do p.update({'action': 'rest', 'side': none, 'reason': p.reason ~ '; no slot left (total_slots '
                ~ total_slots ~ ')'}) -%}
        {%- endfor -%}
        {%- set fractions = [] -%}
        {%- for p in kept -%}
            {%- set rows = p.rows[p.side] -%}
            {%- set d = shuffled[p.side] -%}
            {%- do p.update({'driver_rows': rows if d > 0 else 0, 'driver_shuffled': d if d > 0 else 1}) -%}
            {%- do fractions.append([p.driver_rows, p.driver_shuffled]) -%}
        {%- endfor -%}
        {%- set slots = skewjoin._sj_allocate_slots(fractions, total_slots) -%}
        {%- set mbudget = options.max_multicast_rows | int -%}
        {%- for p in kept -%}
            {%- set n = slots[loop.index0] -%}
            {%- set other = 'right' if p.side == 'left' else 'left' -%}
            {%- set copied = skewjoin._sj_auto_estimate(p.rows[other], options) -%}
            {%- set reason = p.reason ~ '; ' ~ n ~ ' slot(s) for ' ~ skewjoin._sj_rows_text(p.driver_rows) ~ ' of the '
                ~ skewjoin._sj_rows_text(p.driver_shuffled) ~ ' rows ' ~ j[p.side].alias ~ ' shuffles' -%}
            {%- set given = n -%}
            {%- if n >= 2 and copied * n > mbudget -%}
                {%- set fit = mbudget // copied -%}
                {%- if fit >= 2 -%}
                    {%- set reason = reason ~ '; the multicast budget ' ~ skewjoin._sj_rows_text(mbudget)
                        ~ ' rows allows ' ~ fit ~ ' slots of ' ~ n -%}
                    {%- set given = fit -%}
                {%- else -%}
                    {%- set reason = reason ~ '; ' ~ n ~ ' slots would copy ' ~ skewjoin._sj_rows_text(copied * n)
                        ~ ' rows, over the multicast budget ' ~ skewjoin._sj_rows_text(mbudget)
                        ~ ': nothing copied, the key hashed to one slot as distribute keys would' -%}
                    {%- set given = 1 -%}
                {%- endif -%}
            {%- endif -%}
            {%- if given < 2 -%}
                {%- do p.update({'action': 'rest', 'side': none, 'slots': 0,
                                 'reason': reason ~ '; one slot spreads nothing: left to the shuffle join'}) -%}
            {%- else -%}
                {%- do p.update({'slots': given, 'reason': reason, 'multicast_rows': copied * given}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {#- the specification -#}
    {%- set n_keys = j['keys'] | length -%}
    {%- set config = {} -%}
    {%- set hot_keys = {} -%}
    {%- for s in sides -%}
        {%- set values = [] -%}
        {%- for p in planned if p.action == 'hot_key' and p.side == s -%}
            {%- do values.append(p['values'][0] if n_keys == 1 else p['values']) -%}
        {%- endfor -%}
        {%- if null_bypass[s] -%}
            {%- set null_key = [] -%}
            {%- for k in j['keys'] -%}{%- do null_key.append(none) -%}{%- endfor -%}
            {%- do values.append(none if n_keys == 1 else null_key) -%}
        {%- endif -%}
        {%- if values -%}
            {%- do hot_keys.update({j[s].alias: values}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if hot_keys -%}
        {%- do config.update({'hot_keys': hot_keys}) -%}
    {%- endif -%}
    {%- set live = planned | selectattr('action', 'equalto', 'group') | list -%}
    {%- if live -%}
        {%- set written = [] -%}
        {%- for p in live -%}
            {%- set conds = [] -%}
            {%- for k in j['keys'] -%}
                {%- do conds.append(j[p.side].alias ~ '.' ~ (k.left_ident if p.side == 'left' else k.right_ident)
                    ~ ' = ' ~ skewjoin._sj_config_literal(p['values'][loop.index0], k.type)) -%}
            {%- endfor -%}
            {%- do written.append({'when': conds | join(' and '), 'slots': p.slots, 'distribute': 'random'}) -%}
        {%- endfor -%}
        {%- do config.update({'groups': written, 'total_slots': total_slots}) -%}
    {%- endif -%}
    {#- the record -#}
    {%- set lines = [] -%}
    {%- for p in planned -%}
        {%- set counts = [] -%}
        {%- for s in sides -%}
            {%- set c = p.rows[s] -%}
            {%- do counts.append(j[s].alias ~ ' ' ~ ('at most ' if s in p.bounded else '') ~ skewjoin._sj_rows_text(c)
                ~ ' rows (' ~ skewjoin._sj_auto_pct(c, totals[s]) ~ ')') -%}
        {%- endfor -%}
        {%- if p.action == 'hot_key' -%}
            {%- set what = 'hot key of ' ~ j[p.side].alias -%}
        {%- elif p.action == 'group' -%}
            {%- set what = 'skew group driven by ' ~ j[p.side].alias ~ ', ' ~ p.slots ~ ' slots, multicast '
                ~ skewjoin._sj_rows_text(p.multicast_rows) ~ ' rows' -%}
        {%- else -%}
            {%- set what = 'left to the shuffle join' -%}
        {%- endif -%}
        {%- do lines.append('auto: key ' ~ (p['values'] | join(', ')) ~ ' (' ~ (counts | join(', ')) ~ '): ' ~ what
            ~ ': ' ~ p.reason) -%}
    {%- endfor -%}
    {%- for s in sides if null_bypass[s] -%}
        {%- do lines.append('auto: NULL keys of ' ~ j[s].alias ~ ' (' ~ skewjoin._sj_auto_pct(nulls[s], totals[s])
            ~ '): routed around the join (they never match)') -%}
    {%- endfor -%}
    {%- if candidates | length > (options.max_keys | int) -%}
        {%- do lines.append('auto: ' ~ (candidates | length - (options.max_keys | int)) ~ ' more key(s) above'
            ~ ' min_share left to the shuffle join (max_keys ' ~ options.max_keys ~ ')') -%}
    {%- endif -%}
    {%- if not planned and not (null_bypass.values() | select | list) -%}
        {%- do lines.append('auto: no key of either side holds ' ~ (min_share * 100) ~ '% (min_share) of its rows') -%}
    {%- endif -%}
    {{- return({'config': config, 'keys': planned, 'null_bypass': null_bypass, 'lines': lines}) -}}
{%- endmacro %}


{#- skew_join: 'auto' at run time: measure, plan, and the specification the
    rest of skew_join runs. Returns {'skew', 'lines'}. -#}
{% macro _sj_auto_skew(spec, j, skew, guard) -%}
    {%- set options = skew.auto -%}
    {#- the empty specification (the plain join), as _sj_skew_spec makes it, from the same source -#}
    {%- set empty = skewjoin._sj_skew_spec(spec, {}) -%}
    {%- do empty.update({'source': skew.source, 'min_parallelism': skew.min_parallelism}) -%}
    {%- if guard.declined -%}
        {{- return({'skew': empty, 'lines': ["auto: nothing measured (skew plans are declined, see above)"]}) -}}
    {%- endif -%}
    {%- if not skewjoin._sj_queries_allowed() -%}
        {{- return({'skew': empty, 'lines': ["auto: nothing measured: measuring needs a query and run-time queries"
            ~ " are off " ~ skewjoin._sj_queries_off_reason() ~ "; the plain join is written"]}) -}}
    {%- endif -%}
    {%- set measured = skewjoin._sj_auto_measure(j, options) -%}
    {%- set slots = skewjoin._sj_total_slots({'total_slots': options.total_slots}) -%}
    {%- set planned = skewjoin._sj_auto_plan(j, measured, options, slots[0]) -%}
    {%- set lines = measured.lines + [
        'auto: rules min_share ' ~ options.min_share ~ ', max_keys ' ~ options.max_keys ~ ', broadcast budget '
        ~ skewjoin._sj_rows_text(options.max_broadcast_rows) ~ ' rows, multicast budget '
        ~ skewjoin._sj_rows_text(options.max_multicast_rows) ~ ' rows, ' ~ slots[0] ~ ' slots (from ' ~ slots[1] ~ ')'
    ] + planned.lines -%}
    {%- set config = planned.config -%}
    {%- if config.get('hot_keys') and options.hot_keys_options is not none -%}
        {%- do config.update({'hot_keys_options': options.hot_keys_options}) -%}
    {%- endif -%}
    {%- if not config -%}
        {{- return({'skew': empty, 'lines': lines}) -}}
    {%- endif -%}
    {%- do lines.extend(skewjoin._sj_pin_lines(config, j)) -%}
    {%- set pinned -%}
auto: pinned, that specification is counted at compile time as any declared one: a group or hot key under one slot's
even share (1/{{ slots[0] }}) is dropped; add 'verify': {{ options.min_share }} to keep auto's min_share, or 'verify':
false to plan it as written
    {%- endset -%}
    {%- do lines.append(pinned | replace('\n', ' ')) -%}
    {%- set planned_skew = skewjoin._sj_skew_spec(spec, config) -%}
    {#- its groups come from the counts just measured: not verified again -#}
    {%- do planned_skew.update({'source': skew.source, 'min_parallelism': skew.min_parallelism, 'verify': none,
                                'splits': {'left': measured.left.splits, 'right': measured.right.splits}}) -%}
    {%- do planned_skew.hot.update({'origin': 'planned from the measured counts'}) -%}
    {{- return({'skew': planned_skew, 'lines': lines}) -}}
{%- endmacro %}

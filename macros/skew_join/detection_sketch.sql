{#- The sketch: how 'auto' and hot_keys 'auto' find a side's heavy keys in
    one read of it, where Spark has `approx_top_k` (Spark 4.1 and later,
    Databricks).

    A side joined on one key of a type the sketch takes (integral, decimal,
    string, boolean, date, timestamp) is measured in one query that groups
    nothing by key: its rows, NULL-key rows and input splits, its heaviest
    keys from a frequent-items sketch (`approx_top_k`, the keys tracked from
    `_sj_sketch_tracked`), and the exact rows of any key the caller names
    (`count_if`). Every aggregate is global: each map task sends one row to
    one final task, whatever spark.sql.shuffle.partitions says, where a
    `group by` of the key shuffles into every one of its partitions.

    A sketched count is an upper bound: it is over the key's rows by at most
    the sketch's error, and equal to them while the sketch tracks every key
    it met (the measured runs: docs/performance.md). Keys below the
    sketch's error are not listed. So the macros read the smaller side
    (Spark's size estimate) first, and count its listed heavy keys exactly
    in the other side's query; the first side's counts of the other side's
    heavy keys come from one more query over the first side
    (`_sj_sketch_pass` with no sketch), unless the first side's sketch
    bounds them tightly enough to decide the plan
    (`_sj_sketch_unlisted_bound`, `_sj_sketch_bound_decides`).

    Elsewhere (a key of several columns, a float or double key, an older
    Spark, sample_fraction set, or the option sketch false, by default
    var('skewjoin_sketch')) a side is counted with a `group by`, and sampled
    above sample_above_bytes (detection_sample.sql). -#}


{#- The key kinds the sketch takes. Float and double keys keep the `group
    by`, whose NaN and -0.0 are the join's (the sketch merged -0.0 with 0.0
    on Spark 4.3; NaNs of other bits were not checked). -#}
{% macro _sj_sketch_kinds() -%}
    {{- return(['integral', 'decimal', 'string', 'boolean', 'date', 'timestamp']) -}}
{%- endmacro %}


{#- Whether this Spark has approx_top_k, asked once a join (`show functions`,
    metadata), and not at all with the option sketch false. -#}
{% macro _sj_sketch_available(j, options) -%}
    {%- if not options.sketch -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- if 'sj_sketch_available' not in j -%}
        {%- set result = skewjoin._sj_run_query("show functions like 'approx_top_k'", 'metadata') -%}
        {%- do j.update({'sj_sketch_available': result.rows | length > 0}) -%}
    {%- endif -%}
    {{- return(j['sj_sketch_available']) -}}
{%- endmacro %}


{#- Whether a side is sketched: one key of a kind the sketch takes, of type
    `data_type`, no sample_fraction, the option sketch on, and a Spark that
    has the sketch. -#}
{% macro _sj_sketch_side(j, data_type, options) -%}
    {{- return(options.sample_fraction is none and j['keys'] | length == 1
               and skewjoin._sj_type_kind(data_type) in skewjoin._sj_sketch_kinds()
               and skewjoin._sj_sketch_available(j, options)) -}}
{%- endmacro %}


{#- The keys the sketch tracks: 10 / min_share (1,000 at 0.01), at least
    1,000, at most Spark's limit (1,000,000). A sketch of M keys errs by at
    most about 3.5 / M of the side's rows, a third of min_share here, so
    every key holding min_share is listed. Each map task sends its sketch to
    one final task: at 4,000,000 rows in 64 splits, 1,000 keys tracked took
    the read 1.7-2.4 s of task time and the final task 11-14 ms, 10,000 keys
    2.0-4.1 s and 42-142 ms. -#}
{% macro _sj_sketch_tracked(options) -%}
    {%- set wanted = (10 / (options.min_share | float)) | round(0, 'ceil') | int -%}
    {{- return([[wanted, 1000] | max, 1000000] | min) -}}
{%- endmacro %}


{#- One read of side `side` on its key expression `expr` (of type
    `data_type`): its rows, NULL-key rows and input splits; with `limit` > 0
    the `limit` heaviest keys from the sketch; and the exact rows of each key
    in `tuples` (lists of one key text, none for NULL). `wrap` names the
    query (its kind in the ledger); `with_null_keys`: NULL may be listed.
    Returns {'total', 'null', 'splits', 'keys': [[values, rows]] (the
    sketch's, heaviest first), 'rows': {tojson(values): rows} (the exact
    counts), 'tracked', 'seconds'}. -#}
{% macro _sj_sketch_pass(j, side, expr, data_type, tuples, limit, options, wrap, with_null_keys) -%}
    {%- set tracked = skewjoin._sj_sketch_tracked(options) -%}
    {#- the input splits with a row: a split's first row has id (split << 33) (no set of split ids: a
        set is kept per row, about a fifth of the read's task time at 10,000,000 rows) -#}
    {%- set columns = ['count(*) as sj_rows', 'count_if(sj_k is null) as sj_null_rows',
                       'count_if(sj_first) as sj_splits'] -%}
    {%- if limit > 0 -%}
        {#- the items as the other counts write a key: prefixed text, 'n:' for NULL -#}
        {%- do columns.append("to_json(transform(approx_top_k(sj_k, " ~ limit ~ ', ' ~ tracked ~ "),\n            x -> "
            ~ "array(coalesce(concat('v:', cast(x.item as string)), 'n:'), cast(x.count as string)))) as sj_top") -%}
    {%- endif -%}
    {%- for t in tuples -%}
        {#- a typed literal, so that no row is cast to text; the key's text where the type takes no literal -#}
        {%- set lit = skewjoin._sj_literal(t[0], data_type) -%}
        {%- set test = 'sj_k <=> ' ~ lit if lit is not none
            else "coalesce(concat('v:', cast(sj_k as string)), 'n:') = "
                 ~ skewjoin._sj_quote_string('n:' if t[0] is none else 'v:' ~ t[0]) -%}
        {%- do columns.append('count_if(' ~ test ~ ') as sj_exact_' ~ loop.index0) -%}
    {%- endfor -%}
    {%- set query -%}
select *
from (
    select
        {{ columns | join(',\n        ') }}
    from (
        select
            {{ expr }} as sj_k,
            monotonically_increasing_id() = shiftleft(cast(spark_partition_id() as bigint), 33) as sj_first
        from {{ j[side]['from'] }} as {{ j[side].alias }}
    ) as sj_keys
) as {{ wrap }}
    {%- endset -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = skewjoin._sj_run_query(query) -%}
    {%- set row = result.rows[0] -%}
    {%- set out = {'total': row[0] | int, 'null': row[1] | int, 'splits': row[2] | int, 'keys': [], 'rows': {},
                   'tracked': tracked, 'returned': 0, 'floor': none,
                   'seconds': (modules.datetime.datetime.now() - started).total_seconds()} -%}
    {%- set first = 3 -%}
    {%- if limit > 0 -%}
        {%- set first = 4 -%}
        {%- set items = fromjson(row[3] or '[]') -%}
        {#- what bounds the keys it did not list (`_sj_sketch_unlisted_bound`): the items it returned, NULL
            included, and the smallest count among them -#}
        {%- do out.update({'returned': items | length,
                           'floor': (items | map(attribute=1) | map('int') | min) if items else none}) -%}
        {%- for item in items -%}
            {%- set value = skewjoin._sj_sample_key_value(item[0]) -%}
            {%- if value is not none or with_null_keys -%}
                {%- do out['keys'].append([[value], item[1] | int]) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- do out.update({'keys': out['keys'] | sort(attribute=1, reverse=true)}) -%}
    {%- endif -%}
    {%- for t in tuples -%}
        {%- do out.rows.update({tojson(t): row[first + loop.index0] | int}) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The hash map size Spark gives a sketch that tracks `tracked` keys
    (ApproxTopK.calMaxMapSize in Spark 4.1-4.3): the power of two at or
    above tracked / 0.75. -#}
{% macro _sj_sketch_map_size(tracked) -%}
    {%- set state = namespace(size=1) -%}
    {%- for _ in range(32) -%}
        {%- if state.size * 3 < tracked * 4 -%}{%- set state.size = state.size * 2 -%}{%- endif -%}
    {%- endfor -%}
    {{- return(state.size) -}}
{%- endmacro %}


{#- Whether a sketch over `total` rows (NULL keys included) counted every
    key exactly: DataSketches' frequent items estimate only once they hold
    more keys than 3/4 of their map (then they purge), and a side of no more
    rows than that has no more keys; merged partial sketches add their
    errors, each 0. -#}
{% macro _sj_sketch_exact(total, tracked) -%}
    {{- return(total <= (skewjoin._sj_sketch_map_size(tracked) * 3) // 4) -}}
{%- endmacro %}


{#- At most how many rows a key the sketch did not list holds, on a side of
    `total` rows read with a sketch (`sketch`: {'tracked', 'exact',
    'returned', 'floor', 'limit'}). Spark lists the items whose count is above the
    sketch's error, at most `limit` of them, heaviest first (DataSketches'
    frequent items, NO_FALSE_POSITIVES). A key it did not list holds at most
    twice the error (its count and the error it may miss), the error being
    at most 3.5 / map size of the rows, and 0 where the sketch was exact
    (`_sj_sketch_exact`: then it listed every key); and where the list was
    cut at `limit`, at most the smallest count listed. -#}
{% macro _sj_sketch_unlisted_bound(total, sketch) -%}
    {%- set error = 0 if sketch.exact
        else ((7 * total) / skewjoin._sj_sketch_map_size(sketch.tracked)) | round(0, 'ceil') | int -%}
    {%- if sketch.returned >= sketch.limit and sketch.floor is not none -%}
        {%- set error = [error, sketch.floor] | max -%}
    {%- endif -%}
    {{- return([error, total] | min) -}}
{%- endmacro %}


{#- Whether the first side's sketch decides the plan for the second side's
    heavy keys it did not list (`wanted`), without counting them: with each
    at the first side's bound (`_sj_sketch_unlisted_bound`) instead of its
    exact rows, `_sj_auto_plan` makes the same decisions. That holds when
    the bound is under min_share of the first side's rows and under each
    key's rows on the second side (the key stays the second side's, with the
    same share), and every key either side lists at min_share fits the
    broadcast budget together, each at the most its lighter side can hold
    (so each is a hot key, with the exact counts as with the bounds). -#}
{% macro _sj_sketch_bound_decides(counted, other, wanted, options) -%}
    {%- set bound = counted.sketch.bound -%}
    {%- set min_share = options.min_share | float -%}
    {%- if not counted.total or bound / counted.total >= min_share -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- set rows = {'first': {}, 'other': {}} -%}
    {%- for k in counted['keys'] -%}{%- do rows.first.update({tojson(k[0]): k[1]}) -%}{%- endfor -%}
    {%- for k in other['keys'] -%}{%- do rows.other.update({tojson(k[0]): k[1]}) -%}{%- endfor -%}
    {%- do rows.other.update(other.exact) -%}
    {%- for w in wanted if rows.other.get(tojson(w), 0) <= bound -%}
        {{- return(false) -}}
    {%- endfor -%}
    {%- set state = namespace(broadcast=0) -%}
    {%- set seen = [] -%}
    {%- for k in counted['keys'] + other['keys'] if tojson(k[0]) not in seen -%}
        {%- set id = tojson(k[0]) -%}
        {%- do seen.append(id) -%}
        {%- set first = rows.first.get(id, bound) -%}
        {%- set second = rows.other.get(id, other.sketch.bound) -%}
        {%- if first / counted.total >= min_share or (other.total and second / other.total >= min_share) -%}
            {%- set state.broadcast = state.broadcast + ([first, second] | min) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(state.broadcast <= (options.max_broadcast_rows | int)) -}}
{%- endmacro %}


{#- The record's words for a sketched side (`sketch`: {'tracked', 'listed',
    'counted' (keys the other side listed, counted exactly in the same
    query)}). -#}
{% macro _sj_sketch_record_text(alias, sketch) -%}
    {%- set text -%}
sketched: one query read every row of {{ alias }} once and counted its rows, NULL keys and input splits exactly, and
its heaviest keys with a frequent-items sketch (approx_top_k, {{ skewjoin._sj_rows_text(sketch.tracked) }} keys
tracked; {{ sketch.listed }} key(s) listed, {{ 'each count exact: the side has no more rows than the sketch holds keys'
if sketch.get('exact') else "each count at most the sketch's error over the key's rows" }}){{ (', and '
~ sketch.counted ~ ' key(s) the other side listed, exactly') if sketch.counted else '' }}
    {%- endset -%}
    {{- return(text | replace('\n', ' ')) -}}
{%- endmacro %}

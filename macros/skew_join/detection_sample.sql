{#- Sampling above a size: how 'auto' and hot_keys 'auto' find a large
    side's heavy keys without aggregating every key of it.

    A side whose size Spark estimates (`explain cost`, metadata only) above
    sample_above_bytes is measured in two queries instead of one:

    1. the sample pass, one scan: the side's rows, NULL-key rows and input
       splits, exact (every row), and the key counts of a deterministic
       sample (`rand(<seed>) < f`, f sized from the estimate so that about
       `_sj_sample_target_rows` rows are drawn: sample_rows, by default
       1000 / min_share); the keys holding at least half of min_share of
       the sample are the candidates;
    2. the exact pass, one scan, a filtered aggregate (`where key in
       (...)`): the candidates' rows (and any other key the caller names),
       counted over every row.

    Neither pass groups the side by all its keys, so the shuffle is one row
    per key of the sample, and the plan, the broadcast and multicast budgets
    and the record read exact counts, as without sampling. Sampling decides
    only which keys are candidates: by default a key of min_share is drawn
    on average 1000 times and missed only below 500, far out in the tail; a
    sample that drew fewer than `_sj_sample_min_rows` rows (the size
    estimate was far off) is drawn again with the fraction the exact row
    count gives. -#}


{#- The fixed seed of the sample: the same data, the same sample. -#}
{% macro _sj_sample_seed() -%}
    {{- return(29) -}}
{%- endmacro %}


{#- The rows a sample aims to draw: sample_rows, else so many that a key
    holding min_share of the side is drawn about 1000 times. -#}
{% macro _sj_sample_target_rows(options) -%}
    {%- if options.sample_rows is not none -%}
        {{- return(options.sample_rows | int) -}}
    {%- endif -%}
    {{- return((1000 / (options.min_share | float)) | round(0, 'ceil') | int) -}}
{%- endmacro %}


{#- The fewest drawn rows a sample is trusted with: a tenth of the target
    (by default a key of min_share drawn about 100 times, so drawn under
    half of that in one sample of 250,000). -#}
{% macro _sj_sample_min_rows(options) -%}
    {{- return((skewjoin._sj_sample_target_rows(options) / 10) | round(0, 'ceil') | int) -}}
{%- endmacro %}


{#- Bytes a row takes on disk, as the fraction assumes from Spark's size
    estimate (columnar files of a few columns; a wider side draws more rows
    than the target, never fewer than `_sj_sample_min_rows` without a
    second draw). -#}
{% macro _sj_sample_bytes_per_row() -%}
    {{- return(32) -}}
{%- endmacro %}


{#- Whether one side is sampled, from Spark's size estimate of it: none (not
    sampled: a sample_fraction is set, sample_above_bytes is false, or no
    estimate is above it) or {'bytes', 'above', 'fraction', 'target'}. One
    metadata query (`explain cost`) unless sampling is off. -#}
{% macro _sj_sample_decision(j, side, options) -%}
    {%- if options.sample_fraction is not none or options.sample_above_bytes is sameas false -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set bytes = skewjoin._sj_side_bytes(j, side) -%}
    {%- if bytes is none or bytes <= (options.sample_above_bytes | int) -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set target = skewjoin._sj_sample_target_rows(options) -%}
    {%- set fraction = target / ([bytes / skewjoin._sj_sample_bytes_per_row(), 1] | max) -%}
    {%- if fraction >= 0.5 -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return({'bytes': bytes, 'above': options.sample_above_bytes | int, 'fraction': fraction,
                'target': target}) -}}
{%- endmacro %}


{#- A fraction as the sample's SQL and record write it: six significant
    digits. -#}
{% macro _sj_fraction_text(f) -%}
    {{- return('%.6g' | format(f)) -}}
{%- endmacro %}


{#- The key text of one key expression, as both passes group by it:
    prefixed, so that dbt's result table keeps the exact value; NULL's text
    is 'n:', which no type guess reads as a value. -#}
{% macro _sj_sample_key_text(expr) -%}
    {{- return("coalesce(concat('v:', cast(" ~ expr ~ " as string)), 'n:')") -}}
{%- endmacro %}


{#- A key text read back: 'n:' -> none, 'v:x' -> 'x'. -#}
{% macro _sj_sample_key_value(text) -%}
    {{- return(none if text is none or text == 'n:' else (text | string)[2:]) -}}
{%- endmacro %}


{#- The sample pass over side `side`, its keys `exprs` (SQL of the side's
    alias), drawing `fraction` of the rows. `wrap` names the query (its kind
    in the ledger); `with_null_keys`: a key with a NULL part may be listed
    (hot keys), else only its rows are counted (sj_null_rows). Returns
    {'total', 'null', 'splits', 'sampled' (rows drawn), 'keys': [[values,
    drawn rows]] (heaviest first, at most `limit`), 'seconds'}. -#}
{% macro _sj_sample_pass(j, side, exprs, fraction, limit, wrap, with_null_keys) -%}
    {%- set inner = [] -%}
    {%- set texts = [] -%}
    {%- set names = [] -%}
    {%- set nulls = [] -%}
    {%- for e in exprs -%}
        {%- do inner.append(e ~ ' as sj_k' ~ loop.index0) -%}
        {%- do texts.append('if(sj_in, ' ~ skewjoin._sj_sample_key_text('sj_k' ~ loop.index0) ~ ', null) as sj_key_'
            ~ loop.index0) -%}
        {%- do names.append('sj_key_' ~ loop.index0) -%}
        {%- do nulls.append('sj_k' ~ loop.index0 ~ ' is null') -%}
    {%- endfor -%}
    {%- do inner.append('rand(' ~ skewjoin._sj_sample_seed() ~ ') < ' ~ skewjoin._sj_fraction_text(fraction)
        ~ ' as sj_in') -%}
    {%- set query -%}
select *
from (
    select
        sj_in,
        {{ names | join(',\n        ') }},
        grouping_id() as sj_grouping,
        sum(sj_n) as sj_rows,
        sum(sj_null_n) as sj_null_rows,
        sum(if(sj_in, sj_n, 0)) as sj_sampled_rows,
        count(distinct sj_split) as sj_splits
    from (
        select
            sj_in,
            {{ texts | join(',\n            ') }},
            sj_split,
            count(*) as sj_n,
            count_if({{ nulls | join(' or ') }}) as sj_null_n
        from {{ skewjoin._sj_indent(skewjoin._sj_key_count_scan(j, side, inner, {'sample_fraction': none}), 8)[8:] }}
        group by sj_in, {{ names | join(', ') }}, sj_split
    ) as sj_sample
    group by grouping sets ((sj_in, {{ names | join(', ') }}), ())
) as {{ wrap }}
where sj_grouping <> 0 or (sj_in{{ '' if with_null_keys else ' and sj_null_rows = 0' }})
order by sj_grouping desc, sj_rows desc
limit {{ limit + 1 }}
    {%- endset -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = skewjoin._sj_run_query(query) -%}
    {%- set seconds = (modules.datetime.datetime.now() - started).total_seconds() -%}
    {%- set n = exprs | length -%}
    {%- set out = {'total': 0, 'null': 0, 'splits': 0, 'sampled': 0, 'keys': [], 'seconds': seconds} -%}
    {%- for row in result.rows -%}
        {%- if row[n + 1] != 0 -%}
            {%- do out.update({'total': row[n + 2] | int, 'null': row[n + 3] | int, 'sampled': row[n + 4] | int,
                               'splits': row[n + 5] | int}) -%}
        {%- else -%}
            {%- set t = [] -%}
            {%- for i in range(n) -%}{%- do t.append(skewjoin._sj_sample_key_value(row[i + 1])) -%}{%- endfor -%}
            {%- do out['keys'].append([t, row[n + 2] | int]) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The exact pass: the rows of side `side` of each key in `tuples` (lists
    of key texts, none for NULL), counted over every row in one filtered
    aggregate. Returns {'rows': {tojson(values): rows} (0 for a key with no
    row), 'seconds'}. -#}
{% macro _sj_exact_pass(j, side, exprs, tuples, wrap) -%}
    {%- set out = {'rows': {}, 'seconds': 0.0} -%}
    {%- for t in tuples -%}{%- do out.rows.update({tojson(t): 0}) -%}{%- endfor -%}
    {%- if not tuples -%}
        {{- return(out) -}}
    {%- endif -%}
    {%- set n = exprs | length -%}
    {%- set texts = [] -%}
    {%- set names = [] -%}
    {%- for e in exprs -%}
        {%- do texts.append(skewjoin._sj_sample_key_text(e) ~ ' as sj_key_' ~ loop.index0) -%}
        {%- do names.append('sj_key_' ~ loop.index0) -%}
    {%- endfor -%}
    {%- set wanted = [] -%}
    {%- for t in tuples -%}
        {%- set lits = [] -%}
        {%- for v in t -%}
            {%- do lits.append("'n:'" if v is none else skewjoin._sj_quote_string('v:' ~ v)) -%}
        {%- endfor -%}
        {%- do wanted.append(lits[0] if n == 1 else '(' ~ (lits | join(', ')) ~ ')') -%}
    {%- endfor -%}
    {%- set query -%}
select *
from (
    select
        {{ names | join(',\n        ') }},
        grouping_id() as sj_grouping,
        count(*) as sj_rows
    from {{ skewjoin._sj_indent(skewjoin._sj_key_count_scan(j, side, texts, {'sample_fraction': none}), 4)[4:] }}
    where {{ names[0] if n == 1 else '(' ~ (names | join(', ')) ~ ')' }} in ({{ wanted | join(', ') }})
    group by grouping sets (({{ names | join(', ') }}))
) as {{ wrap }}
    {%- endset -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = skewjoin._sj_run_query(query) -%}
    {%- do out.update({'seconds': (modules.datetime.datetime.now() - started).total_seconds()}) -%}
    {%- for row in result.rows -%}
        {%- set t = [] -%}
        {%- for i in range(n) -%}{%- do t.append(skewjoin._sj_sample_key_value(row[i])) -%}{%- endfor -%}
        {%- do out.rows.update({tojson(t): row[n + 1] | int}) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- A side's sample pass (`_sj_sample_pass`), drawn again with the fraction
    its exact row count gives when it drew fewer than `_sj_sample_min_rows`,
    and its candidates: the keys holding at least half of min_share of the
    drawn rows, at most `limit`. Returns the pass plus 'fraction', 'draws'
    (1 or 2), 'candidates' ([values]) and 'seconds' (both draws). -#}
{% macro _sj_sample_side(j, side, exprs, decision, options, limit, wrap, with_null_keys) -%}
    {%- set drawn = skewjoin._sj_sample_pass(j, side, exprs, decision.fraction, limit, wrap, with_null_keys) -%}
    {%- do drawn.update({'fraction': decision.fraction, 'draws': 1}) -%}
    {%- if drawn.sampled < skewjoin._sj_sample_min_rows(options) and drawn.total > 0 -%}
        {%- set fraction = [decision.target / drawn.total, 1] | min -%}
        {%- set first_seconds = drawn.seconds -%}
        {%- set drawn = skewjoin._sj_sample_pass(j, side, exprs, fraction, limit, wrap, with_null_keys) -%}
        {%- do drawn.update({'fraction': fraction, 'draws': 2, 'seconds': drawn.seconds + first_seconds}) -%}
    {%- endif -%}
    {%- set candidates = [] -%}
    {%- for k in drawn['keys'] if drawn.sampled and k[1] / drawn.sampled >= (options.min_share | float) / 2 -%}
        {%- if candidates | length < limit -%}{%- do candidates.append(k[0]) -%}{%- endif -%}
    {%- endfor -%}
    {%- do drawn.update({'candidates': candidates}) -%}
    {{- return(drawn) -}}
{%- endmacro %}


{#- The record's words for a sampled side (`sample`: `_sj_sample_side`'s
    result plus 'bytes', 'above' and 'counted', the keys counted exactly). -#}
{% macro _sj_sample_record_text(alias, sample) -%}
    {%- set text -%}
sampled: Spark estimates {{ alias }} at {{ skewjoin._sj_bytes_text(sample.bytes) }}, above sample_above_bytes
({{ skewjoin._sj_bytes_text(sample.above) }}); one query counted its rows, NULL keys and splits over every row and its
keys over a sample of {{ '%.4g' | format(sample.fraction * 100) }}% of the rows (rand({{ skewjoin._sj_sample_seed() }}),
{{ skewjoin._sj_rows_text(sample.sampled) }} rows drawn{{ ', drawn twice: the first draw was too small' if sample.draws > 1
else '' }}), then one query counted {{ sample.counted }} key(s) exactly over every row (its {{ sample.candidates | length
}} candidate(s){{ ' and the keys the other side listed' if sample.counted > sample.candidates | length else '' }})
    {%- endset -%}
    {{- return(text | replace('\n', ' ')) -}}
{%- endmacro %}

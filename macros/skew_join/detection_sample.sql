{#- Sampling above a size: how 'auto' and hot_keys 'auto' find a large
    side's heavy keys without aggregating every key of it.

    A side whose size Spark estimates (`explain cost`, metadata only) above
    sample_above_bytes is measured in two queries instead of one, neither of
    which groups all of its rows by key:

    1. the sample pass: the key counts of a deterministic sample (`rand(<seed>)
       < f`, f sized from the estimate so that about `_sj_sample_target_rows`
       rows are drawn: sample_rows, by default 1000 / min_share); only the
       drawn rows are grouped, and the keys holding at least half of
       min_share of them are the candidates;
    2. the exact pass, over every row: the side's rows, NULL-key rows and
       input splits, and the rows of each candidate (and of any other key
       the caller names), in one aggregate whose groups are those keys and
       one for every other row: each map task sends a few rows.

    The plan, the broadcast and multicast budgets and the record read exact
    counts, as without sampling. Sampling decides only which keys are
    candidates: by default a key of min_share is drawn on average 1000
    times and missed only below 500, far out in the tail. A draw of fewer
    than `_sj_sample_min_rows` rows (the size estimate was far off) is drawn
    again with the fraction its count implies, or, where that is half the
    rows or more, the side is counted whole. -#}


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
    alias): the key counts of the rows `rand(<seed>) < fraction` draws, one
    scan and one small aggregate (only the drawn rows are grouped). `wrap`
    names the query (its kind in the ledger); `with_null_keys`: a key with a
    NULL part may be listed (hot keys), else not. Returns {'sampled' (rows
    drawn), 'keys': [[values, drawn rows]] (heaviest first, at most
    `limit`), 'seconds'}. -#}
{% macro _sj_sample_pass(j, side, exprs, fraction, limit, wrap, with_null_keys) -%}
    {%- set texts = [] -%}
    {%- set names = [] -%}
    {%- set nulls = [] -%}
    {%- for e in exprs -%}
        {%- do texts.append(skewjoin._sj_sample_key_text(e) ~ ' as sj_key_' ~ loop.index0) -%}
        {%- do names.append('sj_key_' ~ loop.index0) -%}
        {%- do nulls.append('sj_key_' ~ loop.index0 ~ " = 'n:'") -%}
    {%- endfor -%}
    {%- set query -%}
select *
from (
    select
        {{ names | join(',\n        ') }},
        grouping_id() as sj_grouping,
        count(*) as sj_rows
    from (
        select
            {{ texts | join(',\n            ') }}
        from {{ j[side]['from'] }} as {{ j[side].alias }}
        where rand({{ skewjoin._sj_sample_seed() }}) < {{ skewjoin._sj_fraction_text(fraction) }}
    ) as sj_drawn
    group by grouping sets (({{ names | join(', ') }}), ())
) as {{ wrap }}
{{ 'where sj_grouping <> 0 or not (' ~ (nulls | join(' or ')) ~ ')\n' if not with_null_keys else '' -}}
order by sj_grouping desc, sj_rows desc
limit {{ limit + 1 }}
    {%- endset -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = skewjoin._sj_run_query(query) -%}
    {%- set seconds = (modules.datetime.datetime.now() - started).total_seconds() -%}
    {%- set n = exprs | length -%}
    {%- set out = {'sampled': 0, 'keys': [], 'seconds': seconds} -%}
    {%- for row in result.rows -%}
        {%- if row[n] != 0 -%}
            {%- do out.update({'sampled': row[n + 1] | int}) -%}
        {%- else -%}
            {%- set t = [] -%}
            {%- for i in range(n) -%}{%- do t.append(skewjoin._sj_sample_key_value(row[i])) -%}{%- endfor -%}
            {%- do out['keys'].append([t, row[n + 1] | int]) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The exact pass: over every row of side `side`, in one scan and one
    aggregate of a few groups (no shuffle of its keys), its rows, NULL-key
    rows and input splits, and the rows of each key in `tuples` (lists of
    key texts, none for NULL). Returns {'total', 'null', 'splits', 'rows':
    {tojson(values): rows} (0 for a key with no row), 'seconds'}. -#}
{% macro _sj_exact_pass(j, side, exprs, tuples, wrap) -%}
    {%- set n = exprs | length -%}
    {%- set texts = [] -%}
    {%- set names = [] -%}
    {%- set picked = [] -%}
    {%- set nulls = [] -%}
    {%- for e in exprs -%}
        {%- do texts.append(skewjoin._sj_sample_key_text(e) ~ ' as sj_t' ~ loop.index0) -%}
        {%- do names.append('sj_key_' ~ loop.index0) -%}
        {%- do picked.append("if(sj_hit, sj_t" ~ loop.index0 ~ ", 'x') as sj_key_" ~ loop.index0) -%}
        {%- do nulls.append(e ~ ' is null') -%}
    {%- endfor -%}
    {%- set wanted = [] -%}
    {%- for t in tuples -%}
        {%- set lits = [] -%}
        {%- for v in t -%}
            {%- do lits.append("'n:'" if v is none else skewjoin._sj_quote_string('v:' ~ v)) -%}
        {%- endfor -%}
        {%- do wanted.append(lits[0] if n == 1 else '(' ~ (lits | join(', ')) ~ ')') -%}
    {%- endfor -%}
    {%- set ts = [] -%}
    {%- for i in range(n) -%}{%- do ts.append('sj_t' ~ i) -%}{%- endfor -%}
    {%- set hit = (ts[0] if n == 1 else '(' ~ (ts | join(', ')) ~ ')') ~ ' in (' ~ (wanted | join(', ')) ~ ')'
        if wanted else 'false' -%}
    {%- set query -%}
select *
from (
    select
        {{ names | join(',\n        ') }},
        grouping_id() as sj_grouping,
        count(*) as sj_rows,
        count_if(sj_null) as sj_null_rows,
        concat('s:', concat_ws(' ', collect_set(cast(sj_split as string)))) as sj_split_list
    from (
        select
            {{ picked | join(',\n            ') }},
            sj_null,
            sj_split
        from (
            select
                {{ ts | join(',\n                ') }},
                {{ hit }} as sj_hit,
                sj_null,
                sj_split
            from (
                select
                    {{ texts | join(',\n                    ') }},
                    {{ nulls | join(' or ') }} as sj_null,
                    spark_partition_id() as sj_split
                from {{ j[side]['from'] }} as {{ j[side].alias }}
            ) as sj_keys
        ) as sj_hits
    ) as sj_picked
    group by grouping sets (({{ names | join(', ') }}))
) as {{ wrap }}
    {%- endset -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = skewjoin._sj_run_query(query) -%}
    {%- set out = {'total': 0, 'null': 0, 'splits': 0, 'rows': {},
                   'seconds': (modules.datetime.datetime.now() - started).total_seconds()} -%}
    {%- for t in tuples -%}{%- do out.rows.update({tojson(t): 0}) -%}{%- endfor -%}
    {%- set splits = [] -%}
    {%- for row in result.rows -%}
        {%- do out.update({'total': out.total + (row[n + 1] | int), 'null': out.null + (row[n + 2] | int)}) -%}
        {#- 's:' and spaces: no type guess of dbt's result table reads the list as a number -#}
        {%- for s in ((row[n + 3] or 's:') | string)[2:].split(' ') if s and s not in splits -%}
            {%- do splits.append(s) -%}
        {%- endfor -%}
        {%- if row[0] != 'x' -%}
            {%- set t = [] -%}
            {%- for i in range(n) -%}{%- do t.append(skewjoin._sj_sample_key_value(row[i])) -%}{%- endfor -%}
            {%- do out.rows.update({tojson(t): row[n + 1] | int}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do out.update({'splits': splits | length}) -%}
    {{- return(out) -}}
{%- endmacro %}


{#- A side's sample pass (`_sj_sample_pass`) and its candidates: the keys
    holding at least half of min_share of the drawn rows, at most `limit`.
    A draw of fewer than `_sj_sample_min_rows` rows (the size estimate was
    far off) is drawn again with the fraction its count implies; none where
    that fraction is half the rows or more (or nothing was drawn): the side
    is then counted whole. Returns the pass plus 'fraction', 'draws' (1 or
    2), 'candidates' ([values]) and 'seconds' (both draws). -#}
{% macro _sj_sample_side(j, side, exprs, decision, options, limit, wrap, with_null_keys) -%}
    {%- set drawn = skewjoin._sj_sample_pass(j, side, exprs, decision.fraction, limit, wrap, with_null_keys) -%}
    {%- do drawn.update({'fraction': decision.fraction, 'draws': 1}) -%}
    {%- if drawn.sampled < skewjoin._sj_sample_min_rows(options) -%}
        {%- if drawn.sampled == 0 -%}
            {{- return(none) -}}
        {%- endif -%}
        {%- set fraction = decision.fraction * decision.target / drawn.sampled -%}
        {%- if fraction >= 0.5 -%}
            {{- return(none) -}}
        {%- endif -%}
        {%- set first_seconds = drawn.seconds -%}
        {%- set drawn = skewjoin._sj_sample_pass(j, side, exprs, fraction, limit, wrap, with_null_keys) -%}
        {%- do drawn.update({'fraction': fraction, 'draws': 2, 'seconds': drawn.seconds + first_seconds}) -%}
    {%- endif -%}
    {%- set candidates = [] -%}
    {%- for k in drawn['keys'] if drawn.sampled and k[1] / drawn.sampled >= (options.min_share | float) / 2 -%}
        {%- if candidates | length < limit -%}{%- do candidates.append(k[0]) -%}{%- endif -%}
    {%- endfor -%}
    {%- do drawn.update({'candidates': candidates, 'bytes': decision.bytes, 'above': decision.above}) -%}
    {{- return(drawn) -}}
{%- endmacro %}


{#- The record's words for a sampled side (`sample`: `_sj_sample_side`'s
    result plus 'counted', the keys its exact pass counted). -#}
{% macro _sj_sample_record_text(alias, sample) -%}
    {%- set text -%}
sampled: Spark estimates {{ alias }} at {{ skewjoin._sj_bytes_text(sample.bytes) }}, above sample_above_bytes
({{ skewjoin._sj_bytes_text(sample.above) }}); one query counted its keys on a sample of
{{ '%.4g' | format(sample.fraction * 100) }}% of the rows (rand({{ skewjoin._sj_sample_seed() }}),
{{ skewjoin._sj_rows_text(sample.sampled) }} rows drawn{{ ', drawn twice: the first draw was too small' if sample.draws > 1
else '' }}), then one query counted its rows, NULL keys, input splits and {{ sample.counted }} key(s) exactly over every
row (its {{ sample.candidates | length }} candidate(s){{ ' and the keys the other side listed'
if sample.counted > sample.candidates | length else '' }})
    {%- endset -%}
    {{- return(text | replace('\n', ' ')) -}}
{%- endmacro %}

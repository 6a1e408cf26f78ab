{#- The key values of the small relations: one query per group of small
    relations that constrain the same big columns. It returns the
    intersection of their distinct keys (NULLs dropped: they never match), as
    prefixed text so that the exact value survives dbt's result tables (which
    guess types from text), plus per-relation counts and the min and max. -#}

{#- The big-column set a source constrains, e.g. 'date_key:date|store_id:int'. -#}
{% macro _sj_prune_group_key(src) -%}
    {%- set parts = [] -%}
    {%- for k in src['keys'] -%}
        {%- do parts.append((k.big | lower) ~ ':' ~ k.target) -%}
    {%- endfor -%}
    {{- return(parts | join('|')) -}}
{%- endmacro %}


{#- The small key `k` of a source in the join's common type. -#}
{% macro _sj_prune_common_expr(k) -%}
    {{- return(skewjoin._sj_cast(k.small_expr, k.small_type, k.common, k.get('ansi', true))) -}}
{%- endmacro %}


{#- The small key in the target type, and the condition that it is a value
    the big column can hold (a bigint above the int range, a decimal with more
    digits, a timestamp off midnight for a date column can never match); `c`
    is the key in the common type (an expression over the source's row, or
    a column of its grouped rows). -#}
{% macro _sj_prune_target_expr(k, c=none) -%}
    {%- set c = c if c is not none else skewjoin._sj_prune_common_expr(k) -%}
    {%- set both_strings = skewjoin._sj_type_kind(k.target) == 'string'
        and skewjoin._sj_type_kind(k.common) == 'string' -%}
    {%- if k.target == k.common or both_strings -%}
        {{- return({'value': c, 'check': c ~ ' is not null', 'narrowed': false}) -}}
    {%- endif -%}
    {%- set v = 'try_cast(' ~ c ~ ' as ' ~ k.target ~ ')' -%}
    {{- return({'value': v, 'check': c ~ ' is not null and cast(' ~ v ~ ' as ' ~ k.common ~ ') = ' ~ c,
                'narrowed': true}) -}}
{%- endmacro %}


{#- SELECT DISTINCT of one source's keys in the target types (sj_k0, ...),
    filtered, NULL-free, only values the big columns can hold. -#}
{% macro _sj_prune_keys_select(src) -%}
    {%- set values = [] -%}
    {%- set checks = [] -%}
    {%- for k in src['keys'] -%}
        {%- set t = skewjoin._sj_prune_target_expr(k) -%}
        {%- do values.append(t.value ~ ' as sj_k' ~ loop.index0) -%}
        {%- do checks.append(t.check) -%}
    {%- endfor -%}
    {%- set conds = (['(' ~ src.filter ~ ')'] if src.filter is not none else []) + checks -%}
    {%- set sql -%}
select distinct
    {{ values | join(',\n    ') }}
from {{ src['from'] }} as {{ src.alias }}
where {{ conds | join('\n    and ') }}
    {%- endset -%}
    {{- return(sql) -}}
{%- endmacro %}


{#- The intersection of the sources' key sets, as one query (sj_k0, ...). -#}
{% macro _sj_prune_intersection_select(sources) -%}
    {%- set parts = [] -%}
    {%- for src in sources -%}
        {%- do parts.append(skewjoin._sj_prune_keys_select(src)) -%}
    {%- endfor -%}
    {{- return(parts | join('\nintersect\n')) -}}
{%- endmacro %}


{#- Text of a value that reads back as the same value of `data_type`:
    timestamps carry their UTC offset (a local time can be ambiguous). -#}
{% macro _sj_prune_text_expr(expr, data_type) -%}
    {{- return("concat('v:', " ~ skewjoin._sj_prune_value_text(expr, data_type) ~ ')') -}}
{%- endmacro %}


{#- A SQL literal of `data_type` for a value read back as text. Safe from
    Spark's variable substitution: _sj_quote_string writes the `$` of every
    `${` as `\u0024`, and none of its escapes starts with `{` or holds a `$`,
    so no `${` can appear in a quoted value (numbers and booleans are checked
    to be just that). -#}
{% macro _sj_prune_literal(macro_name, text, data_type) -%}
    {%- set lit = skewjoin._sj_literal(text, data_type) -%}
    {%- set special = text in ('NaN', 'Infinity', '-Infinity') -%}
    {%- if lit is none and skewjoin._sj_type_kind(data_type) == 'fractional' and special -%}
        {%- set lit = 'cast(' ~ skewjoin._sj_quote_string(text) ~ ' as '
            ~ skewjoin._sj_normalize_type(data_type) ~ ')' -%}
    {%- endif -%}
    {%- if lit is none -%}
        {%- do skewjoin._sj_raise(macro_name, 'small',
            'the key value ' ~ text ~ ' read from Spark is not a valid ' ~ data_type ~ ' literal',
            'keys of number, string, boolean, date or timestamp types') -%}
    {%- endif -%}
    {{- return(lit) -}}
{%- endmacro %}


{#- The rows of one source grouped by its keys in the join's common type
    (sj_c0, ...), each group with its row count (sj_rows) and whether its
    key is one the big columns can hold (sj_fit; false or NULL for a NULL
    key). Every reader of it uses both, and filters on them rather than on
    the keys, so that Spark plans it once (one scan and shuffle of the
    source, reused): a filter on the keys alone would be pushed below the
    grouping and make a second plan. -#}
{% macro _sj_prune_groups_select(src) -%}
    {%- set exprs = [] -%}
    {%- set named = [] -%}
    {%- set checks = [] -%}
    {%- for k in src['keys'] -%}
        {%- do exprs.append(skewjoin._sj_prune_common_expr(k)) -%}
        {%- do named.append(exprs[-1] ~ ' as sj_c' ~ loop.index0) -%}
        {%- do checks.append(skewjoin._sj_prune_target_expr(k, exprs[-1]).check) -%}
    {%- endfor -%}
    {%- set sql -%}
select
    {{ named | join(',\n    ') }},
    count(*) as sj_rows,
    max({{ checks | join(' and ') }}) as sj_fit
from {{ src['from'] }} as {{ src.alias }}
{%- if src.filter is not none %}
where ({{ src.filter }})
{%- endif %}
group by {{ exprs | join(', ') }}
    {%- endset -%}
    {{- return(sql) -}}
{%- endmacro %}


{#- Rows of the key query from one row of counts: `stack` of [kind, name,
    value texts] lists (each with `n` values; the texts are prefixed
    'v:') over `from_text`. -#}
{% macro _sj_prune_stack(rows, n, from_text) -%}
    {%- set args = [] -%}
    {%- for row in rows -%}
        {%- set values = row[2] + ['cast(null as string)'] * (n - row[2] | length) -%}
        {%- do args.append(([row[0], row[1]] + values) | join(', ')) -%}
    {%- endfor -%}
    {%- set names = ['sj_kind', 'sj_name'] -%}
    {%- for i in range(n) -%}{%- do names.append('sj_v' ~ i) -%}{%- endfor -%}
    {%- set sql -%}
select stack({{ rows | length }},
    {{ args | join(',\n    ') }}
) as ({{ names | join(', ') }})
from {{ from_text }}
    {%- endset -%}
    {{- return(sql) -}}
{%- endmacro %}


{#- The text of a count for the key query. -#}
{% macro _sj_prune_count_text(expr) -%}
    {{- return("concat('v:', cast(" ~ expr ~ " as string))") -}}
{%- endmacro %}


{#- One source's counts, as rows of the key query, from its grouped rows
    (sj_groups_<j>): its distinct keys the big columns can hold, its rows
    with a NULL key, and (when a key is narrowed to the big column's type)
    its distinct key values the big columns cannot hold; with the prune
    cache, the NULL rows counted when the key set was cached. -#}
{% macro _sj_prune_source_stat_rows(src, j, n) -%}
    {%- set null_checks = [] -%}
    {%- set state = namespace(narrowed=false) -%}
    {%- for k in src['keys'] -%}
        {%- do null_checks.append('sj_c' ~ loop.index0 ~ ' is null') -%}
        {%- if skewjoin._sj_prune_target_expr(k).narrowed -%}{%- set state.narrowed = true -%}{%- endif -%}
    {%- endfor -%}
    {%- set any_null = '(' ~ (null_checks | join(' or ')) ~ ')' -%}
    {%- set counts = ['count_if(sj_fit) as sj_distinct',
                      'coalesce(sum(if(' ~ any_null ~ ', sj_rows, 0)), 0) as sj_nulls'] -%}
    {%- set rows = [["'stat'", "'distinct_" ~ j ~ "'", [skewjoin._sj_prune_count_text('sj_distinct')]],
                    ["'stat'", "'nulls_" ~ j ~ "'", [skewjoin._sj_prune_count_text('sj_nulls')]]] -%}
    {%- if state.narrowed -%}
        {%- do counts.append('count_if(not ' ~ any_null ~ ' and not coalesce(sj_fit, false)) as sj_unfit') -%}
        {%- do rows.append(["'stat'", "'unfit_" ~ j ~ "'", [skewjoin._sj_prune_count_text('sj_unfit')]]) -%}
    {%- endif -%}
    {%- set from_text -%}
(
    select
        {{ counts | join(',\n        ') }}
    from sj_groups_{{ j }}
) as sj_counts_{{ j }}
    {%- endset -%}
    {%- set branches = [skewjoin._sj_prune_stack(rows, n, from_text)] -%}
    {%- if src.get('cached') -%}
        {#- the rows with a NULL key were counted when the key set was cached (by each writer alike) -#}
        {%- set stored_from -%}
(
    select coalesce(max(cast(sj_cache.sj_values[0] as bigint)), 0) as sj_stored_nulls
    from {{ src.cached.table }} as sj_cache
    where sj_cache.sj_run = {{ skewjoin._sj_quote_string(src.cached.run) }}
        and sj_cache.sj_key_set = '{{ src.key_set.id }}'
        and sj_cache.sj_kind = 'nulls'
) as sj_stored_{{ j }}
        {%- endset -%}
        {%- do branches.append(skewjoin._sj_prune_stack([["'stat'", "'stored_nulls_" ~ j ~ "'",
            [skewjoin._sj_prune_count_text('sj_stored_nulls')]]], n, stored_from)) -%}
    {%- endif -%}
    {{- return(branches) -}}
{%- endmacro %}


{#- Run the key query of one group. Returns {'sources': [{'distinct', 'nulls',
    'unfit'}], 'kept': n, 'tuples': [[text, ...]] (at most max_values + 1),
    'min': [text], 'max': [text], 'seconds': s}. Each source is read once:
    its rows grouped by key (sj_groups_<j>) feed its key set (sj_keys_<j>)
    and its counts; the sources' key sets intersect (sj_kept). -#}
{% macro _sj_prune_collect(spec, sources) -%}
    {%- set keys = sources[0]['keys'] -%}
    {%- set n = keys | length -%}
    {%- set ctes = [] -%}
    {%- set rows = [] -%}
    {%- for src in sources -%}
        {%- set j = loop.index0 -%}
        {%- set values = [] -%}
        {%- for k in src['keys'] -%}
            {%- do values.append(skewjoin._sj_prune_target_expr(k, 'sj_c' ~ loop.index0).value
                ~ ' as sj_k' ~ loop.index0) -%}
        {%- endfor -%}
        {%- do ctes.append(['sj_groups_' ~ j, skewjoin._sj_prune_groups_select(src)]) -%}
        {#- sj_rows > 0 always holds: it keeps the count in this reader's plan too (see above) -#}
        {%- do ctes.append(['sj_keys_' ~ j, 'select\n    ' ~ (values | join(',\n    ')) ~ '\nfrom sj_groups_' ~ j
            ~ '\nwhere sj_fit and sj_rows > 0']) -%}
        {%- do rows.extend(skewjoin._sj_prune_source_stat_rows(src, j, n)) -%}
    {%- endfor -%}
    {%- set kept_parts = [] -%}
    {%- for src in sources -%}{%- do kept_parts.append('select * from sj_keys_' ~ loop.index0) -%}{%- endfor -%}
    {%- do ctes.append(['sj_kept', kept_parts | join('\nintersect\n')]) -%}
    {%- set aggs = ['count(*) as sj_kept_keys'] -%}
    {%- set mins = [] -%}
    {%- set maxes = [] -%}
    {%- for k in keys -%}
        {%- do aggs.extend(['min(sj_k' ~ loop.index0 ~ ') as sj_min' ~ loop.index0,
                            'max(sj_k' ~ loop.index0 ~ ') as sj_max' ~ loop.index0]) -%}
        {%- do mins.append(skewjoin._sj_prune_text_expr('sj_min' ~ loop.index0, k.target)) -%}
        {%- do maxes.append(skewjoin._sj_prune_text_expr('sj_max' ~ loop.index0, k.target)) -%}
    {%- endfor -%}
    {%- set kept_from -%}
(
    select
        {{ aggs | join(',\n        ') }}
    from sj_kept
) as sj_kept_counts
    {%- endset -%}
    {%- do rows.append(skewjoin._sj_prune_stack([["'stat'", "'kept'", [skewjoin._sj_prune_count_text('sj_kept_keys')]],
        ["'min'", 'cast(null as string)', mins], ["'max'", 'cast(null as string)', maxes]], n, kept_from)) -%}
    {%- set texts = [] -%}
    {%- for k in keys -%}
        {%- do texts.append(skewjoin._sj_prune_text_expr('sj_k' ~ loop.index0, k.target) ~ ' as sj_v' ~ loop.index0) -%}
    {%- endfor -%}
    {%- set row -%}
select * from (
    select
        'key' as sj_kind,
        cast(null as string) as sj_name,
        {{ texts | join(',\n        ') }}
    from sj_kept
    limit {{ spec.max_values + 1 }}
) as sj_some_keys
    {%- endset -%}
    {%- do rows.append(row) -%}
    {%- set query = skewjoin._sj_with_ctes(ctes, rows | join('\nunion all\n')) -%}
    {#- a small relation named like one of these CTEs would be read as the CTE -#}
    {%- set inputs = [] -%}
    {%- for src in sources -%}
        {%- set arg = ('small[' ~ src.index ~ ']') if spec.macro != 'star_join' else ('dims (' ~ src.alias ~ ')') -%}
        {%- do inputs.extend([[arg ~ '.relation', src['from']], [arg ~ '.filter', src.filter]]) -%}
    {%- endfor -%}
    {%- do skewjoin._sj_check_cte_shadowing(spec.macro, query, inputs) -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set result = skewjoin._sj_run_query(query) -%}
    {%- set seconds = (modules.datetime.datetime.now() - started).total_seconds() -%}
    {%- set stats = {} -%}
    {%- set out = {'tuples': [], 'min': none, 'max': none, 'seconds': seconds} -%}
    {%- for row in result.rows -%}
        {%- set texts = [] -%}
        {%- for i in range(n) -%}
            {%- set v = row[2 + i] -%}
            {%- do texts.append(none if v is none else (v | string)[2:]) -%}
        {%- endfor -%}
        {%- if row[0] == 'stat' -%}
            {%- do stats.update({row[1]: texts[0] | int}) -%}
        {%- elif row[0] == 'key' -%}
            {%- do out.tuples.append(texts) -%}
        {%- elif none not in texts -%}
            {%- do out.update({row[0]: texts}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set per_source = [] -%}
    {%- for src in sources -%}
        {%- set j = loop.index0 -%}
        {%- set nulls = stats.get('nulls_' ~ j, 0) + stats.get('stored_nulls_' ~ j, 0) -%}
        {%- do per_source.append({'distinct': stats.get('distinct_' ~ j, 0), 'nulls': nulls,
                                  'unfit': stats.get('unfit_' ~ j, 0)}) -%}
    {%- endfor -%}
    {%- do out.update({'sources': per_source, 'kept': stats.get('kept', 0), 'tuples': out.tuples | sort | list}) -%}
    {{- return(out) -}}
{%- endmacro %}

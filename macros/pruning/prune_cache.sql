{#- The prune cache: pruning as a pre-hook. A key set is one small relation
    as a pruning request writes it (relation, alias, filter, key columns),
    independent of the big table. `prune_key_sets` (a model's pre_hook, or
    on-run-start) computes each key set once per run and keeps it in a small
    table, partitioned by (run, key set); `prune_predicate` and `star_join`
    with the cache on read it from there instead of scanning the small
    relation again. `skewjoin prune --cache-run` runs this macro through dbt.

    Table (var skewjoin_prune_cache_table, default <target schema>.skewjoin_prune_cache):
      sj_kind string      'key' (a distinct NULL-free key tuple), 'nulls' (the
                          count of rows with a NULL key) or 'done' (written last
                          in the same statement: the key set is complete)
      sj_values array<string>   the key tuple as text, in the key set's column
                          order; the count; or the key set's canonical text
      sj_created timestamp, sj_run string, sj_key_set string, sj_writer string
                          (partitions; a writer is one hook call or helper run)
    A run is var skewjoin_prune_cache_run, default the dbt invocation_id.
-#}

{% macro _sj_prune_cache_table(macro_name) -%}
    {%- set name = var('skewjoin_prune_cache_table', none) -%}
    {%- if name is none -%}
        {{- return(target.schema ~ '.skewjoin_prune_cache') -}}
    {%- endif -%}
    {%- if not (name is string and modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*\\.[A-Za-z_][A-Za-z0-9_]*', name)) -%}
        {%- do skewjoin._sj_raise(macro_name, 'var skewjoin_prune_cache_table',
            'expected a table name schema.table; got ' ~ (name | string)[:200], "'analytics.skewjoin_prune_cache'") -%}
    {%- endif -%}
    {{- return(name) -}}
{%- endmacro %}


{% macro _sj_prune_cache_run(macro_name) -%}
    {%- set run = var('skewjoin_prune_cache_run', none) -%}
    {%- if run is none -%}
        {{- return(invocation_id | string) -}}
    {%- endif -%}
    {%- if not modules.re.fullmatch('[A-Za-z0-9_.:-]{1,128}', run | string) -%}
        {%- set problem -%}
expected a run name of 1 to 128 letters, digits, '_', '.', ':' or '-' (the one `skewjoin prune --cache-run` wrote);
got {{ (run | string)[:200] }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, 'var skewjoin_prune_cache_run', problem, "'nightly-2026-11-25'") -%}
    {%- endif -%}
    {{- return(run | string) -}}
{%- endmacro %}


{#- Whether the cache is on: the argument, else var skewjoin_prune_cache (false). -#}
{% macro _sj_prune_cache_on(macro_name, value) -%}
    {%- set argument = 'cache' if value is not none else 'var skewjoin_prune_cache' -%}
    {%- set value = value if value is not none else var('skewjoin_prune_cache', false) -%}
    {%- if value is sameas true or (value | string | lower) == 'true' -%}
        {{- return(true) -}}
    {%- elif value is sameas false or (value | string | lower) == 'false' -%}
        {{- return(false) -}}
    {%- endif -%}
    {%- do skewjoin._sj_raise(macro_name, argument, 'expected true or false; got ' ~ (value | string)[:200], 'true') -%}
{%- endmacro %}


{#- The key set of a small relation: {'id', 'text', 'columns': [{'name', 'type'}],
    'from', 'alias', 'filter'}. `columns` are its key columns (deduplicated,
    ordered by lowercased name) with their types. -#}
{% macro _sj_prune_key_set(from_text, alias, filter, columns) -%}
    {%- set seen = {} -%}
    {%- for c in columns if (c.name | lower) not in seen -%}
        {%- do seen.update({c.name | lower: {'name': c.name, 'type': skewjoin._sj_normalize_type(c.type)}}) -%}
    {%- endfor -%}
    {%- set ordered = [] -%}
    {%- for name in seen.keys() | sort -%}{%- do ordered.append(seen[name]) -%}{%- endfor -%}
    {%- set relation = from_text if from_text.startswith('(') else (from_text | lower | replace('`', '')) -%}
    {%- set described = [] -%}
    {%- for c in ordered -%}{%- do described.append(c.name ~ ' ' ~ c.type) -%}{%- endfor -%}
    {%- set text = ['skewjoin prune key set 1', 'relation: ' ~ relation, 'alias: ' ~ alias,
                    'filter: ' ~ (filter if filter is not none else ''), 'keys: ' ~ (described | join(', '))]
        | join('\n') -%}
    {{- return({'id': local_md5(text), 'text': text, 'columns': ordered, 'from': from_text, 'alias': alias,
                'filter': filter}) -}}
{%- endmacro %}


{#- The key set of a resolved pruning source. -#}
{% macro _sj_prune_source_key_set(src) -%}
    {%- set columns = [] -%}
    {%- for k in src['keys'] -%}{%- do columns.append({'name': k.small, 'type': k.small_type}) -%}{%- endfor -%}
    {{- return(skewjoin._sj_prune_key_set(src['from'], src.alias, src.filter, columns)) -}}
{%- endmacro %}


{#- The line a pruning record carries for a key set, which the pre_hook form
    of prune_key_sets reads back from the compiled SQL: JSON with every `/`
    and `$` escaped, so it stays one comment line that Spark leaves alone. -#}
{% macro _sj_prune_key_set_marker(ks) -%}
    {%- set columns = [] -%}
    {%- for c in ks.columns -%}{%- do columns.append([c.name, c.type]) -%}{%- endfor -%}
    {%- set doc = tojson({'relation': ks['from'], 'alias': ks.alias, 'filter': ks.filter, 'keys': columns}) -%}
    {{- return('key set ' ~ ks.id ~ ': ' ~ doc.replace('/', '\\u002f').replace('$', '\\u0024')) -}}
{%- endmacro %}


{#- The key sets named by the markers in compiled SQL. -#}
{% macro _sj_prune_key_sets_in(code) -%}
    {%- set found = [] -%}
    {%- set ids = [] -%}
    {%- for m in modules.re.finditer('key set ([0-9a-f]{32}): (\\{[^\\n]*\\})', code or '') -%}
        {%- set doc = fromjson(m.group(2)) -%}
        {%- set columns = [] -%}
        {%- for c in doc['keys'] -%}{%- do columns.append({'name': c[0], 'type': c[1]}) -%}{%- endfor -%}
        {%- set ks = skewjoin._sj_prune_key_set(doc['relation'], doc['alias'], doc['filter'], columns) -%}
        {%- if ks.id == m.group(1) and ks.id not in ids -%}
            {%- do ids.append(ks.id) -%}
            {%- do found.append(ks) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(found) -}}
{%- endmacro %}


{#- Text of a value that reads back as the same value of `data_type` with
    cast(text as data_type): timestamps carry their UTC offset. -#}
{% macro _sj_prune_value_text(expr, data_type) -%}
    {%- if skewjoin._sj_type_kind(data_type) == 'timestamp' -%}
        {{- return("date_format(" ~ expr ~ ", 'yyyy-MM-dd HH:mm:ss.SSSSSSxxxxx')") -}}
    {%- endif -%}
    {{- return('cast(' ~ expr ~ ' as string)') -}}
{%- endmacro %}


{% macro _sj_prune_cache_create_sql(table) -%}
    {%- set sql -%}
create table if not exists {{ table }} (
    sj_kind string,
    sj_values array<string>,
    sj_created timestamp,
    sj_run string,
    sj_key_set string,
    sj_writer string
)
using parquet
partitioned by (sj_run, sj_key_set, sj_writer)
options (partitionOverwriteMode 'dynamic')
    {%- endset -%}
    {{- return(sql) -}}
{%- endmacro %}


{#- The rows of one key set: its keys, its NULL count and the 'done' row.
    The keys and the NULL count read the same rows grouped by key, written
    twice as one plan (both read the count and the NULL flag, and filter on
    those rather than on the keys, which Spark would push below the
    grouping): Spark reuses its shuffle, so the relation is scanned once. -#}
{% macro _sj_prune_cache_rows_sql(run, ks, writer) -%}
    {%- set refs = [] -%}
    {%- set named = [] -%}
    {%- set texts = [] -%}
    {%- set not_null = [] -%}
    {%- for c in ks.columns -%}
        {%- do refs.append(ks.alias ~ '.' ~ skewjoin._sj_ident(c.name)) -%}
        {%- do named.append(refs[-1] ~ ' as sj_k' ~ loop.index0) -%}
        {%- do texts.append(skewjoin._sj_prune_value_text('sj_k' ~ loop.index0, c.type)) -%}
        {%- do not_null.append(refs[-1] ~ ' is not null') -%}
    {%- endfor -%}
    {%- set tail = ', current_timestamp(), ' ~ skewjoin._sj_quote_string(run) ~ ", '" ~ ks.id ~ "', '" ~ writer
        ~ "'" -%}
    {%- set grouped -%}
(
    select {{ named | join(', ') }}, count(*) as sj_rows, max({{ not_null | join(' and ') }}) as sj_fit
    from {{ ks['from'] }} as {{ ks.alias }}
    {%- if ks.filter is not none %}
    where ({{ ks.filter }})
    {%- endif %}
    group by {{ refs | join(', ') }}
) as sj_keys
    {%- endset -%}
    {%- set sql -%}
select 'key', array({{ texts | join(', ') }}){{ tail }}
from {{ grouped }}
where sj_fit and sj_rows > 0
union all
select 'nulls', array(cast(coalesce(sum(if(sj_fit, 0, sj_rows)), 0) as string)){{ tail }}
from {{ grouped }}
union all
select 'done', array({{ skewjoin._sj_quote_string(ks.text) }}){{ tail }}
    {%- endset -%}
    {{- return(sql) -}}
{%- endmacro %}


{#- One statement writing the rows of every key set given: the 'done' row of
    each lands in the same commit as its keys. Each write has a partition of
    its own (`writer`, unique to this hook call), so no write replaces files
    a query may be reading: two models that compute the same key set at once
    each add the same rows (readers take distinct keys, and the NULL count
    of any one write). Dynamic partition overwrite stages each write apart. -#}
{% macro _sj_prune_cache_fill_sql(table, run, key_sets, writer) -%}
    {%- set parts = [] -%}
    {%- for ks in key_sets -%}
        {%- do parts.append(skewjoin._sj_prune_cache_rows_sql(run, ks, writer)) -%}
    {%- endfor -%}
    {{- return('insert overwrite table ' ~ table ~ ' partition (sj_run, sj_key_set, sj_writer)\n'
        ~ (parts | join('\nunion all\n'))) -}}
{%- endmacro %}


{#- Whether the cache table exists (a SHOW TABLES, not dbt's relation cache:
    the table is made by a hook, outside what dbt tracks). -#}
{% macro _sj_prune_cache_exists(table) -%}
    {%- set parts = table.split('.') -%}
    {{- return(skewjoin._sj_table_listed(parts[0], parts[1])) -}}
{%- endmacro %}


{#- The ids among `ids` whose key set is complete in the cache for `run`. -#}
{% macro _sj_prune_cache_present(table, run, ids, exists=none) -%}
    {%- if not ids or not (exists if exists is not none else skewjoin._sj_prune_cache_exists(table)) -%}
        {{- return([]) -}}
    {%- endif -%}
    {%- set query -%}
select distinct sj_key_set
from {{ table }}
where sj_run = {{ skewjoin._sj_quote_string(run) }}
    and sj_key_set in ('{{ ids | join("', '") }}')
    and sj_kind = 'done'
    {%- endset -%}
    {%- set present = [] -%}
    {%- for row in skewjoin._sj_run_query(query).rows -%}{%- do present.append(row[0] | string) -%}{%- endfor -%}
    {{- return(present) -}}
{%- endmacro %}


{#- A resolved pruning source that reads its key set from the cache: its
    relation becomes the cached keys, typed back, under the same alias and
    column names, with no filter (the cached keys are already filtered).
    With `guard` (a key set read when the query runs, not while rendering):
    when the key set is not complete in the cache as the query runs, the
    second branch (over a count, which has its one row even when the cache
    has none; the error is raised above the filter on it) stops the query
    with the way out: an absent key set must not read as an empty set that
    drops every row. -#}
{% macro _sj_prune_cached_source(spec, src, guard) -%}
    {%- set ks = src.key_set -%}
    {%- set table = spec.cache_table -%}
    {%- set where = 'where sj_cache.sj_run = ' ~ skewjoin._sj_quote_string(spec.cache_run)
        ~ " and sj_cache.sj_key_set = '" ~ ks.id ~ "'" -%}
    {%- set message -%}
skewjoin.{{ spec.macro }} in model {{ skewjoin._sj_model_ref() }}: the key set {{ ks.id[:12] }} of
small[{{ src.index }}] {{ src.label }} is not in the prune cache {{ table }} for run {{ spec.cache_run }}.
Compute it before the query runs: pre_hook="{{ '{{' }} skewjoin.prune_key_sets() {{ '}}' }}" in the model's config,
or on-run-start (for a relation the run does not build)
    {%- endset -%}
    {%- set error = 'raise_error(' ~ skewjoin._sj_quote_string(message | replace('\n', ' ')) ~ ')' -%}
    {%- set columns = [] -%}
    {%- set raised = [] -%}
    {%- for c in ks.columns -%}
        {%- set name = skewjoin._sj_ident(c.name) -%}
        {%- do columns.append('cast(sj_cache.sj_values[' ~ loop.index0 ~ '] as ' ~ c.type ~ ') as ' ~ name) -%}
        {%- do raised.append('cast(' ~ error ~ ' as ' ~ c.type ~ ') as ' ~ name) -%}
    {%- endfor -%}
    {%- set from_text -%}
(
    select {{ columns | join(', ') }}
    from {{ table }} as sj_cache
    {{ where }}
        and sj_cache.sj_kind = 'key'
    {%- if guard %}
    union all
    select {{ raised | join(', ') }}
    from (
        select count(*) as sj_done
        from {{ table }} as sj_cache
        {{ where }}
            and sj_cache.sj_kind = 'done'
    ) as sj_check
    where sj_check.sj_done = 0
    {%- endif %}
)
    {%- endset -%}
    {%- set cached = {} -%}
    {%- do cached.update(src) -%}
    {%- do cached.update({'from': from_text, 'filter': none, 'described': src,
                          'cached': {'table': table, 'run': spec.cache_run}}) -%}
    {{- return(cached) -}}
{%- endmacro %}

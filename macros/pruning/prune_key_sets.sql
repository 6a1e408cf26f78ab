{#- prune_key_sets: pruning as a pre-hook. Computes each pruning key set once
    per run into the prune cache, where prune_predicate and star_join (with
    the cache on: var skewjoin_prune_cache: true, or cache=true) read it.

    Usage:
      - a model's pre_hook, no argument: the key sets its compiled SQL names
        (the pruning records list them), computed before its query runs:
            {{ config(pre_hook="{{ skewjoin.prune_key_sets() }}") }}
      - on-run-start, before any model is compiled, so that every model
        renders literal predicates from the cache:
            on-run-start: ["{{ skewjoin.prune_key_sets() }}"]
        with the key sets listed in var skewjoin_prune_key_sets (or as the
        argument): [{'relation': 'analytics.dates', 'filter': 'year = 2026',
        'on': ['date_key']}], each a small relation as prune_predicate takes it
        (in YAML write `keys:` for `on:`, which YAML reads as true). A key
        set of a relation the run itself builds is left to the pre_hook of a
        model that reads it (it would read the last run's rows here).
    Runs only in dbt run, build, retry and run-operation (on-run-start also
    fires in compile and docs generate, which need no key set); with var
    skewjoin_run_queries false it does nothing. It creates the cache table
    when missing; in on-run-start even with no key set, so that the
    pre_hooks of models running at once on a first run do not race to
    create it. A key set already complete
    in the cache for this run is not computed again. Runs of the cache older
    than var skewjoin_prune_cache_keep_hours (24) are dropped. Returns no SQL:
    the work is done by its queries, and its decision record is logged.
-#}

{% macro prune_key_sets(key_sets=none) -%}
    {%- do skewjoin._sj_check_call('prune_key_sets', ['key_sets'], kwargs, varargs) -%}
    {{- return(adapter.dispatch('prune_key_sets', 'skewjoin')(key_sets)) -}}
{%- endmacro %}


{% macro default__prune_key_sets(key_sets) -%}
    {%- do skewjoin._sj_spark_only('prune_key_sets', 'writes a Spark table of key sets') -%}
{%- endmacro %}


{#- One entry of key_sets (or of var skewjoin_prune_key_sets), resolved to a key set. -#}
{% macro _sj_prune_key_set_entry(entry, index, argument) -%}
    {%- set arg = argument ~ '[' ~ index ~ ']' -%}
    {%- set example = "{'relation': 'analytics.dates', 'filter': 'year = 2026', 'on': ['date_key']}" -%}
    {%- if entry is not mapping -%}
        {%- do skewjoin._sj_raise('prune_key_sets', arg,
            'each key set is a mapping with relation, on and optionally filter, alias; got '
            ~ (entry | string)[:200], example) -%}
    {%- endif -%}
    {%- if true in entry.keys() -%}
        {%- set problem -%}
a key of this key set reads as true: YAML reads a bare `on:` as the boolean true; in YAML write the key columns
under `keys:` (or quote it: 'on':)
        {%- endset -%}
        {%- do skewjoin._sj_raise('prune_key_sets', arg, problem,
            "{relation: analytics.dates, filter: 'year = 2026', keys: [date_key]}") -%}
    {%- endif -%}
    {%- if 'relation' not in entry or ('on' in entry) == ('keys' in entry) -%}
        {%- do skewjoin._sj_raise('prune_key_sets', arg,
            'relation and one of on or keys (the key columns) are required; got keys '
            ~ (entry.keys() | list | join(', ')), example) -%}
    {%- endif -%}
    {%- set on_key = 'on' if 'on' in entry else 'keys' -%}
    {%- set on_argument = arg ~ '.' ~ on_key -%}
    {#- the checks of a small relation of prune_predicate; a join type means nothing to a key set -#}
    {%- set small = {} -%}
    {%- for k, v in entry.items() if k != 'join_type' -%}{%- do small.update({k: v}) -%}{%- endfor -%}
    {%- set src = skewjoin._sj_prune_small_spec('prune_key_sets', small, index, none, 'inner', none, argument,
        on_key) -%}
    {%- set from_text = src['from'] -%}
    {%- set pairs = src.pairs -%}
    {%- set alias = src.alias -%}
    {%- set described = skewjoin._sj_columns(from_text) -%}
    {%- set columns = [] -%}
    {%- for pair in pairs -%}
        {%- set c = skewjoin._sj_find_column(described, pair[1]) -%}
        {%- if c is none -%}
            {%- set problem -%}
column '{{ pair[1] }}' is not a column of {{ from_text }}{{ skewjoin._sj_did_you_mean(pair[1],
described | map(attribute='name') | list) }}; its columns are: {{ described | map(attribute='name') | join(', ') }}
            {%- endset -%}
            {%- do skewjoin._sj_raise('prune_key_sets', on_argument, problem, "['date_key']") -%}
        {%- endif -%}
        {%- do columns.append(c) -%}
    {%- endfor -%}
    {{- return(skewjoin._sj_prune_key_set(from_text, alias, src.filter, columns)) -}}
{%- endmacro %}


{#- The key sets to compute: the argument, else the markers of the model's
    compiled SQL (pre_hook), else var skewjoin_prune_key_sets (on-run-start). -#}
{% macro _sj_prune_key_sets_wanted(key_sets) -%}
    {%- set argument = 'key_sets' -%}
    {%- if key_sets is none and model is defined and model is not none and model.get('compiled_code') -%}
        {{- return({'from': 'the compiled SQL of model ' ~ model.name,
                    'key_sets': skewjoin._sj_prune_key_sets_in(model.compiled_code)}) -}}
    {%- endif -%}
    {%- if key_sets is none -%}
        {%- set key_sets = var('skewjoin_prune_key_sets', []) -%}
        {%- set argument = 'var skewjoin_prune_key_sets' -%}
    {%- endif -%}
    {%- if key_sets is string or key_sets is mapping or key_sets is not iterable -%}
        {%- do skewjoin._sj_raise('prune_key_sets', argument,
            'expected a list of key sets; got ' ~ (key_sets | string)[:200],
            "[{'relation': 'analytics.dates', 'filter': 'year = 2026', 'on': ['date_key']}]") -%}
    {%- endif -%}
    {%- set found = [] -%}
    {%- set ids = [] -%}
    {%- set deferred = [] -%}
    {%- for entry in key_sets -%}
        {%- set built = skewjoin._sj_prune_built_by_this_run(entry.get('relation') if entry is mapping else none) -%}
        {%- if built is not none -%}
            {%- do deferred.append({'relation': entry.relation | string, 'node': built}) -%}
            {%- continue -%}
        {%- endif -%}
        {%- set ks = skewjoin._sj_prune_key_set_entry(entry, loop.index0, argument) -%}
        {%- if ks.id not in ids -%}
            {%- do ids.append(ks.id) -%}
            {%- do found.append(ks) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return({'from': argument, 'key_sets': found, 'deferred': deferred}) -}}
{%- endmacro %}


{#- The name of the model, seed or snapshot this run builds (selected) whose relation is `relation` (a
    relation or a table name), or none: outside a model (on-run-start, run-operation) a key set of it
    would read the rows before this run rebuilds them, and a model's pre_hook would then find it in the
    cache for this run. -#}
{% macro _sj_prune_built_by_this_run(relation) -%}
    {%- if relation is none or graph is not defined or selected_resources is not defined
           or (model is defined and model is not none and model.get('compiled_code')) -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set text = relation | string | lower | replace('`', '') | trim -%}
    {%- set query = skewjoin._sj_is_query_text(text) -%}
    {%- set parts = text.split('.') -%}
    {%- if not query and not modules.re.fullmatch('[\\w.]+', text) -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- for node in graph.nodes.values() if node.resource_type in ('model', 'seed', 'snapshot')
            and node.unique_id in selected_resources and node.config.get('materialized') != 'ephemeral' -%}
        {%- set name = (node.alias or node.name) | lower -%}
        {%- set schema = node.schema | lower -%}
        {#- a query that reads it (schema.name anywhere outside a longer name), or its name (a bare name is in
            the target's schema) -#}
        {%- if (query and modules.re.search('(?<![\\w.])' ~ modules.re.escape(schema ~ '.' ~ name) ~ '(?!\\w)', text))
               or (not query and parts[-1] == name
                   and (parts[-2] if parts | length > 1 else target.schema | lower) == schema) -%}
            {{- return(node.name) -}}
        {%- endif -%}
    {%- endfor -%}
    {{- return(none) -}}
{%- endmacro %}


{#- Drop the runs of the cache older than the kept hours (not this run). -#}
{% macro _sj_prune_cache_expire(table, run) -%}
    {%- set hours = skewjoin._sj_whole_number('prune_key_sets', 'var skewjoin_prune_cache_keep_hours',
        var('skewjoin_prune_cache_keep_hours', 24), 0, '24') -%}
    {%- set query -%}
select sj_run
from {{ table }}
where sj_run <> {{ skewjoin._sj_quote_string(run) }}
group by sj_run
having max(sj_created) < current_timestamp() - make_interval(0, 0, 0, 0, {{ hours }})
    {%- endset -%}
    {%- set dropped = [] -%}
    {%- for row in run_query(query).rows -%}
        {%- do run_query('alter table ' ~ table ~ ' drop if exists partition (sj_run = '
            ~ skewjoin._sj_quote_string(row[0] | string) ~ ')') -%}
        {%- do dropped.append(row[0] | string) -%}
    {%- endfor -%}
    {{- return(dropped) -}}
{%- endmacro %}


{#- Make the cache ready for `wanted` and read what it holds: create the
    table when missing (by on-run-start, or the first hook: models whose
    pre_hooks run at once on a first run would otherwise race to create it,
    and Spark refuses the second CREATE), drop the expired runs, and list the
    wanted key sets already complete for this run. Returns {'created',
    'dropped', 'present'}. -#}
{% macro _sj_prune_key_sets_prepare(table, run, wanted) -%}
    {%- set in_model = wanted['from'].startswith('the compiled SQL') -%}
    {%- set out = {'created': false, 'dropped': [], 'present': []} -%}
    {%- if (wanted.key_sets or not in_model) and not skewjoin._sj_prune_cache_exists(table) -%}
        {%- do run_query('create schema if not exists ' ~ table.split('.')[0]) -%}
        {%- do run_query(skewjoin._sj_prune_cache_create_sql(table)) -%}
        {%- do out.update({'created': true}) -%}
    {%- endif -%}
    {%- if wanted.key_sets -%}
        {%- do out.update({'dropped': skewjoin._sj_prune_cache_expire(table, run)}) -%}
        {#- the table exists by now: no second SHOW TABLES -#}
        {%- do out.update({'present': skewjoin._sj_prune_cache_present(table, run,
            wanted.key_sets | map(attribute='id') | list, exists=true)}) -%}
    {%- endif -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The record of a prune_key_sets call, from what it planned and did:
    {'table', 'run', 'skipped': none, 'off' or the dbt command that runs no
    model, 'from', 'key_sets', 'created', 'dropped', 'present', 'missing',
    'seconds'}. -#}
{% macro _sj_prune_key_sets_record(work) -%}
    {%- if work.skipped == 'off' -%}
        {{- return(['nothing computed: compile-time queries are off ' ~ skewjoin._sj_queries_off_reason()]) -}}
    {%- elif work.skipped is not none -%}
        {{- return(['nothing computed: dbt ' ~ work.skipped ~ ' runs no model, so no key set is needed']) -}}
    {%- endif -%}
    {%- set lines = ['cache ' ~ work.table ~ ', run ' ~ work.run ~ '; key sets from ' ~ work['from'] ~ ': '
        ~ work.key_sets | length] -%}
    {%- if work.created -%}{%- do lines.append('created the cache table') -%}{%- endif -%}
    {%- if work.dropped -%}
        {%- do lines.append('dropped ' ~ work.dropped | length ~ ' earlier run(s) older than '
            ~ var('skewjoin_prune_cache_keep_hours', 24) ~ ' h') -%}
    {%- endif -%}
    {%- for d in work.get('deferred', []) -%}
        {%- do lines.append('key sets of ' ~ d.relation ~ ': not computed here, this run builds it (' ~ d.node
            ~ '); the pre_hook of a model that reads it computes them once it is built') -%}
    {%- endfor -%}
    {%- for ks in work.key_sets -%}
        {%- set shown = ks['from'] if not ks['from'].startswith('(') else 'a query' -%}
        {%- set what = 'key set ' ~ ks.id[:12] ~ ' (' ~ shown ~ (' where ' ~ ks.filter if ks.filter is not none
            else '') ~ ' on ' ~ (ks.columns | map(attribute='name') | join(', ')) ~ ')' -%}
        {%- do lines.append(what ~ (': already in the cache for this run' if ks.id in work.present
            else ': computed')) -%}
    {%- endfor -%}
    {%- if work.missing -%}
        {%- do lines.append(work.missing | length ~ ' key set(s) computed in one statement, '
            ~ ('%.2f' | format(work.seconds)) ~ ' s') -%}
    {%- endif -%}
    {{- return(lines) -}}
{%- endmacro %}


{% macro spark__prune_key_sets(key_sets) -%}
    {%- if not execute -%}
        {{- return('') -}}
    {%- endif -%}
    {%- set which = flags.WHICH | string -%}
    {%- set where = ('model ' ~ model.name) if model is defined and model is not none and model.get('name')
        else 'hook' -%}
    {%- set work = {'table': skewjoin._sj_prune_cache_table('prune_key_sets'),
                    'run': skewjoin._sj_prune_cache_run('prune_key_sets'), 'skipped': none} -%}
    {%- if not skewjoin._sj_queries_allowed() -%}
        {%- do work.update({'skipped': 'off'}) -%}
    {%- elif which not in ('run', 'build', 'retry', 'run-operation') -%}
        {%- do work.update({'skipped': which}) -%}
    {%- else -%}
        {#- resolve: the key sets wanted, their columns described -#}
        {%- do work.update(skewjoin._sj_prune_key_sets_wanted(key_sets)) -%}
        {#- measure: the cache made ready (created, expired runs dropped) and the key sets it holds -#}
        {%- do work.update(skewjoin._sj_prune_key_sets_prepare(work.table, work.run, work)) -%}
        {#- plan: compute the key sets the cache does not hold for this run -#}
        {%- do work.update({'missing': work.key_sets | rejectattr('id', 'in', work.present) | list}) -%}
        {#- write: one statement, under a writer id unique to this call -#}
        {%- if work.missing -%}
            {%- set started = modules.datetime.datetime.now() -%}
            {%- set writer = local_md5(invocation_id ~ '|' ~ where ~ '|' ~ started.isoformat())[:16] -%}
            {%- do run_query(skewjoin._sj_prune_cache_fill_sql(work.table, work.run, work.missing, writer)) -%}
            {%- do work.update({'seconds': (modules.datetime.datetime.now() - started).total_seconds()}) -%}
        {%- endif -%}
    {%- endif -%}
    {#- render: the record, from what was planned and done -#}
    {%- do log('skewjoin.prune_key_sets decision record (' ~ where ~ '): '
        ~ (skewjoin._sj_prune_key_sets_record(work) | join(' | ')), info=true) -%}
    {{- return('') -}}
{%- endmacro %}

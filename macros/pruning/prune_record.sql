{#- The decision record of a pruning plan (`_sj_prune_plan`), rendered from
    the plan alone: the big table, the prune cache, each group's sources and
    the predicate chosen for it, the partitions kept and the queries' time. -#}

{% macro _sj_prune_record(plan) -%}
    {%- set spec = plan.spec -%}
    {%- set lines = [skewjoin._sj_prune_big_line(spec)] -%}
    {%- if not plan.allowed -%}
        {%- set line -%}
no predicate (true): compile-time queries are off {{ skewjoin._sj_queries_off_reason() }}, so no key of the small relations
was collected and nothing is pruned
        {%- endset -%}
        {%- do lines.append(line | replace('\n', ' ')) -%}
        {{- return(lines) -}}
    {%- endif -%}
    {%- if plan.cache is not none -%}
        {%- set cache = plan.cache -%}
        {%- do lines.append('prune cache ' ~ cache.table ~ ', run ' ~ cache.run ~ ': ' ~ cache.present | length ~ ' of '
            ~ cache.key_sets | length ~ ' key set(s) complete') -%}
        {%- for ks in cache.key_sets -%}{%- do lines.append(skewjoin._sj_prune_key_set_marker(ks)) -%}{%- endfor -%}
    {%- endif -%}
    {%- for g in plan.groups -%}
        {%- if g.choice == 'deferred' -%}
            {%- do lines.extend(skewjoin._sj_prune_deferred_lines(spec, g)) -%}
        {%- else -%}
            {%- do lines.extend(skewjoin._sj_prune_source_lines(spec, g.sources, g.collected)) -%}
            {%- do lines.append(skewjoin._sj_prune_choice_line(spec, g)) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if plan.partitions is not none -%}
        {%- do lines.append(skewjoin._sj_prune_partition_line(spec, plan.partitions)) -%}
    {%- endif -%}
    {%- do lines.append('key queries: ' ~ ('%.2f' | format(plan.seconds)) ~ ' s') -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- A source as the record names it: label, join and filter. -#}
{% macro _sj_prune_describe_source(src, spec) -%}
    {%- set src = src.get('described') or src -%}
    {%- set on = [] -%}
    {%- for k in src['keys'] -%}
        {%- do on.append((spec.alias ~ '.' if spec.alias else '') ~ k.big ~ ' = ' ~ k.small) -%}
    {%- endfor -%}
    {%- set filter_text = (', filter: ' ~ src.filter) if src.filter is not none else ', no filter' -%}
    {{- return(src.label ~ ' (' ~ src.join_type ~ ' join on ' ~ (on | join(' and ')) ~ filter_text ~ ')') -}}
{%- endmacro %}


{#- The record line about the big table. -#}
{% macro _sj_prune_big_line(spec) -%}
    {%- set pcols = spec.partition_columns -%}
    {%- set named = spec.big ~ (' as ' ~ spec.alias if spec.alias else '') -%}
    {%- if not spec.big_is_table -%}
        {{- return('big: a query (' ~ (spec.alias or 'no alias')
            ~ '); partition metadata not read, the predicate reaches the scan through it') -}}
    {%- elif pcols is none -%}
        {{- return('big: ' ~ named ~ '; partition metadata not read') -}}
    {%- elif pcols -%}
        {{- return('big: ' ~ named ~ ', partitioned by ' ~ (pcols | join(', '))) -}}
    {%- endif -%}
    {{- return('big: ' ~ named ~ ', not partitioned (no partition columns in DESCRIBE TABLE)') -}}
{%- endmacro %}


{#- The big columns of a group as the predicate shows them: `f.a` or `(f.a, f.b)`. -#}
{% macro _sj_prune_shown(keys, parenthesized=true) -%}
    {%- set shown = keys | map(attribute='big_expr') | join(', ') -%}
    {{- return('(' ~ shown ~ ')' if parenthesized and keys | length > 1 else shown) -}}
{%- endmacro %}


{#- The record lines of a group whose key sets are read when the query runs. -#}
{% macro _sj_prune_deferred_lines(spec, g) -%}
    {%- set lines = [] -%}
    {%- set ids = [] -%}
    {%- for src in g.sources -%}
        {%- do ids.append(src.key_set.id[:12]) -%}
        {%- do lines.append('small[' ~ src.index ~ '] ' ~ skewjoin._sj_prune_describe_source(src, spec)
            ~ ': key set ' ~ src.key_set.id[:12] ~ ' is not in the prune cache for this run yet') -%}
    {%- endfor -%}
    {%- set line -%}
{{ skewjoin._sj_prune_shown(g['keys']) }}: a semi join against the cached key set(s) {{ ids | join(', ') }}, read
when the query runs (the pre_hook {{ '{{' }} skewjoin.prune_key_sets() {{ '}}' }} computes them before it; the query
stops with an error if they are missing then); no key is collected while rendering
    {%- endset -%}
    {%- do lines.append(line | replace('\n', ' ')) -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- The record lines about each source of a group and their intersection. -#}
{% macro _sj_prune_source_lines(spec, sources, collected) -%}
    {%- set lines = [] -%}
    {%- for src in sources -%}
        {%- set c = collected.sources[loop.index0] -%}
        {%- set notes = [] -%}
        {%- if c.nulls > 0 -%}
            {%- do notes.append(c.nulls ~ ' row(s) with a NULL key dropped (NULL never matches)') -%}
        {%- endif -%}
        {%- if c.unfit > 0 -%}
            {%- do notes.append(c.unfit ~ ' value(s) the big column cannot hold dropped (they never match)') -%}
        {%- endif -%}
        {%- set origin = (' (key set ' ~ src.key_set.id[:12] ~ ', read from the prune cache)')
            if src.get('cached') else '' -%}
        {%- do lines.append('small[' ~ src.index ~ '] ' ~ skewjoin._sj_prune_describe_source(src, spec) ~ ': '
            ~ c.distinct ~ ' distinct key(s)' ~ origin ~ ('; ' ~ (notes | join('; ')) if notes else '')) -%}
    {%- endfor -%}
    {%- if sources | length > 1 -%}
        {%- set idx = [] -%}
        {%- for src in sources -%}{%- do idx.append('small[' ~ src.index ~ ']') -%}{%- endfor -%}
        {%- do lines.append('intersection of ' ~ (idx | join(', ')) ~ ' (same big column'
            ~ ('s' if sources[0]['keys'] | length > 1 else '') ~ '): ' ~ collected.kept ~ ' key(s)') -%}
    {%- endif -%}
    {%- for k in sources[0]['keys'] if k.signed_zero -%}
        {%- do lines.append('big column ' ~ k.big ~ ' (' ~ k.big_type ~ '): the predicate compares ' ~ k.big_expr
            ~ ', which reads -0.0 as 0.0 as the join does (a filter on the bare column, pushed to Parquet, skips'
            ~ ' files of -0.0)') -%}
    {%- endfor -%}
    {%- for k in sources[0]['keys'] if not k.pushable and not k.signed_zero -%}
        {%- set line -%}
big column {{ k.big }} ({{ k.big_type }}) is compared as {{ k.common }} by the join, which is not one-to-one: the
predicate compares {{ k.big_expr }} (exact, but Spark cannot push it to the scan)
        {%- endset -%}
        {%- do lines.append(line | replace('\n', ' ')) -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- The record line of the predicate chosen for a group (not deferred). -#}
{% macro _sj_prune_choice_line(spec, g) -%}
    {%- set keys = g['keys'] -%}
    {%- set kept = g.collected.kept -%}
    {%- set shown = skewjoin._sj_prune_shown(keys, false) -%}
    {%- if g.choice == 'empty' -%}
        {{- return(shown ~ ': the key set is empty, so no row of the big table can match: predicate false'
            ~ ' (reads nothing)') -}}
    {%- elif g.choice == 'in_list' and keys | length == 1 -%}
        {{- return(shown ~ ': IN list of ' ~ kept ~ ' values (<= max_values ' ~ spec.max_values ~ ')') -}}
    {%- elif g.choice == 'in_list' -%}
        {%- set line -%}
({{ shown }}): IN list of {{ kept }} tuples (<= max_values {{ spec.max_values }}): one IN list per column
({{ g.n_values | join(', ') }} values; these reach the scan) and the exact tuple check
        {%- endset -%}
        {{- return(line | replace('\n', ' ')) -}}
    {%- endif -%}
    {%- set above = skewjoin._sj_prune_shown(keys) ~ ': ' ~ kept ~ ' ' ~ ('values' if keys | length == 1 else 'tuples')
        ~ ', above max_values ' ~ spec.max_values ~ ': fallback ' ~ spec.fallback -%}
    {%- if g.choice == 'range' -%}
        {%- set ranges = [] -%}
        {%- for k in keys -%}
            {%- do ranges.append(k.big ~ ' from ' ~ g.collected['min'][loop.index0] ~ ' to '
                ~ g.collected['max'][loop.index0]) -%}
        {%- endfor -%}
        {{- return(above ~ ' (between the min and max key: ' ~ (ranges | join('; ')) ~ ')') -}}
    {%- elif g.choice == 'semi_join' -%}
        {{- return(above ~ ' (a semi join against the small relations\' keys, left to Spark)') -}}
    {%- endif -%}
    {{- return(above ~ ' (no predicate)') -}}
{%- endmacro %}


{#- The record line of the partitions the predicate keeps. -#}
{% macro _sj_prune_partition_line(spec, partitions) -%}
    {%- set kept = partitions.kept if partitions.kept is not none else 'not counted (more than 10000)' -%}
    {%- set constrained = partitions.constrained | join(', ') -%}
    {%- if partitions.case == 'deferred' -%}
        {%- set counted = (', ' ~ kept ~ ' kept by the literal predicate') if partitions.count else '' -%}
        {%- set line -%}
partitions: {{ partitions.total }} in total{{ counted }}; the key set on partition column(s)
{{ partitions.deferred | join(', ') }} is read from the prune cache when the query runs, so Spark prunes by it then
(dynamic partition pruning): how many it keeps is not known while rendering
        {%- endset -%}
    {%- elif partitions.case == 'empty' -%}
        {%- set line = 'partitions: ' ~ partitions.total ~ ' in total, 0 kept (the predicate is false)' -%}
    {%- elif partitions.case == 'semi_join' -%}
        {%- set line -%}
partitions: {{ partitions.total }} in total, {{ kept }} hold keys of the semi join on partition column(s)
{{ constrained }}; whether Spark skips the others is its own run-time choice (dynamic partition pruning)
        {%- endset -%}
    {%- elif partitions.case == 'literal' -%}
        {%- set line -%}
partitions: {{ partitions.total }} in total, {{ kept }} kept by the literal predicate on partition column(s)
{{ constrained }} (Spark lists and reads only those)
        {%- endset -%}
    {%- else -%}
        {%- set line -%}
partitions: {{ partitions.total }} in total, all kept: no predicate on a partition column
({{ spec.partition_columns | join(', ') }}); the predicate filters rows at the scan
        {%- endset -%}
    {%- endif -%}
    {{- return(line | replace('\n', ' ')) -}}
{%- endmacro %}

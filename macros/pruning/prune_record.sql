{#- The decision record of a pruning plan. -#}


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
    {%- for k in sources[0]['keys'] if not k.pushable -%}
        {%- set line -%}
big column {{ k.big }} ({{ k.big_type }}) is compared as {{ k.common }} by the join, which is not one-to-one: the
predicate compares {{ k.big_expr }} (exact, but Spark cannot push it to the scan)
        {%- endset -%}
        {%- do lines.append(line | replace('\n', ' ')) -%}
    {%- endfor -%}
    {{- return(lines) -}}
{%- endmacro %}


{#- Count the partitions the conjuncts keep; returns the partitions result
    and its record line. -#}
{% macro _sj_prune_partition_line(spec, conjuncts, empty) -%}
    {%- set pcols = spec.partition_columns -%}
    {%- set plower = pcols | map('lower') | list -%}
    {%- set on_partitions = [] -%}
    {%- set state = namespace(subquery=false) -%}
    {%- set deferred = [] -%}
    {%- for c in conjuncts if c.get('deferred') -%}
        {%- for col in c.columns if col in plower and col not in deferred -%}
            {%- do deferred.append(col) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- for c in conjuncts if c.columns and not c.get('deferred')
            and (c.columns | reject('in', plower) | list | length == 0) -%}
        {%- do on_partitions.append(c.sql) -%}
        {%- if c.get('subquery') -%}{%- set state.subquery = true -%}{%- endif -%}
    {%- endfor -%}
    {%- set constrained = [] -%}
    {%- for c in conjuncts -%}
        {%- for col in c.columns if col in plower and col not in constrained -%}
            {%- do constrained.append(col) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if deferred and not empty -%}
        {%- set partitions = skewjoin._sj_prune_count_partitions(spec, on_partitions) -%}
        {%- set kept = partitions.kept if partitions.kept is not none else 'not counted (more than 10000)' -%}
        {%- set counted = (', ' ~ kept ~ ' kept by the literal predicate') if on_partitions else '' -%}
        {%- set line -%}
partitions: {{ partitions.total }} in total{{ counted }}; the key set on partition column(s) {{ deferred | join(', ') }}
is read from the prune cache when the query runs, so Spark prunes by it then (dynamic partition pruning): how many it
keeps is not known while rendering
        {%- endset -%}
    {%- elif empty -%}
        {%- set partitions = skewjoin._sj_prune_count_partitions(spec, ['false']) -%}
        {%- set line = 'partitions: ' ~ partitions.total ~ ' in total, 0 kept (the predicate is false)' -%}
    {%- elif on_partitions -%}
        {%- set partitions = skewjoin._sj_prune_count_partitions(spec, on_partitions) -%}
        {%- set kept = partitions.kept if partitions.kept is not none else 'not counted (more than 10000)' -%}
        {%- if state.subquery -%}
            {%- set line -%}
partitions: {{ partitions.total }} in total, {{ kept }} hold keys of the semi join on partition column(s)
{{ constrained | join(', ') }}; whether Spark skips the others is its own run-time choice (dynamic partition pruning)
            {%- endset -%}
        {%- else -%}
            {%- set line -%}
partitions: {{ partitions.total }} in total, {{ kept }} kept by the literal predicate on partition column(s)
{{ constrained | join(', ') }} (Spark lists and reads only those)
            {%- endset -%}
        {%- endif -%}
    {%- else -%}
        {%- set partitions = skewjoin._sj_prune_count_partitions(spec, []) -%}
        {%- set line -%}
partitions: {{ partitions.total }} in total, all kept: no predicate on a partition column ({{ pcols | join(', ') }});
the predicate filters rows at the scan
        {%- endset -%}
    {%- endif -%}
    {{- return({'partitions': partitions, 'line': line | replace('\n', ' ')}) -}}
{%- endmacro %}

{#- Every query of a pruning request after resolve, in one place: which key
    sets the prune cache holds for this run, the keys of each group of small
    relations (those that constrain the same big columns), and the
    partitions the predicate keeps. With var skewjoin_run_queries false
    nothing is measured. Returns
      {'allowed': compile-time queries on,
       'cache': none or {'table', 'run', 'present': [ids], 'key_sets': [...]},
       'groups': [{'sources', 'missing': [ids not in the cache], 'collected': keys or none}],
       'partitions': none or {'total', 'kept', 'seconds'}}. -#}


{#- Which of the request's key sets are complete in the prune cache for this
    run: {'table', 'run', 'present', 'key_sets' (each once, in order)}. -#}
{% macro _sj_prune_measure_cache(spec) -%}
    {%- set ids = [] -%}
    {%- set key_sets = [] -%}
    {%- for src in spec.sources if src.key_set.id not in ids -%}
        {%- do ids.append(src.key_set.id) -%}
        {%- do key_sets.append(src.key_set) -%}
    {%- endfor -%}
    {%- set present = skewjoin._sj_prune_cache_present(spec.cache_table, spec.cache_run, ids) -%}
    {{- return({'table': spec.cache_table, 'run': spec.cache_run, 'present': present, 'key_sets': key_sets}) -}}
{%- endmacro %}


{#- The sources grouped by the big columns (and types) they constrain, in
    the order given. -#}
{% macro _sj_prune_groups(spec) -%}
    {%- set groups = {} -%}
    {%- set order = [] -%}
    {%- for src in spec.sources -%}
        {%- set gk = skewjoin._sj_prune_group_key(src) -%}
        {%- if gk not in groups -%}
            {%- do groups.update({gk: []}) -%}
            {%- do order.append(gk) -%}
        {%- endif -%}
        {%- do groups[gk].append(src) -%}
    {%- endfor -%}
    {%- set out = [] -%}
    {%- for gk in order -%}{%- do out.append(groups[gk]) -%}{%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{% macro _sj_prune_measure(spec) -%}
    {%- set measured = {'allowed': skewjoin._sj_queries_allowed(), 'groups': [], 'cache': none,
                        'partitions': none} -%}
    {%- if not measured.allowed -%}
        {{- return(measured) -}}
    {%- endif -%}
    {%- set cache = skewjoin._sj_prune_measure_cache(spec) if spec.cache else none -%}
    {%- do measured.update({'cache': cache}) -%}
    {%- for sources in skewjoin._sj_prune_groups(spec) -%}
        {%- set missing = [] -%}
        {%- if cache is not none -%}
            {%- for src in sources if src.key_set.id not in cache.present -%}
                {%- do missing.append(src.key_set.id) -%}
            {%- endfor -%}
            {%- set cached = [] -%}
            {%- for src in sources -%}
                {%- do cached.append(skewjoin._sj_prune_cached_source(spec, src, missing | length > 0)) -%}
            {%- endfor -%}
            {%- set sources = cached -%}
        {%- endif -%}
        {%- do measured.groups.append({'sources': sources, 'missing': missing,
            'collected': none if missing else skewjoin._sj_prune_collect(spec, sources)}) -%}
    {%- endfor -%}
    {%- if spec.partition_columns -%}
        {#- the count evaluates the predicate's own SQL on the partition values (no table data): the
            plan of the groups (pure) gives that SQL -#}
        {%- set scope = skewjoin._sj_prune_partition_scope(spec,
            skewjoin._sj_prune_group_plans(spec, measured.groups)) -%}
        {%- do measured.update({'partitions': skewjoin._sj_prune_count_partitions(spec, scope.count)}) -%}
    {%- endif -%}
    {{- return(measured) -}}
{%- endmacro %}

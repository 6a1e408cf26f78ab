{#- The pruning plan of a resolved request (`_sj_prune_resolve`): measure
    (`_sj_prune_measure`: group the small relations by the big columns they
    constrain, read the prune cache, collect each group's keys), then plan
    (`_sj_prune_plan`: intersect them, turn them into predicates on the big
    table, count the partitions kept). The plan is {'predicate': sql,
    'lines': [...], 'empty': bool, 'partitions': {...} or none}, so that
    star_join can apply it as well. With var skewjoin_run_queries false
    nothing is collected and the predicate is `true`. -#}


{% macro _sj_prune_describe_source(src, spec) -%}
    {%- set src = src.get('described') or src -%}
    {%- set on = [] -%}
    {%- for k in src['keys'] -%}
        {%- do on.append((spec.alias ~ '.' if spec.alias else '') ~ k.big ~ ' = ' ~ k.small) -%}
    {%- endfor -%}
    {%- set filter_text = (', filter: ' ~ src.filter) if src.filter is not none else ', no filter' -%}
    {{- return(src.label ~ ' (' ~ src.join_type ~ ' join on ' ~ (on | join(' and ')) ~ filter_text ~ ')') -}}
{%- endmacro %}


{#- Literals of the column `i` of every tuple, in the key's target type. -#}
{% macro _sj_prune_literals(spec, k, tuples, i) -%}
    {%- set lits = [] -%}
    {%- for t in tuples -%}
        {%- do lits.append(skewjoin._sj_prune_literal(spec.macro, t[i], k.target)) -%}
    {%- endfor -%}
    {{- return(lits) -}}
{%- endmacro %}


{#- Conjuncts for a key set within max_values: one IN list per column and,
    for a multi-column key, the exact tuple check. -#}
{% macro _sj_prune_in_lists(spec, keys, collected, shown) -%}
    {%- set n = keys | length -%}
    {%- set conjuncts = [] -%}
    {%- for k in keys -%}
        {%- set lits = skewjoin._sj_prune_literals(spec, k, collected.tuples, loop.index0)
            | unique(case_sensitive=true) | list -%}
        {%- do conjuncts.append({'sql': k.big_expr ~ ' in (' ~ (lits | join(', ')) ~ ')', 'columns': [k.big | lower],
                                 'n_values': lits | length}) -%}
    {%- endfor -%}
    {%- if n == 1 -%}
        {%- set line = shown ~ ': IN list of ' ~ collected.kept ~ ' values (<= max_values ' ~ spec.max_values ~ ')' -%}
        {{- return({'conjuncts': conjuncts, 'empty': false, 'line': line}) -}}
    {%- endif -%}
    {%- set per_column = conjuncts | map(attribute='n_values') | join(', ') -%}
    {%- set tuples = [] -%}
    {%- for t in collected.tuples -%}
        {%- set lits = [] -%}
        {%- for k in keys -%}
            {%- do lits.append(skewjoin._sj_prune_literal(spec.macro, t[loop.index0], k.target)) -%}
        {%- endfor -%}
        {%- do tuples.append('(' ~ (lits | join(', ')) ~ ')') -%}
    {%- endfor -%}
    {%- do conjuncts.append({'sql': '(' ~ shown ~ ') in (' ~ (tuples | join(', ')) ~ ')',
                             'columns': keys | map(attribute='big') | map('lower') | list}) -%}
    {%- set line -%}
({{ shown }}): IN list of {{ collected.kept }} tuples (<= max_values {{ spec.max_values }}): one IN list per column
({{ per_column }} values; these reach the scan) and the exact tuple check
    {%- endset -%}
    {{- return({'conjuncts': conjuncts, 'empty': false, 'line': line | replace('\n', ' ')}) -}}
{%- endmacro %}


{#- `(big columns) in (select ... from (the sources' key intersection))`. -#}
{% macro _sj_prune_semi_join_sql(sources) -%}
    {%- set keys = sources[0]['keys'] -%}
    {%- set shown = keys | map(attribute='big_expr') | join(', ') -%}
    {%- set names = [] -%}
    {%- for k in keys -%}{%- do names.append('sj_keys.sj_k' ~ loop.index0) -%}{%- endfor -%}
    {%- set sql -%}
{{ shown if keys | length == 1 else '(' ~ shown ~ ')' }} in (
    select {{ names | join(', ') }}
    from (
{{ skewjoin._sj_indent(skewjoin._sj_prune_intersection_select(sources), 8) }}
    ) as sj_keys
)
    {%- endset -%}
    {{- return(sql) -}}
{%- endmacro %}


{#- A group whose key sets are not in the prune cache yet (the model's
    pre_hook computes them after this SQL is rendered): a semi join against
    the cached keys, read when the query runs, which stops the
    query if they are still missing then. -#}
{% macro _sj_prune_deferred_predicate(spec, sources) -%}
    {%- set keys = sources[0]['keys'] -%}
    {%- set shown = keys | map(attribute='big_expr') | join(', ') -%}
    {%- set ids = [] -%}
    {%- set lines = [] -%}
    {%- for src in sources -%}
        {%- do ids.append(src.key_set.id[:12]) -%}
        {%- do lines.append('small[' ~ src.index ~ '] ' ~ skewjoin._sj_prune_describe_source(src, spec)
            ~ ': key set ' ~ src.key_set.id[:12] ~ ' is not in the prune cache for this run yet') -%}
    {%- endfor -%}
    {%- set line -%}
{{ shown if keys | length == 1 else '(' ~ shown ~ ')' }}: a semi join against the cached key set(s)
{{ ids | join(', ') }}, read when the query runs (the pre_hook {{ '{{' }} skewjoin.prune_key_sets() {{ '}}' }}
computes them before it; the query stops with an error if they are missing then); no key is collected while rendering
    {%- endset -%}
    {%- do lines.append(line | replace('\n', ' ')) -%}
    {{- return({'conjuncts': [{'sql': skewjoin._sj_prune_semi_join_sql(sources),
                               'columns': keys | map(attribute='big') | map('lower') | list,
                               'subquery': true, 'deferred': true}],
                'empty': false, 'lines': lines}) -}}
{%- endmacro %}


{#- The cache of this plan: every source's key set, which of them are
    complete in the cache for this run, and the record lines. -#}
{% macro _sj_prune_plan_cache(spec) -%}
    {%- set table = spec.cache_table -%}
    {%- set run = spec.cache_run -%}
    {%- set ids = [] -%}
    {%- set markers = [] -%}
    {%- for src in spec.sources -%}
        {%- do src.update({'key_set': skewjoin._sj_prune_source_key_set(src)}) -%}
        {%- if src.key_set.id not in ids -%}
            {%- do ids.append(src.key_set.id) -%}
            {%- do markers.append(skewjoin._sj_prune_key_set_marker(src.key_set)) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set present = skewjoin._sj_prune_cache_present(table, run, ids) -%}
    {%- set line -%}
prune cache {{ table }}, run {{ run }}: {{ present | length }} of {{ ids | length }} key set(s) complete
    {%- endset -%}
    {{- return({'table': table, 'run': run, 'present': present, 'lines': [line] + markers}) -}}
{%- endmacro %}


{#- Conjuncts [{'sql', 'columns'}] and a description for one group. -#}
{% macro _sj_prune_group_predicate(spec, sources, collected) -%}
    {%- set keys = sources[0]['keys'] -%}
    {%- set n = keys | length -%}
    {%- set columns = keys | map(attribute='big') | map('lower') | list -%}
    {%- set shown = keys | map(attribute='big_expr') | join(', ') -%}
    {%- if collected.kept == 0 -%}
        {%- set line = shown
            ~ ': the key set is empty, so no row of the big table can match: predicate false (reads nothing)' -%}
        {{- return({'conjuncts': [{'sql': 'false', 'columns': []}], 'empty': true, 'line': line}) -}}
    {%- endif -%}
    {%- if collected.kept <= spec.max_values -%}
        {{- return(skewjoin._sj_prune_in_lists(spec, keys, collected, shown)) -}}
    {%- endif -%}
    {%- set above = (shown if n == 1 else '(' ~ shown ~ ')') ~ ': ' ~ collected.kept ~ ' '
        ~ ('values' if n == 1 else 'tuples') ~ ', above max_values ' ~ spec.max_values
        ~ ': fallback ' ~ spec.fallback -%}
    {%- if spec.fallback == 'range' -%}
        {%- set conjuncts = [] -%}
        {%- set ranges = [] -%}
        {%- for k in keys -%}
            {%- set i = loop.index0 -%}
            {%- set lo = skewjoin._sj_prune_literal(spec.macro, collected['min'][i], k.target) -%}
            {%- set hi = skewjoin._sj_prune_literal(spec.macro, collected['max'][i], k.target) -%}
            {%- do conjuncts.append({'sql': k.big_expr ~ ' between ' ~ lo ~ ' and ' ~ hi,
                                     'columns': [k.big | lower]}) -%}
            {%- do ranges.append(k.big ~ ' from ' ~ collected['min'][i] ~ ' to ' ~ collected['max'][i]) -%}
        {%- endfor -%}
        {{- return({'conjuncts': conjuncts, 'empty': false,
                    'line': above ~ ' (between the min and max key: ' ~ (ranges | join('; ')) ~ ')'}) -}}
    {%- elif spec.fallback == 'semi_join' -%}
        {%- set sql = skewjoin._sj_prune_semi_join_sql(sources) -%}
        {{- return({'conjuncts': [{'sql': sql, 'columns': columns, 'subquery': true}], 'empty': false,
                    'line': above ~ ' (a semi join against the small relations\' keys, left to Spark)'}) -}}
    {%- endif -%}
    {{- return({'conjuncts': [], 'empty': false, 'line': above ~ ' (no predicate)'}) -}}
{%- endmacro %}


{#- Every key query of a resolved request: the cache's key sets present, and
    each group's collected keys (none for a group the cache defers).
    Returns {'allowed' (run-time queries on), 'cache', 'groups': [{'sources',
    'missing', 'collected'}]}. -#}
{% macro _sj_prune_measure(spec) -%}
    {%- set measured = {'allowed': skewjoin._sj_queries_allowed(), 'groups': [], 'cache': none} -%}
    {%- if not measured.allowed -%}
        {{- return(measured) -}}
    {%- endif -%}
    {#- group the sources by the big columns (and types) they constrain -#}
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
    {%- set cache = skewjoin._sj_prune_plan_cache(spec) if spec.cache else none -%}
    {%- do measured.update({'cache': cache}) -%}
    {%- for gk in order -%}
        {%- set sources = groups[gk] -%}
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
    {{- return(measured) -}}
{%- endmacro %}


{#- The plan from the measured key sets (`_sj_prune_measure`): each group's
    predicate and record lines, then the partitions the predicate keeps (a
    count over the partition list, the one query left here: it evaluates the
    predicate's own SQL on the partition values, no table data). -#}
{% macro _sj_prune_plan(spec, measured) -%}
    {%- set lines = [skewjoin._sj_prune_big_line(spec)] -%}
    {%- if not measured.allowed -%}
        {%- set line -%}
no predicate (true): run-time queries are off {{ skewjoin._sj_queries_off_reason() }}, so no key of the small relations
was collected and nothing is pruned
        {%- endset -%}
        {%- do lines.append(line | replace('\n', ' ')) -%}
        {{- return({'predicate': 'true', 'lines': lines, 'empty': false, 'partitions': none, 'spec': spec}) -}}
    {%- endif -%}
    {%- if measured.cache is not none -%}{%- do lines.extend(measured.cache.lines) -%}{%- endif -%}
    {%- set conjuncts = [] -%}
    {%- set state = namespace(empty=false, seconds=0.0) -%}
    {%- for m in measured.groups -%}
        {%- if m.missing -%}
            {%- set g = skewjoin._sj_prune_deferred_predicate(spec, m.sources) -%}
            {%- do lines.extend(g.lines) -%}
        {%- else -%}
            {%- set state.seconds = state.seconds + m.collected.seconds -%}
            {%- do lines.extend(skewjoin._sj_prune_source_lines(spec, m.sources, m.collected)) -%}
            {%- set g = skewjoin._sj_prune_group_predicate(spec, m.sources, m.collected) -%}
            {%- do lines.append(g.line) -%}
        {%- endif -%}
        {%- if g.empty -%}{%- set state.empty = true -%}{%- endif -%}
        {%- do conjuncts.extend(g.conjuncts) -%}
    {%- endfor -%}
    {%- if state.empty -%}
        {%- set predicate = 'false' -%}
    {%- elif conjuncts -%}
        {%- set sqls = [] -%}
        {%- for c in conjuncts -%}{%- do sqls.append(skewjoin._sj_indent(c.sql, 4)[4:]) -%}{%- endfor -%}
        {%- set predicate = '(\n    ' ~ (sqls | join('\n    and ')) ~ '\n)' -%}
    {%- else -%}
        {%- set predicate = 'true' -%}
    {%- endif -%}
    {%- set partitions = none -%}
    {%- if spec.partition_columns -%}
        {%- set counted = skewjoin._sj_prune_partition_line(spec, conjuncts, state.empty) -%}
        {%- set partitions = counted.partitions -%}
        {%- do lines.append(counted.line) -%}
        {%- set state.seconds = state.seconds + partitions.seconds -%}
    {%- endif -%}
    {%- do lines.append('key queries: ' ~ ('%.2f' | format(state.seconds)) ~ ' s') -%}
    {{- return({'predicate': predicate, 'lines': lines, 'empty': state.empty, 'partitions': partitions,
                'spec': spec}) -}}
{%- endmacro %}

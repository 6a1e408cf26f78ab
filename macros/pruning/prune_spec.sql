{#- The pruning request, checked before anything runs: the big table, its
    alias, the small relations with their filters and keys, the join type of
    each and the options. No query here, so the checks run at parse time too. -#}

{% macro _sj_prune_small_keys() -%}
    {{- return(['relation', 'on', 'filter', 'alias', 'join_type']) -}}
{%- endmacro %}


{#- A small relation as the user writes it, from what `entry` holds: its
    relation as a table name (a value `relation` accepts) and its keys when
    they are usable; so that the example compiles when pasted. -#}
{% macro _sj_prune_small_example(entry=none) -%}
    {%- set parts = skewjoin._sj_entry_example_parts(entry, 'dates', "['date_key']") -%}
    {{- return("{'relation': '" ~ parts.relation ~ "', 'on': " ~ parts.on ~ "}") -}}
{%- endmacro %}


{#- The join type of `big <join_type> small`, refused when it keeps the big
    rows that match nothing (the join-semantics table: the left side is in
    keeps_unmatched): pruning those rows away would change the result. -#}
{% macro _sj_prune_join_type(macro_name, argument, join_type, label) -%}
    {%- set jt = skewjoin._sj_normalize_join_type(macro_name, argument, join_type, ['inner', 'right', 'left semi']) -%}
    {%- if 'left' in skewjoin._sj_join_semantics(jt).keeps_unmatched -%}
        {%- set why = {'left': 'a left join keeps every big row, with NULLs where nothing matches',
                       'full': 'a full join keeps every big row, with NULLs where nothing matches',
                       'left anti': 'a left anti join returns exactly the big rows that match nothing'}[jt] -%}
        {%- set problem -%}
refused: the join `big {{ jt }} join {{ label }}` preserves the big table ({{ why }}), so a predicate built from the
keys of {{ label }} would drop rows the join must return. Rule: the big table may be pruned by a small table only when
the big side is not preserved (inner, right or left semi join, written as `big <join_type> small`). For this join,
leave {{ label }} out of `small` (or filter the big table by a condition of its own)
        {%- endset -%}
        {#- no value of join_type is the way out: the join is what it is, and declaring another join type
            would prune rows this join must return -#}
        {%- do skewjoin._sj_raise(macro_name, argument, problem, 'no value of ' ~ argument ~ ': drop ' ~ label
            ~ ' from small (a ' ~ jt ~ ' join keeps every big row, so nothing can be pruned by it)') -%}
    {%- endif -%}
    {{- return(jt) -}}
{%- endmacro %}


{#- One entry of `small` (no query). -#}
{#- `argument` names the list in messages; `on_key` is the entry's key that
    holds the key columns (prune_key_sets' YAML form writes `keys`). -#}
{% macro _sj_prune_small_spec(macro_name, entry, index, big_alias, default_jt, big_from=none, argument='small',
                              on_key='on') -%}
    {%- set arg = argument ~ '[' ~ index ~ ']' -%}
    {%- set example = skewjoin._sj_prune_small_example(entry) -%}
    {%- if entry is not mapping -%}
        {%- set problem -%}
each small relation is a mapping with relation, on and optionally filter, alias, join_type; got
{{ (entry | string)[:200] }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, arg, problem, example) -%}
    {%- endif -%}
    {%- set known = [] -%}
    {%- for k in skewjoin._sj_prune_small_keys() -%}{%- do known.append(on_key if k == 'on' else k) -%}{%- endfor -%}
    {%- do skewjoin._sj_check_keys(macro_name, arg, entry, known, 'a small relation', example) -%}
    {%- if 'relation' not in entry or on_key not in entry -%}
        {%- do skewjoin._sj_raise(macro_name, arg,
            'relation and ' ~ on_key ~ ' are required; got keys ' ~ (entry.keys() | list | join(', ')), example) -%}
    {%- endif -%}
    {%- set src_from = skewjoin._sj_from_text(macro_name, arg ~ '.relation', entry['relation']) -%}
    {%- set pairs = skewjoin._sj_parse_on(macro_name, arg ~ '.' ~ on_key, entry[on_key], ('big', 'small'), true,
        inputs=[big_from, src_from] if big_from is not none else none) -%}
    {%- set src_alias = entry.get('alias') or 'sj_small' -%}
    {%- if src_alias != 'sj_small' -%}
        {%- do skewjoin._sj_check_alias(macro_name, arg ~ '.alias', src_alias, 's' ~ index) -%}
    {%- endif -%}
    {%- if big_alias is not none and src_alias | lower == big_alias | lower -%}
        {%- set problem -%}
the name the filter uses for this relation, a plain identifier different from the big alias '{{ big_alias }}'; got
{{ src_alias }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, arg ~ '.alias', problem, "'s" ~ index ~ "'") -%}
    {%- endif -%}
    {%- set filter = entry.get('filter') -%}
    {%- if filter is not none -%}
        {%- do skewjoin._sj_check_fragment(macro_name, arg ~ '.filter', filter,
            "\"year = 2026 and region = 'EU'\"") -%}
    {%- endif -%}
    {%- if skewjoin._sj_is_relation(entry['relation']) -%}
        {%- set label = entry['relation'].identifier -%}
    {%- elif skewjoin._sj_is_query_text(entry['relation']) -%}
        {%- set label = 'a query' -%}
    {%- else -%}
        {%- set label = entry['relation'] | trim -%}
    {%- endif -%}
    {%- set jt_argument = arg ~ '.join_type' if 'join_type' in entry else 'join_type' -%}
    {%- set jt = skewjoin._sj_prune_join_type(macro_name, jt_argument, entry.get('join_type', default_jt), label) -%}
    {{- return({'index': index, 'from': src_from, 'label': label, 'alias': src_alias,
                'filter': filter, 'pairs': pairs, 'join_type': jt}) -}}
{%- endmacro %}


{#- Validate everything that needs no query. Returns the request:
    {'macro', 'big', 'big_is_table', 'alias', 'sources': [...], 'max_values', 'fallback', 'cache',
    'cache_table', 'cache_run'}. -#}
{% macro _sj_prune_spec(macro_name, big, big_alias, small, join_type, max_values, fallback, cache=none) -%}
    {%- set big_from = skewjoin._sj_from_text(macro_name, 'big', big) -%}
    {%- set big_is_table = skewjoin._sj_is_relation(big) or not skewjoin._sj_is_query_text(big) -%}
    {%- set alias = none -%}
    {%- if big_alias is not none and not (big_alias is string and big_alias | trim == '') -%}
        {%- set alias = skewjoin._sj_check_alias(macro_name, 'big_alias', big_alias, 'f') -%}
    {%- endif -%}
    {%- if small is none or small is string or small is mapping or small is not iterable or small | length == 0 -%}
        {%- set problem -%}
expected a non-empty list of small relations, each a mapping with relation, on and optionally filter, alias,
join_type; got {{ (small | string)[:200] }}
        {%- endset -%}
        {%- do skewjoin._sj_raise(macro_name, 'small', problem,
            'small=[' ~ skewjoin._sj_prune_small_example() ~ ']') -%}
    {%- endif -%}
    {%- set default_jt = skewjoin._sj_normalize_join_type(macro_name, 'join_type', join_type,
        ['inner', 'right', 'left semi']) -%}
    {%- set sources = [] -%}
    {%- for entry in small -%}
        {%- do sources.append(skewjoin._sj_prune_small_spec(macro_name, entry, loop.index0, alias, default_jt,
            big_from)) -%}
    {%- endfor -%}
    {%- set mv = max_values if max_values is not none else var('skewjoin_prune_max_values', 1000) -%}
    {%- set mv = skewjoin._sj_whole_number(macro_name, 'max_values', mv, 1, '1000') -%}
    {%- set fb = fallback if fallback is not none else var('skewjoin_prune_fallback', 'range') -%}
    {%- set what -%}
fallback, what to do above max_values: 'range' (between min and max), 'semi_join' (key in (select ...)) or 'none'
(no predicate), the default 'range';
it
    {%- endset -%}
    {%- set fb = skewjoin._sj_choice(macro_name, 'fallback', fb, ['range', 'semi_join', 'none'], what) -%}
    {%- set cache_on = skewjoin._sj_prune_cache_on(macro_name, cache) -%}
    {{- return({'macro': macro_name, 'big': big_from, 'big_is_table': big_is_table, 'alias': alias,
                'sources': sources, 'max_values': mv, 'fallback': fb, 'cache': cache_on,
                'cache_table': skewjoin._sj_prune_cache_table(macro_name) if cache_on else none,
                'cache_run': skewjoin._sj_prune_cache_run(macro_name) if cache_on else none}) -}}
{%- endmacro %}


{#- The type the small keys are turned into so that they compare with the big
    column as the join compares them: the big column's own type where its
    cast to the join's common type is exact (`_sj_exact_widening`; then the
    predicate is on the bare column and reaches the scan), else none (the
    predicate compares the big column cast to the common type). Not exact: a
    common type with fewer integer digits or a smaller scale (decimal(38,10)
    against decimal(38,0) compares in decimal(38,0): Spark rounds the big
    column first, and 1.4 and 1.5 match the keys 1 and 2). -#}
{% macro _sj_prune_target_type(big_type, common) -%}
    {%- if skewjoin._sj_type_kind(big_type) == 'string' and skewjoin._sj_type_kind(common) == 'string' -%}
        {{- return('string') -}}
    {%- elif skewjoin._sj_exact_widening(big_type, common) -%}
        {{- return(skewjoin._sj_normalize_type(big_type)) -}}
    {%- endif -%}
    {{- return(none) -}}
{%- endmacro %}


{#- Resolve the request against the real columns (needs `execute`). Adds to
    each source its key columns: big and small names and types, the common
    type, the target type and the big-side expression. -#}
{#- The keys of one source, resolved: big and small names and types, the
    common type, the target type and the big-side expression. -#}
{% macro _sj_prune_resolve_keys(spec, src, big_columns, src_columns, ansi) -%}
    {%- set macro_name = spec.macro -%}
    {%- set argument = 'small[' ~ src.index ~ '].on' -%}
    {%- set prefix = (spec.alias ~ '.') if spec.alias is not none else '' -%}
    {%- set keys = [] -%}
    {%- for pair in src.pairs -%}
        {%- set bc = skewjoin._sj_find_column(big_columns, pair[0]) -%}
        {%- set sc = skewjoin._sj_find_column(src_columns, pair[1]) -%}
        {%- set right_form = skewjoin._sj_pair_right_form(pair, big_columns, bc, src_columns, sc) -%}
        {%- if bc is none -%}
            {%- set problem -%}
column '{{ pair[0] }}' is not a column of the big table{{ skewjoin._sj_did_you_mean(pair[0],
big_columns | map(attribute='name') | list) }}; its columns are: {{ big_columns | map(attribute='name') | join(', ') }}
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, argument, problem, right_form) -%}
        {%- endif -%}
        {%- if sc is none -%}
            {%- set problem -%}
column '{{ pair[1] }}' is not a column of {{ src.label }}{{ skewjoin._sj_did_you_mean(pair[1],
src_columns | map(attribute='name') | list) }}; its columns are: {{ src_columns | map(attribute='name') | join(', ') }}
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, argument, problem, right_form) -%}
        {%- endif -%}
        {%- set common = skewjoin._sj_common_type(bc.type, sc.type, ansi) -%}
        {%- set kinds = ('integral', 'decimal', 'fractional', 'string', 'boolean', 'date', 'timestamp') -%}
        {%- set literal_kind = common is not none
            and (skewjoin._sj_type_kind(common) in kinds or common == 'timestamp_ntz') -%}
        {%- if macro_name == 'star_join' and not literal_kind -%}
            {#- star_join joins such a key itself; it only does not prune the fact with it -#}
            {%- do src.update({'declined': 'its key ' ~ bc.name ~ ' (' ~ bc.type ~ ') = ' ~ src.alias ~ '.' ~ sc.name
                ~ ' (' ~ sc.type ~ ') is compared ' ~ ('as ' ~ common if common is not none else 'in a way')
                ~ ' the package writes no exact literals for'}) -%}
            {{- return([]) -}}
        {%- endif -%}
        {%- if common is none -%}
            {%- set others = src_columns | rejectattr('name', 'eq', sc.name) | list -%}
            {%- set better = skewjoin._sj_suggest_column(others, bc.name, bc.name, bc.type) if others else sc.name -%}
            {%- set problem -%}
big column {{ bc.name }} ({{ bc.type }}) and {{ src.label }}.{{ sc.name }} ({{ sc.type }}) have types Spark cannot
compare consistently (ANSI mode {{ 'on' if ansi else 'off' }}); join on a key of a comparable type, or cast one side
in a subquery so both keys share a type
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, argument, problem, "[['" ~ bc.name ~ "', '" ~ better ~ "']]") -%}
        {%- endif -%}
        {%- if not literal_kind -%}
            {%- set problem -%}
the key {{ bc.name }} is compared as {{ common }}, a type whose values cannot be written as SQL literals exactly;
prune on a key of a number, string, boolean, date or timestamp type
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, argument, problem, "['date_key']") -%}
        {%- endif -%}
        {%- set target = skewjoin._sj_prune_target_type(bc.type, common) -%}
        {%- set column_expr = prefix ~ skewjoin._sj_ident(bc.name) -%}
        {#- a float or double column plus zero: -0.0 reads as 0.0, as the join reads it; Parquet's pushed
            filter compares -0.0 below 0.0 and skipped the files of -0.0 (Spark pushes no sum) -#}
        {%- set signed_zero = target is not none and skewjoin._sj_type_kind(target) == 'fractional' -%}
        {%- if signed_zero -%}
            {%- set column_expr = '(' ~ column_expr ~ ' + cast(0 as ' ~ target ~ '))' -%}
        {%- endif -%}
        {%- do keys.append({
            'big': bc.name, 'big_type': bc.type, 'small': sc.name, 'small_type': sc.type, 'common': common,
            'target': target if target is not none else common,
            'pushable': target is not none and not signed_zero, 'signed_zero': signed_zero,
            'big_expr': column_expr if target is not none else skewjoin._sj_cast(column_expr, bc.type, common, ansi),
            'small_expr': src.alias ~ '.' ~ skewjoin._sj_ident(sc.name), 'ansi': ansi
        }) -%}
    {%- endfor -%}
    {{- return(keys | sort(attribute='big') | list) -}}
{%- endmacro %}


{#- Resolve the request against the real columns (needs `execute`; reads
    column lists and settings only). Adds to each source its key columns
    (see above) and, with the prune cache on, its key set; to the request
    the big table's columns and, when compile-time queries are allowed, its
    partition columns. -#}
{% macro _sj_prune_resolve(spec) -%}
    {%- set ansi = (skewjoin._sj_spark_conf('spark.sql.ansi.enabled', 'false') | lower) == 'true' -%}
    {%- set big_columns = skewjoin._sj_columns(spec.big) -%}
    {%- for src in spec.sources -%}
        {%- set src_columns = skewjoin._sj_columns(src['from']) -%}
        {%- for ref in skewjoin._sj_expr_refs(src.filter or '') -%}
            {%- if ref.alias | lower != src.alias | lower
                   and skewjoin._sj_find_column(src_columns, ref.alias) is none -%}
                {%- set problem -%}
the filter uses '{{ ref.alias }}.{{ ref.column }}', but {{ src.label }} is named '{{ src.alias }}' here; write bare
column names or set 'alias'
                {%- endset -%}
                {%- do skewjoin._sj_raise(spec.macro, 'small[' ~ src.index ~ '].filter', problem,
                    '"' ~ ref.column ~ ' is not null"') -%}
            {%- endif -%}
        {%- endfor -%}
        {%- do src.update({'keys': skewjoin._sj_prune_resolve_keys(spec, src, big_columns, src_columns, ansi)}) -%}
        {%- if spec.cache and src.get('declined') is none -%}
            {%- do src.update({'key_set': skewjoin._sj_prune_source_key_set(src)}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set partition_columns = none -%}
    {%- if spec.big_is_table and skewjoin._sj_queries_allowed() -%}
        {%- set partition_columns = skewjoin._sj_prune_partition_columns(spec.big) -%}
    {%- endif -%}
    {%- do spec.update({'ansi': ansi, 'big_columns': big_columns, 'partition_columns': partition_columns,
                        'declined': spec.sources | selectattr('declined', 'defined') | list,
                        'sources': spec.sources | rejectattr('declined', 'defined') | list}) -%}
    {{- return(spec) -}}
{%- endmacro %}

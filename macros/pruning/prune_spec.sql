{#- The pruning request, checked before anything runs: the big table, its
    alias, the small relations with their filters and keys, the join type of
    each and the options. No query here, so the checks run at parse time too. -#}

{% macro _sj_prune_example() -%}
    {{- return("small=[{'relation': ref('dates'), 'filter': 'year = 2026', 'on': [['date_key', 'date_key']]}]") -}}
{%- endmacro %}


{#- Join types whose big side (the left side of `big <join_type> small`) is
    not preserved: a row of the big table that matches no small row can be
    dropped without changing the result. -#}
{% macro _sj_prune_allowed_join_types() -%}
    {{- return(['inner', 'right', 'left semi']) -}}
{%- endmacro %}


{% macro _sj_prune_join_type(macro_name, argument, join_type, label) -%}
    {%- set jt = skewjoin._sj_normalize_join_type(macro_name, join_type) -%}
    {%- if jt not in skewjoin._sj_prune_allowed_join_types() -%}
        {%- set message = 'refused: the join `big ' ~ jt ~ ' join ' ~ label ~ '` preserves the big table (' ~
            {'left': 'a left join keeps every big row, with NULLs where nothing matches',
             'full': 'a full join keeps every big row, with NULLs where nothing matches',
             'left anti': 'a left anti join returns exactly the big rows that match nothing'}[jt] ~
            '), so a predicate built from the keys of ' ~ label ~ ' would drop rows the join must return. ' ~
            'Rule: the big table may be pruned by a small table only when the big side is not preserved ' ~
            '(inner, right or left semi join, written as `big <join_type> small`). For this join, leave ' ~
            label ~ ' out of `small` (or filter the big table by a condition of its own)' -%}
        {%- do skewjoin._sj_raise(macro_name, argument, message, "join_type='inner'") -%}
    {%- endif -%}
    {{- return(jt) -}}
{%- endmacro %}


{#- [[big_column, small_column], ...] from one entry's `on`. -#}
{% macro _sj_prune_parse_on(macro_name, argument, on) -%}
    {%- set example = "'on': ['date_key']  or  'on': [['date_key', 'dk']]  ([big column, small column] pairs)" -%}
    {%- set items = [on] if on is string else on -%}
    {%- if items is none or items is mapping or items is not iterable or items | length == 0 -%}
        {%- do skewjoin._sj_raise(macro_name, argument, 'expected a non-empty list of column names or [big_column, small_column] pairs; got ' ~ (on | string), example) -%}
    {%- endif -%}
    {%- set pairs = [] -%}
    {%- set seen = [] -%}
    {%- for item in items -%}
        {%- if item is string and item | trim | length > 0 -%}
            {%- set pair = [item | trim, item | trim] -%}
        {%- elif item is iterable and item is not mapping and item is not string and item | length == 2 and item[0] is string and item[1] is string and item[0] | trim | length > 0 and item[1] | trim | length > 0 -%}
            {%- set pair = [item[0] | trim, item[1] | trim] -%}
        {%- else -%}
            {%- do skewjoin._sj_raise(macro_name, argument, 'each key is a column name or a [big_column, small_column] pair; got ' ~ (item | string), example) -%}
        {%- endif -%}
        {%- if (pair[0] | lower) in seen -%}
            {%- do skewjoin._sj_raise(macro_name, argument, "big column '" ~ pair[0] ~ "' appears twice; each big column is matched once per small relation", example) -%}
        {%- endif -%}
        {%- do seen.append(pair[0] | lower) -%}
        {%- do pairs.append(pair) -%}
    {%- endfor -%}
    {{- return(pairs) -}}
{%- endmacro %}


{#- A whole number >= minimum, or raise. -#}
{% macro _sj_prune_whole_number(macro_name, argument, value, minimum, example) -%}
    {%- if value is boolean or not modules.re.fullmatch('[0-9]+', value | string | trim) or (value | int) < minimum -%}
        {%- do skewjoin._sj_raise(macro_name, argument, 'expected a whole number >= ' ~ minimum ~ '; got ' ~ (value | string), example) -%}
    {%- endif -%}
    {{- return(value | int) -}}
{%- endmacro %}


{#- Validate everything that needs no query. Returns the request:
    {'macro', 'big', 'big_is_table', 'alias', 'sources': [...], 'max_values', 'fallback'}. -#}
{% macro _sj_prune_spec(macro_name, big, big_alias, small, join_type, max_values, fallback) -%}
    {%- set big_from = skewjoin._sj_from_text(macro_name, 'big', big) -%}
    {%- set big_is_table = skewjoin._sj_is_relation(big) or not skewjoin._sj_is_query_text(big) -%}
    {%- if big_alias is none or (big_alias is string and big_alias | trim == '') -%}
        {%- set alias = none -%}
    {%- elif big_alias is string and modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*', big_alias) and not big_alias.startswith('sj_') -%}
        {%- set alias = big_alias -%}
    {%- else -%}
        {%- do skewjoin._sj_raise(macro_name, 'big_alias', 'the alias the big table has in your query, a plain identifier not starting with sj_ (or none for unqualified columns); got ' ~ (big_alias | string), "prune_predicate(ref('sales'), 'f', ...)") -%}
    {%- endif -%}
    {%- set example = skewjoin._sj_prune_example() -%}
    {%- if small is none or small is string or small is mapping or small is not iterable or small | length == 0 -%}
        {%- do skewjoin._sj_raise(macro_name, 'small', 'expected a non-empty list of small relations, each a mapping with relation, on and optionally filter, alias, join_type; got ' ~ (small | string)[:200], example) -%}
    {%- endif -%}
    {%- set default_jt = skewjoin._sj_normalize_join_type(macro_name, join_type) -%}
    {%- set sources = [] -%}
    {%- for entry in small -%}
        {%- set arg = 'small[' ~ loop.index0 ~ ']' -%}
        {%- if entry is not mapping -%}
            {%- do skewjoin._sj_raise(macro_name, arg, 'each small relation is a mapping with relation, on and optionally filter, alias, join_type; got ' ~ (entry | string)[:200], example) -%}
        {%- endif -%}
        {%- for key in entry -%}
            {%- if key not in ('relation', 'on', 'filter', 'alias', 'join_type') -%}
                {%- do skewjoin._sj_raise(macro_name, arg, "unknown key '" ~ key ~ "'; a small relation has relation, on, filter, alias and join_type", example) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if 'relation' not in entry or 'on' not in entry -%}
            {%- do skewjoin._sj_raise(macro_name, arg, 'relation and on are required; got keys ' ~ (entry.keys() | list | join(', ')), example) -%}
        {%- endif -%}
        {%- set src_from = skewjoin._sj_from_text(macro_name, arg ~ '.relation', entry['relation']) -%}
        {%- set pairs = skewjoin._sj_prune_parse_on(macro_name, arg ~ '.on', entry['on']) -%}
        {%- set src_alias = entry.get('alias') or 'sj_small' -%}
        {%- if src_alias is not string or not modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*', src_alias) or (alias is not none and src_alias | lower == alias | lower) -%}
            {%- do skewjoin._sj_raise(macro_name, arg ~ '.alias', 'the name the filter uses for this relation, a plain identifier different from the big alias; got ' ~ (src_alias | string), "{'relation': ref('dates'), 'alias': 'd', 'filter': 'd.year = 2026', 'on': ['date_key']}") -%}
        {%- endif -%}
        {%- set filter = entry.get('filter') -%}
        {%- if filter is not none -%}
            {%- do skewjoin._sj_check_fragment(macro_name, arg ~ '.filter', filter, "'filter': \"year = 2026 and region = 'EU'\"") -%}
        {%- endif -%}
        {%- if skewjoin._sj_is_relation(entry['relation']) -%}
            {%- set label = entry['relation'].identifier -%}
        {%- elif skewjoin._sj_is_query_text(entry['relation']) -%}
            {%- set label = 'a query' -%}
        {%- else -%}
            {%- set label = entry['relation'] | trim -%}
        {%- endif -%}
        {%- set jt = skewjoin._sj_prune_join_type(macro_name, arg ~ '.join_type' if 'join_type' in entry else 'join_type', entry.get('join_type', default_jt), label) -%}
        {%- do sources.append({'index': loop.index0, 'from': src_from, 'label': label, 'alias': src_alias,
                               'filter': filter, 'pairs': pairs, 'join_type': jt}) -%}
    {%- endfor -%}
    {%- set mv = max_values if max_values is not none else var('skewjoin_prune_max_values', 1000) -%}
    {%- set mv = skewjoin._sj_prune_whole_number(macro_name, 'max_values', mv, 1, 'max_values=1000') -%}
    {%- set fb = fallback if fallback is not none else var('skewjoin_prune_fallback', 'range') -%}
    {%- if fb not in ('range', 'semi_join', 'none') -%}
        {%- do skewjoin._sj_raise(macro_name, 'fallback', "what to do above max_values: 'range' (between min and max), 'semi_join' (key in (select ...)) or 'none' (no predicate); got " ~ (fb | string), "fallback='semi_join'") -%}
    {%- endif -%}
    {{- return({'macro': macro_name, 'big': big_from, 'big_is_table': big_is_table, 'alias': alias,
                'sources': sources, 'max_values': mv, 'fallback': fb}) -}}
{%- endmacro %}


{#- The type the small keys are turned into so that they compare with the big
    column as the join compares them: the big column's own type when casting
    it to the join's common type is one-to-one (then the predicate is on the
    bare column and reaches the scan), else none (the predicate compares the
    big column cast to the common type). -#}
{% macro _sj_prune_target_type(big_type, common) -%}
    {%- set bk = skewjoin._sj_type_kind(big_type) -%}
    {%- set ck = skewjoin._sj_type_kind(common) -%}
    {%- if bk == 'string' and ck == 'string' -%}
        {{- return('string') -}}
    {%- elif skewjoin._sj_normalize_type(big_type) == skewjoin._sj_normalize_type(common) -%}
        {{- return(skewjoin._sj_normalize_type(big_type)) -}}
    {%- elif bk in ('integral', 'decimal') and ck in ('integral', 'decimal') -%}
        {{- return(skewjoin._sj_normalize_type(big_type)) -}}
    {%- elif skewjoin._sj_normalize_type(big_type) == 'float' and common == 'double' -%}
        {{- return('float') -}}
    {%- elif bk == 'date' and ck == 'timestamp' -%}
        {{- return('date') -}}
    {%- endif -%}
    {{- return(none) -}}
{%- endmacro %}


{#- Resolve the request against the real columns (needs `execute`). Adds to
    each source its key columns: big and small names and types, the common
    type, the target type and the big-side expression. -#}
{% macro _sj_prune_resolve(spec) -%}
    {%- set macro_name = spec.macro -%}
    {%- set ansi = (skewjoin._sj_spark_conf('spark.sql.ansi.enabled', 'false') | lower) == 'true' -%}
    {%- set big_columns = skewjoin._sj_columns(spec.big) -%}
    {%- set prefix = (spec.alias ~ '.') if spec.alias is not none else '' -%}
    {%- for src in spec.sources -%}
        {%- set arg = 'small[' ~ src.index ~ ']' -%}
        {%- set src_columns = skewjoin._sj_columns(src['from']) -%}
        {%- if src.filter is not none -%}
            {%- for ref in skewjoin._sj_expr_refs(src.filter) -%}
                {%- if ref.alias | lower != src.alias | lower and skewjoin._sj_find_column(src_columns, ref.alias) is none -%}
                    {%- do skewjoin._sj_raise(macro_name, arg ~ '.filter', "the filter uses '" ~ ref.alias ~ '.' ~ ref.column ~ "', but " ~ src.label ~ " is named '" ~ src.alias ~ "' here; write bare column names or set 'alias'", "{'relation': ref('dates'), 'alias': 'd', 'filter': 'd.year = 2026', 'on': ['date_key']}") -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
        {%- set keys = [] -%}
        {%- for pair in src.pairs -%}
            {%- set bc = skewjoin._sj_find_column(big_columns, pair[0]) -%}
            {%- set sc = skewjoin._sj_find_column(src_columns, pair[1]) -%}
            {%- if bc is none -%}
                {%- do skewjoin._sj_raise(macro_name, arg ~ '.on', "column '" ~ pair[0] ~ "' is not a column of the big table; its columns are: " ~ (big_columns | map(attribute='name') | join(', ')), "'on': [['" ~ ((big_columns | first).name if big_columns else 'id') ~ "', '" ~ pair[1] ~ "']]  ([big column, small column])") -%}
            {%- endif -%}
            {%- if sc is none -%}
                {%- do skewjoin._sj_raise(macro_name, arg ~ '.on', "column '" ~ pair[1] ~ "' is not a column of " ~ src.label ~ '; its columns are: ' ~ (src_columns | map(attribute='name') | join(', ')), "'on': [['" ~ pair[0] ~ "', '" ~ ((src_columns | first).name if src_columns else 'id') ~ "']]  ([big column, small column])") -%}
            {%- endif -%}
            {%- set common = skewjoin._sj_common_type(bc.type, sc.type, ansi) -%}
            {%- if common is none -%}
                {%- do skewjoin._sj_raise(macro_name, arg ~ '.on', 'big column ' ~ bc.name ~ ' (' ~ bc.type ~ ') and ' ~ src.label ~ '.' ~ sc.name ~ ' (' ~ sc.type ~ ') have types Spark cannot compare consistently (ANSI mode ' ~ ('on' if ansi else 'off') ~ '); cast one side in a subquery so both keys share a type', "{'relation': \"select cast(date_key as date) as date_key, year from {{ ref('dates') }}\", 'on': ['date_key']}") -%}
            {%- endif -%}
            {%- if skewjoin._sj_type_kind(common) not in ('integral', 'decimal', 'fractional', 'string', 'boolean', 'date', 'timestamp') and common != 'timestamp_ntz' -%}
                {%- do skewjoin._sj_raise(macro_name, arg ~ '.on', 'the key ' ~ bc.name ~ ' is compared as ' ~ common ~ ', a type whose values cannot be written as SQL literals exactly; prune on a key of a number, string, boolean, date or timestamp type', "'on': ['date_key']") -%}
            {%- endif -%}
            {%- set target = skewjoin._sj_prune_target_type(bc.type, common) -%}
            {%- set column_expr = prefix ~ skewjoin._sj_ident(bc.name) -%}
            {%- do keys.append({
                'big': bc.name, 'big_type': bc.type, 'small': sc.name, 'small_type': sc.type, 'common': common,
                'target': target if target is not none else common,
                'pushable': target is not none,
                'big_expr': column_expr if target is not none else skewjoin._sj_cast(column_expr, bc.type, common),
                'small_expr': src.alias ~ '.' ~ skewjoin._sj_ident(sc.name)
            }) -%}
        {%- endfor -%}
        {%- do src.update({'keys': keys | sort(attribute='big') | list}) -%}
    {%- endfor -%}
    {%- set partition_columns = skewjoin._sj_prune_partition_columns(spec.big) if spec.big_is_table else none -%}
    {%- do spec.update({'ansi': ansi, 'big_columns': big_columns, 'partition_columns': partition_columns}) -%}
    {{- return(spec) -}}
{%- endmacro %}

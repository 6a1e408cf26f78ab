{#- The star join request, checked before anything runs: the fact, its alias,
    the dimensions (relation, alias, keys, join type, filter, columns, size
    factor, broadcast override) and the options (budget, size factor,
    analyze, shuffle hint, prune). No query here. -#}

{% macro _sj_star_dimension_keys() -%}
    {{- return(['relation', 'alias', 'on', 'join_type', 'filter', 'columns', 'size_factor', 'broadcast']) -}}
{%- endmacro %}


{% macro _sj_star_option_names() -%}
    {{- return(['broadcast_budget', 'size_factor', 'analyze', 'shuffle_hint', 'prune']) -}}
{%- endmacro %}


{#- A dimension as the user writes it, from what `entry` holds: its relation
    as a table name (a value `relation` accepts), its alias and keys when
    they are usable; so that the example compiles when pasted. -#}
{% macro _sj_star_dimension_example(entry=none, index=0) -%}
    {%- set parts = skewjoin._sj_entry_example_parts(entry, 'stores', "['store_id']") -%}
    {%- set usable = entry is mapping and skewjoin._sj_alias_ok(entry.get('alias')) -%}
    {%- set alias = entry.get('alias') if usable else 'd' ~ index -%}
    {{- return("{'relation': '" ~ parts.relation ~ "', 'alias': '" ~ alias ~ "', 'on': " ~ parts.on ~ "}") -}}
{%- endmacro %}


{#- File formats whose files Spark can measure through the `_metadata` column
    (sizes of path-based dimensions and of file-based tables without
    statistics). -#}
{% macro _sj_star_file_formats() -%}
    {{- return(['parquet', 'orc', 'csv', 'json', 'text', 'avro', 'delta']) -}}
{%- endmacro %}


{#- `format.`path`` (a path-based table), or none. -#}
{% macro _sj_star_path_match(text) -%}
    {%- if text is not string -%}
        {{- return(none) -}}
    {%- endif -%}
    {%- set pattern = '\\s*(' ~ (skewjoin._sj_star_file_formats() | join('|')) ~ ')\\.`([^`]+)`\\s*' -%}
    {%- set m = modules.re.fullmatch(pattern, text, flags=modules.re.I) -%}
    {%- if m is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return({'format': m.group(1) | lower, 'path': m.group(2),
                'from': (m.group(1) | lower) ~ '.`' ~ m.group(2) ~ '`'}) -}}
{%- endmacro %}


{#- What an input is: {'kind': relation|table|path|query, 'from': text after
    FROM, 'label': name in the record}. -#}
{% macro _sj_star_input(argument, obj) -%}
    {%- set path = skewjoin._sj_star_path_match(obj) -%}
    {%- if path is not none -%}
        {{- return({'kind': 'path', 'from': path['from'], 'label': path['from'], 'format': path.format}) -}}
    {%- endif -%}
    {%- set from_text = skewjoin._sj_from_text('star_join', argument, obj) -%}
    {%- if skewjoin._sj_is_relation(obj) -%}
        {{- return({'kind': 'relation', 'from': from_text, 'label': from_text, 'format': none}) -}}
    {%- elif skewjoin._sj_is_query_text(obj) -%}
        {{- return({'kind': 'query', 'from': from_text, 'label': 'a query', 'sql': obj | trim, 'format': none}) -}}
    {%- else -%}
        {{- return({'kind': 'table', 'from': from_text, 'label': from_text, 'format': none}) -}}
    {%- endif -%}
{%- endmacro %}


{#- A positive number (int or float), or raise. -#}
{% macro _sj_star_factor(argument, value) -%}
    {%- set what -%}
a size factor is a number above 0 (the in-memory size of a dimension divided by its size on disk)
    {%- endset -%}
    {{- return(skewjoin._sj_number_between('star_join', argument, value, 0, 1e300, true, '3', what)) -}}
{%- endmacro %}


{#- A budget in bytes: a whole number >= 0, or a Spark byte string ('10m',
    '512kb', '1g'; binary units as in Spark's own settings: b, k/kb/kib,
    m/mb/mib, g/gb/gib, t/tb/tib, any case, all powers of 1024). -#}
{% macro _sj_star_budget_bytes(argument, value) -%}
    {%- set units = '(b|k|kb|kib|m|mb|mib|g|gb|gib|t|tb|tib)' -%}
    {%- set m = none if value is boolean or value is none
        else modules.re.fullmatch('\\s*([0-9]+)\\s*' ~ units ~ '?\\s*', value | string | lower) -%}
    {%- if m is none -%}
        {%- set problem -%}
the broadcast budget is the largest total size in bytes of the dimensions broadcast together: a whole number >= 0
or a byte string; got {{ value }}. A byte string is a whole number and a unit, b, k or kb, m or mb, g or gb, t or tb
(any case; every unit is a power of 1024, as in Spark's own settings); 0 broadcasts nothing
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', argument, problem, skewjoin._sj_example_for(argument, "'10m'")) -%}
    {%- endif -%}
    {%- set unit = (m.group(2) or 'b')[:1] -%}
    {%- set scale = {'b': 1, 'k': 1024, 'm': 1048576, 'g': 1073741824, 't': 1099511627776}[unit] -%}
    {{- return((m.group(1) | int) * scale) -}}
{%- endmacro %}


{#- The options, each from the argument, else the model config `star_join`,
    else a project var, else the default; with where each came from. -#}
{% macro _sj_star_options(args) -%}
    {%- set known = skewjoin._sj_star_option_names() -%}
    {%- set cfg = skewjoin._sj_model_config('star_join', 'star_join') -%}
    {%- if cfg is none -%}
        {%- set cfg = {} -%}
    {%- endif -%}
    {%- if cfg is not mapping -%}
        {%- set problem -%}
the model config star_join is a mapping of options ({{ known | join(', ') }}); got {{ cfg }}
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', 'star_join', problem, "star_join={'broadcast_budget': '20m'}") -%}
    {%- endif -%}
    {%- do skewjoin._sj_check_keys('star_join', 'star_join', cfg, known, 'the model config star_join',
        "star_join={'broadcast_budget': '20m', 'analyze': true}") -%}
    {%- set vars_of = {'broadcast_budget': 'skewjoin_broadcast_budget', 'size_factor': 'skewjoin_size_factor'} -%}
    {%- set defaults = {'broadcast_budget': 10485760, 'size_factor': 1.0, 'analyze': false,
                        'shuffle_hint': 'merge', 'prune': true} -%}
    {%- set out = {} -%}
    {%- set sources = {} -%}
    {%- for key in known -%}
        {%- if args[key] is not none -%}
            {%- do out.update({key: args[key]}) -%}
            {%- do sources.update({key: 'argument ' ~ key}) -%}
        {%- elif cfg.get(key) is not none -%}
            {%- do out.update({key: cfg[key]}) -%}
            {%- do sources.update({key: 'config star_join.' ~ key}) -%}
        {%- elif key in vars_of and var(vars_of[key], none) is not none -%}
            {%- do out.update({key: var(vars_of[key])}) -%}
            {%- do sources.update({key: 'var ' ~ vars_of[key]}) -%}
        {%- else -%}
            {%- do out.update({key: defaults[key]}) -%}
            {%- do sources.update({key: 'default'}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set budget = skewjoin._sj_star_budget_bytes('broadcast_budget', out.broadcast_budget) -%}
    {%- set factor = out.size_factor -%}
    {%- set factors = {} -%}
    {%- if factor is mapping -%}
        {%- for fmt in factor -%}
            {%- set f = skewjoin._sj_star_factor('size_factor.' ~ fmt, factor[fmt]) -%}
            {%- do factors.update({fmt | string | lower: f}) -%}
        {%- endfor -%}
    {%- else -%}
        {%- do factors.update({'default': skewjoin._sj_star_factor('size_factor', factor)}) -%}
    {%- endif -%}
    {%- set analyze = out.analyze -%}
    {%- if analyze is not boolean and analyze not in ('always', 'missing') -%}
        {%- set problem -%}
analyze is false (read the statistics the catalog has), true or 'missing' (run ANALYZE TABLE ... COMPUTE STATISTICS
NOSCAN on tables without statistics) or 'always' (refresh them first); got {{ analyze }}
{{- skewjoin._sj_did_you_mean(analyze, ['missing', 'always', 'true', 'false']) }}
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', 'analyze', problem, 'analyze=true') -%}
    {%- endif -%}
    {%- set analyze = 'missing' if analyze is sameas true else ('never' if analyze is sameas false else analyze) -%}
    {%- set what -%}
shuffle_hint, the hint for the dimensions that are not broadcast: 'merge' (sort-merge join; also stops Spark's own
per-table threshold from broadcasting them past the budget), 'shuffle_hash' or 'none' (leave them to Spark);
it
    {%- endset -%}
    {%- set hint = skewjoin._sj_choice('star_join', 'shuffle_hint', out.shuffle_hint,
        ['merge', 'shuffle_hash', 'none'], what) -%}
    {%- set prune_cache = none -%}
    {%- if out.prune is string and out.prune | lower == 'cache' -%}
        {%- set prune_cache = true -%}
    {%- elif out.prune is not boolean -%}
        {%- set problem -%}
prune is true (collect the filtered dimensions' keys while rendering, or read them from the prune cache when var
skewjoin_prune_cache is true), 'cache' (read them from the prune cache that skewjoin.prune_key_sets fills) or false;
got {{ out.prune }}
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', 'prune', problem, 'prune=false') -%}
    {%- endif -%}
    {{- return({'budget': budget, 'budget_source': sources.broadcast_budget, 'factors': factors,
                'factor_source': sources.size_factor, 'analyze': analyze, 'shuffle_hint': hint,
                'prune': out.prune is sameas true or prune_cache is not none, 'prune_cache': prune_cache}) -}}
{%- endmacro %}


{#- A dimension's `columns`: [{'name', 'as_written'}], each a bare column
    name or one qualified by the dimension's own alias ('s.store_name'). -#}
{% macro _sj_star_dimension_columns(arg, alias, join_type, value) -%}
    {%- set argument = arg ~ '.columns' -%}
    {%- set example = "['" ~ alias ~ ".store_name', 'region']" -%}
    {%- set items = [value] if value is string else value -%}
    {%- if items is mapping or items is not iterable -%}
        {%- set problem -%}
expected a list of column names of the dimension {{ alias }} (bare, or qualified by its alias: '{{ alias }}.name');
got {{ value }}
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', argument, problem, example) -%}
    {%- endif -%}
    {%- if not skewjoin._sj_join_semantics(join_type).returns_right and items | length > 0 -%}
        {%- set problem -%}
a {{ join_type }} join returns only the rows of the fact, so {{ alias }} has no columns to select
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', argument, problem, '[]') -%}
    {%- endif -%}
    {%- set name = '[A-Za-z_][A-Za-z0-9_]*|`[^`]+`' -%}
    {%- set out = [] -%}
    {%- for c in items -%}
        {%- set m = modules.re.fullmatch('\\s*(?:(' ~ name ~ ')\\s*\\.\\s*)?(' ~ name ~ ')\\s*', c)
            if c is string else none -%}
        {%- if m is none -%}
            {%- set problem -%}
each entry is a plain column name of the dimension, bare ('store_name') or qualified by its alias
('{{ alias }}.store_name');
for expressions use the argument columns; got {{ c }}
            {%- endset -%}
            {%- do skewjoin._sj_raise('star_join', argument, problem, example) -%}
        {%- endif -%}
        {%- if m.group(1) is not none and (m.group(1).strip('`') | lower) != (alias | lower) -%}
            {%- set problem -%}
'{{ c }}' is qualified by '{{ m.group(1) }}', but a dimension's columns belong to that dimension, here named
'{{ alias }}'; write '{{ alias }}.{{ m.group(2) }}' or '{{ m.group(2) }}'
            {%- endset -%}
            {%- do skewjoin._sj_raise('star_join', argument, problem, "['" ~ alias ~ "." ~ m.group(2) ~ "']") -%}
        {%- endif -%}
        {%- do out.append(m.group(2).strip('`')) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- One dimension of `dims` (no query). -#}
{% macro _sj_star_dimension_spec(entry, index, aliases, fact_from=none) -%}
    {%- set arg = 'dims[' ~ index ~ ']' -%}
    {%- set keys = skewjoin._sj_star_dimension_keys() -%}
    {%- set example = skewjoin._sj_star_dimension_example(entry, index) -%}
    {%- if entry is not mapping -%}
        {%- set problem -%}
each dimension is a mapping with relation, alias and on; got {{ (entry | string)[:200] }}
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', arg, problem, example) -%}
    {%- endif -%}
    {%- do skewjoin._sj_check_keys('star_join', arg, entry, keys, 'a dimension', example) -%}
    {%- for key in ['relation', 'alias', 'on'] if key not in entry -%}
        {%- set problem -%}
{{ key }} is required; a dimension has relation, alias and on (and optionally join_type, filter, columns,
size_factor, broadcast); got keys {{ entry.keys() | list | join(', ') }}
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', arg, problem, example) -%}
    {%- endfor -%}
    {%- set alias = skewjoin._sj_check_alias('star_join', arg ~ '.alias', entry['alias'], 'd' ~ index) -%}
    {%- if alias | lower in aliases -%}
        {%- set problem -%}
the alias '{{ alias }}' is already taken ({{ aliases | join(', ') }} so far, the fact first); every dimension needs
its own alias
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', arg ~ '.alias', problem, "'" ~ alias ~ "2'") -%}
    {%- endif -%}
    {%- set input = skewjoin._sj_star_input(arg ~ '.relation', entry['relation']) -%}
    {%- set pairs = skewjoin._sj_parse_on('star_join', arg ~ '.on', entry['on'], ('fact', 'dimension'),
        inputs=[fact_from, input['from']] if fact_from is not none else none) -%}
    {%- set jt = skewjoin._sj_normalize_join_type('star_join', arg ~ '.join_type',
        entry.get('join_type') or 'inner') -%}
    {%- set filter = entry.get('filter') -%}
    {%- if filter is not none -%}
        {%- do skewjoin._sj_check_fragment('star_join', arg ~ '.filter', filter,
            '"' ~ alias ~ ".region = 'EU'\"  (a condition on this dimension only)") -%}
    {%- endif -%}
    {%- set dim_columns = none -%}
    {%- if entry.get('columns') is not none -%}
        {%- set dim_columns = skewjoin._sj_star_dimension_columns(arg, alias, jt, entry['columns']) -%}
    {%- endif -%}
    {%- set factor = none -%}
    {%- if entry.get('size_factor') is not none -%}
        {%- set factor = skewjoin._sj_star_factor(arg ~ '.size_factor', entry['size_factor']) -%}
    {%- endif -%}
    {%- set broadcast = entry.get('broadcast') -%}
    {%- if broadcast is none -%}
        {%- set broadcast = 'auto' -%}
    {%- elif broadcast is not boolean and not (broadcast is string and broadcast | lower | trim == 'auto') -%}
        {%- set problem -%}
broadcast is 'auto' (decided by size and budget, the default), true (always broadcast) or false (never); got
{{ broadcast }}{{ skewjoin._sj_did_you_mean(broadcast, ['auto', 'true', 'false']) }}
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', arg ~ '.broadcast', problem, "'auto'") -%}
    {%- elif broadcast is not boolean -%}
        {%- set broadcast = 'auto' -%}
    {%- endif -%}
    {%- if broadcast is sameas true and 'right' not in skewjoin._sj_join_semantics(jt).broadcastable -%}
        {%- set problem -%}
refused: {{ alias }} is {{ jt }}-joined, so it is a preserved side: every one of its rows must be returned, matched
or not, and a broadcast side cannot tell which of its rows matched nowhere. Rule (Hive's map-join conversion): only
the non-preserved side of an outer join may be broadcast, and a full outer join is never converted. Drop
'broadcast': true (or set it to 'auto'), or join the dimension with join_type 'inner' or 'left'
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', arg ~ '.broadcast', problem, "'auto'") -%}
    {%- endif -%}
    {{- return({
        'index': index, 'arg': arg, 'alias': alias, 'input': input, 'pairs': pairs, 'join_type': jt,
        'filter': filter, 'columns_wanted': dim_columns, 'size_factor': factor, 'broadcast': broadcast,
        'relation': entry['relation']
    }) -}}
{%- endmacro %}


{#- Validate the fact and dimensions (no query). Returns
    {'fact': {...}, 'fact_alias', 'dims': [...], 'raw_fact'}. -#}
{% macro _sj_star_spec(fact, dims, fact_alias) -%}
    {%- do skewjoin._sj_check_alias('star_join', 'fact_alias', fact_alias, 'f') -%}
    {%- set fact_input = skewjoin._sj_star_input('fact', fact) -%}
    {%- if dims is none or dims is string or dims is mapping or dims is not iterable or dims | length == 0 -%}
        {%- set problem -%}
expected a non-empty list of dimensions, each a mapping with relation, alias and on (and optionally join_type,
filter, columns, size_factor, broadcast); got {{ (dims | string)[:200] }}
        {%- endset -%}
        {%- do skewjoin._sj_raise('star_join', 'dims', problem,
            'dims=[' ~ skewjoin._sj_star_dimension_example() ~ ']') -%}
    {%- endif -%}
    {%- set aliases = [fact_alias | lower] -%}
    {%- set out = [] -%}
    {%- for entry in dims -%}
        {%- set d = skewjoin._sj_star_dimension_spec(entry, loop.index0, aliases, fact_input['from']) -%}
        {%- do aliases.append(d.alias | lower) -%}
        {%- do out.append(d) -%}
    {%- endfor -%}
    {{- return({'fact': fact_input, 'fact_alias': fact_alias, 'dims': out, 'raw_fact': fact}) -}}
{%- endmacro %}

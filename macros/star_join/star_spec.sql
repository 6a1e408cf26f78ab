{#- The star join request, checked before anything runs: the fact, its alias,
    the dimensions (relation, alias, keys, join type, filter, columns, size
    factor, broadcast override) and the options (budget, size factor,
    analyze, shuffle hint, prune). No query here. -#}

{% macro _sj_star_example() -%}
    {{- return("dims=[{'relation': ref('stores'), 'alias': 's', 'on': ['store_id']}, {'relation': ref('dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']], 'join_type': 'left', 'filter': 'd.year = 2026'}]") -}}
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
    {%- set m = modules.re.fullmatch('\\s*(' ~ (skewjoin._sj_star_file_formats() | join('|')) ~ ')\\.`([^`]+)`\\s*', text, flags=modules.re.I) -%}
    {%- if m is none -%}
        {{- return(none) -}}
    {%- endif -%}
    {{- return({'format': m.group(1) | lower, 'path': m.group(2), 'from': (m.group(1) | lower) ~ '.`' ~ m.group(2) ~ '`'}) -}}
{%- endmacro %}


{#- What an input is: {'kind': relation|table|path|query, 'from': text after FROM, 'label': name in the record}. -#}
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


{% macro _sj_star_alias_ok(alias) -%}
    {{- return(alias is string and modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*', alias) is not none and not (alias | lower).startswith('sj_')) -}}
{%- endmacro %}


{#- [[fact_col, dim_col], ...] from one dimension's `on`. -#}
{% macro _sj_star_parse_on(argument, on) -%}
    {%- set example = "'on': ['store_id']  or  'on': [['sold_date', 'date_key']]  ([fact column, dimension column] pairs; several for a multi-column key)" -%}
    {%- set items = [on] if on is string else on -%}
    {%- if items is none or items is mapping or items is not iterable or items | length == 0 -%}
        {%- do skewjoin._sj_raise('star_join', argument, 'expected a non-empty list of column names or [fact_column, dimension_column] pairs; got ' ~ (on | string), example) -%}
    {%- endif -%}
    {%- set pairs = [] -%}
    {%- for item in items -%}
        {%- if item is string and item | trim | length > 0 -%}
            {%- set pair = [item | trim, item | trim] -%}
        {%- elif item is iterable and item is not mapping and item is not string and item | length == 2 and item[0] is string and item[1] is string and item[0] | trim | length > 0 and item[1] | trim | length > 0 -%}
            {%- set pair = [item[0] | trim, item[1] | trim] -%}
        {%- else -%}
            {%- do skewjoin._sj_raise('star_join', argument, 'each key is a column name or a [fact_column, dimension_column] pair; got ' ~ (item | string), example) -%}
        {%- endif -%}
        {%- do pairs.append(pair) -%}
    {%- endfor -%}
    {{- return(pairs) -}}
{%- endmacro %}


{#- A positive number (int or float), or raise. -#}
{% macro _sj_star_factor(argument, value) -%}
    {%- if value is boolean or value is none or not modules.re.fullmatch('[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?', value | string | trim) or (value | float) <= 0 -%}
        {%- do skewjoin._sj_raise('star_join', argument, 'a size factor is a number above 0 (the in-memory size of a dimension divided by its size on disk); got ' ~ (value | string), "size_factor=3  or  size_factor={'parquet': 3, 'orc': 3, 'default': 1}") -%}
    {%- endif -%}
    {{- return(value | float) -}}
{%- endmacro %}


{#- A budget in bytes: a whole number >= 0, or a Spark byte string ('10m',
    '512kb', '1g'; binary units as in Spark's own settings). -#}
{% macro _sj_star_budget_bytes(argument, value) -%}
    {%- set example = "broadcast_budget=10485760  or  broadcast_budget='10m'  (bytes; k, m, g, t units of 1024; 0 broadcasts nothing)" -%}
    {%- set m = none if value is boolean or value is none else modules.re.fullmatch('\\s*([0-9]+)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib|t|tb|tib)?\\s*', value | string | lower) -%}
    {%- if m is none -%}
        {%- do skewjoin._sj_raise('star_join', argument, 'the broadcast budget is the largest total size in bytes of the dimensions broadcast together: a whole number >= 0 or a byte string; got ' ~ (value | string), example) -%}
    {%- endif -%}
    {%- set unit = (m.group(2) or 'b')[:1] -%}
    {%- set scale = {'b': 1, 'k': 1024, 'm': 1048576, 'g': 1073741824, 't': 1099511627776}[unit] -%}
    {{- return((m.group(1) | int) * scale) -}}
{%- endmacro %}


{#- The options, each from the argument, else the model config `star_join`,
    else a project var, else the default; with where each came from. -#}
{% macro _sj_star_options(args) -%}
    {%- set cfg = config.get('star_join', none) -%}
    {%- if cfg is none -%}
        {%- set cfg = {} -%}
    {%- endif -%}
    {%- if cfg is not mapping -%}
        {%- do skewjoin._sj_raise('star_join', 'star_join', 'the model config star_join is a mapping of options (broadcast_budget, size_factor, analyze, shuffle_hint, prune); got ' ~ (cfg | string), "config(star_join={'broadcast_budget': '20m'})") -%}
    {%- endif -%}
    {%- set known = ['broadcast_budget', 'size_factor', 'analyze', 'shuffle_hint', 'prune'] -%}
    {%- for key in cfg -%}
        {%- if key not in known -%}
            {%- do skewjoin._sj_raise('star_join', 'star_join', "unknown option '" ~ key ~ "' in the model config star_join; options are " ~ (known | join(', ')), "config(star_join={'broadcast_budget': '20m', 'analyze': true})") -%}
        {%- endif -%}
    {%- endfor -%}
    {%- set vars_of = {'broadcast_budget': 'skewjoin_broadcast_budget', 'size_factor': 'skewjoin_size_factor'} -%}
    {%- set defaults = {'broadcast_budget': 10485760, 'size_factor': 1.0, 'analyze': false, 'shuffle_hint': 'merge', 'prune': true} -%}
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
    {%- if factor is mapping -%}
        {%- set factors = {} -%}
        {%- for fmt in factor -%}
            {%- do factors.update({fmt | string | lower: skewjoin._sj_star_factor('size_factor.' ~ fmt, factor[fmt])}) -%}
        {%- endfor -%}
    {%- else -%}
        {%- set factors = {'default': skewjoin._sj_star_factor('size_factor', factor)} -%}
    {%- endif -%}
    {%- set analyze = out.analyze -%}
    {%- if analyze is not boolean and analyze not in ('always', 'missing') -%}
        {%- do skewjoin._sj_raise('star_join', 'analyze', "analyze is false (read the statistics the catalog has), true or 'missing' (run ANALYZE TABLE ... COMPUTE STATISTICS NOSCAN on tables without statistics) or 'always' (refresh them first); got " ~ (analyze | string), 'analyze=true') -%}
    {%- endif -%}
    {%- set analyze = 'missing' if analyze is sameas true else ('never' if analyze is sameas false else analyze) -%}
    {%- set hint = out.shuffle_hint | string | lower -%}
    {%- if hint not in ('merge', 'shuffle_hash', 'none') -%}
        {%- do skewjoin._sj_raise('star_join', 'shuffle_hint', "the hint for the dimensions that are not broadcast: 'merge' (sort-merge join; also stops Spark's own per-table threshold from broadcasting them past the budget), 'shuffle_hash' or 'none' (leave them to Spark); got " ~ (out.shuffle_hint | string), "shuffle_hint='merge'") -%}
    {%- endif -%}
    {%- if out.prune is not boolean -%}
        {%- do skewjoin._sj_raise('star_join', 'prune', 'prune is true or false; got ' ~ (out.prune | string), 'prune=false') -%}
    {%- endif -%}
    {{- return({'budget': budget, 'budget_source': sources.broadcast_budget, 'factors': factors,
                'factor_source': sources.size_factor, 'analyze': analyze, 'shuffle_hint': hint,
                'prune': out.prune}) -}}
{%- endmacro %}


{#- Validate the fact and dimensions (no query). Returns
    {'fact': {...}, 'fact_alias', 'dims': [...]}. -#}
{% macro _sj_star_spec(fact, dims, fact_alias) -%}
    {%- set example = skewjoin._sj_star_example() -%}
    {%- if not skewjoin._sj_star_alias_ok(fact_alias) -%}
        {%- do skewjoin._sj_raise('star_join', 'fact_alias', 'the fact alias is a plain identifier not starting with sj_; got ' ~ (fact_alias | string), "fact_alias='f'") -%}
    {%- endif -%}
    {%- set fact_input = skewjoin._sj_star_input('fact', fact) -%}
    {%- if dims is none or dims is string or dims is mapping or dims is not iterable or dims | length == 0 -%}
        {%- do skewjoin._sj_raise('star_join', 'dims', 'expected a non-empty list of dimensions, each a mapping with relation, alias and on (and optionally join_type, filter, columns, size_factor, broadcast); got ' ~ (dims | string)[:200], example) -%}
    {%- endif -%}
    {%- set aliases = [fact_alias | lower] -%}
    {%- set out = [] -%}
    {%- set join_types = skewjoin._sj_join_types() -%}
    {%- for entry in dims -%}
        {%- set arg = 'dims[' ~ loop.index0 ~ ']' -%}
        {%- if entry is not mapping -%}
            {%- do skewjoin._sj_raise('star_join', arg, 'each dimension is a mapping with relation, alias and on; got ' ~ (entry | string)[:200], example) -%}
        {%- endif -%}
        {%- for key in entry -%}
            {%- if key not in ('relation', 'alias', 'on', 'join_type', 'filter', 'columns', 'size_factor', 'broadcast') -%}
                {%- do skewjoin._sj_raise('star_join', arg, "unknown key '" ~ key ~ "'; a dimension has relation, alias, on, join_type, filter, columns, size_factor and broadcast", example) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- for key in ['relation', 'alias', 'on'] if key not in entry -%}
            {%- do skewjoin._sj_raise('star_join', arg, key ~ ' is required; a dimension has relation, alias and on (and optionally join_type, filter, columns, size_factor, broadcast); got keys ' ~ (entry.keys() | list | join(', ')), example) -%}
        {%- endfor -%}
        {%- set alias = entry['alias'] -%}
        {%- if not skewjoin._sj_star_alias_ok(alias) -%}
            {%- do skewjoin._sj_raise('star_join', arg ~ '.alias', 'an alias is a plain identifier not starting with sj_; got ' ~ (alias | string), "'alias': 's'") -%}
        {%- endif -%}
        {%- if alias | lower in aliases -%}
            {%- do skewjoin._sj_raise('star_join', arg ~ '.alias', "the alias '" ~ alias ~ "' is already taken (the fact is '" ~ fact_alias ~ "'); every dimension needs its own alias", "'alias': '" ~ alias ~ "2'") -%}
        {%- endif -%}
        {%- do aliases.append(alias | lower) -%}
        {%- set input = skewjoin._sj_star_input(arg ~ '.relation', entry['relation']) -%}
        {%- set pairs = skewjoin._sj_star_parse_on(arg ~ '.on', entry['on']) -%}
        {%- set jt_key = modules.re.sub('\\s+', ' ', (entry.get('join_type', 'inner') | string | lower | trim)) -%}
        {%- if jt_key not in join_types -%}
            {%- do skewjoin._sj_raise('star_join', arg ~ '.join_type', "unknown join type '" ~ (entry.get('join_type') | string) ~ "'; a dimension joins the fact by inner (default), left, right, full, left semi or left anti", "'join_type': 'left'") -%}
        {%- endif -%}
        {%- set jt = join_types[jt_key] -%}
        {%- set filter = entry.get('filter') -%}
        {%- if filter is not none -%}
            {%- do skewjoin._sj_check_fragment('star_join', arg ~ '.filter', filter, "'filter': \"" ~ alias ~ ".region = 'EU'\"  (a condition on this dimension only)") -%}
        {%- endif -%}
        {%- set dim_columns = entry.get('columns') -%}
        {%- if dim_columns is not none -%}
            {%- set dim_columns = [dim_columns] if dim_columns is string else dim_columns -%}
            {%- if dim_columns is mapping or dim_columns is not iterable -%}
                {%- do skewjoin._sj_raise('star_join', arg ~ '.columns', 'expected a list of column names of the dimension; got ' ~ (entry.get('columns') | string), "'columns': ['store_name', 'region']") -%}
            {%- endif -%}
            {%- for c in dim_columns if c is not string or not modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*|`[^`]+`', c | trim) -%}
                {%- do skewjoin._sj_raise('star_join', arg ~ '.columns', 'each entry is a plain column name of the dimension (for expressions use the argument columns); got ' ~ (c | string), "'columns': ['store_name', 'region']") -%}
            {%- endfor -%}
        {%- endif -%}
        {%- set factor = skewjoin._sj_star_factor(arg ~ '.size_factor', entry['size_factor']) if entry.get('size_factor') is not none else none -%}
        {%- set broadcast = entry.get('broadcast', 'auto') -%}
        {%- if broadcast is none -%}
            {%- set broadcast = 'auto' -%}
        {%- endif -%}
        {%- if broadcast is not boolean and broadcast != 'auto' -%}
            {%- do skewjoin._sj_raise('star_join', arg ~ '.broadcast', "broadcast is 'auto' (decided by size and budget, the default), true (always broadcast) or false (never); got " ~ (broadcast | string), "'broadcast': false") -%}
        {%- endif -%}
        {%- if broadcast is sameas true and jt in ('right', 'full') -%}
            {%- do skewjoin._sj_raise('star_join', arg ~ '.broadcast', 'refused: ' ~ alias ~ ' is ' ~ ('right' if jt == 'right' else 'full') ~ "-joined, so it is a preserved side: every one of its rows must be returned, matched or not, and a broadcast side cannot tell which of its rows matched nowhere. Rule (Hive's map-join conversion): only the non-preserved side of an outer join may be broadcast, and a full outer join is never converted. Drop 'broadcast': true, or join the dimension with join_type 'inner' or 'left'", "{'relation': ref('stores'), 'alias': '" ~ alias ~ "', 'on': ['store_id'], 'join_type': 'left', 'broadcast': true}") -%}
        {%- endif -%}
        {%- do out.append({
            'index': loop.index0, 'arg': arg, 'alias': alias, 'input': input, 'pairs': pairs, 'join_type': jt,
            'filter': filter, 'columns_wanted': dim_columns, 'size_factor': factor, 'broadcast': broadcast,
            'relation': entry['relation']
        }) -%}
    {%- endfor -%}
    {{- return({'fact': fact_input, 'fact_alias': fact_alias, 'dims': out, 'raw_fact': fact}) -}}
{%- endmacro %}

{#- The join being optimized: its two sides, keys, join type and output
    columns. `_sj_join_spec` checks the arguments without a query;
    `_sj_resolve_join` resolves them against the sides' real columns and
    types. Shared by skew_join's strategies so each rule lives in one place. -#}

{#- The join's arguments, checked (no query). -#}
{#- `on_argument` names where the keys come from in messages ('on', or a
    chain's 'joins[i].on'). -#}
{% macro _sj_join_spec(macro_name, left, right, on, join_type, columns, left_alias, right_alias, on_argument='on') -%}
    {%- do skewjoin._sj_check_alias(macro_name, 'left_alias', left_alias, 'o') -%}
    {%- do skewjoin._sj_check_alias(macro_name, 'right_alias', right_alias, 'c') -%}
    {%- if left_alias | lower == right_alias | lower -%}
        {%- do skewjoin._sj_raise(macro_name, 'right_alias', 'the two sides need different aliases; both are '
            ~ left_alias, "right_alias='" ~ left_alias ~ "_2'") -%}
    {%- endif -%}
    {%- set jt = skewjoin._sj_normalize_join_type(macro_name, 'join_type', join_type) -%}
    {%- set left_from = skewjoin._sj_from_text(macro_name, 'left', left) -%}
    {%- set right_from = skewjoin._sj_from_text(macro_name, 'right', right) -%}
    {{- return({
        'macro': macro_name, 'join_type': jt, 'semantics': skewjoin._sj_join_semantics(jt),
        'pairs': skewjoin._sj_parse_on(macro_name, on_argument, on, inputs=[left_from, right_from]),
        'on_argument': on_argument,
        'left': {'alias': left_alias, 'from': left_from},
        'right': {'alias': right_alias, 'from': right_from},
        'columns_arg': columns
    }) -}}
{%- endmacro %}


{#- The output columns: `columns` checked against the sides, or by default
    every column of the left side and the non-key columns of the right side
    (renamed where a name is taken). Returns {'select_list', 'renamed'}. -#}
{% macro _sj_select_list(spec, left_columns, right_columns, keys) -%}
    {%- set la = spec.left.alias -%}
    {%- set ra = spec.right.alias -%}
    {%- set first_right = (right_columns | first).name if right_columns else 'id' -%}
    {%- set example = "columns=['" ~ la ~ ".*', '" ~ ra ~ "." ~ first_right ~ " as " ~ ra ~ "_" ~ first_right ~ "']" -%}
    {%- if not spec.semantics.returns_right -%}
        {%- set example = "columns=['" ~ la ~ ".*']" -%}
    {%- endif -%}
    {%- set right = {'alias': ra, 'columns': right_columns, 'key_names': keys | map(attribute='right') | list} -%}
    {{- return(skewjoin._sj_output_columns(spec.macro, spec.columns_arg, {'alias': la, 'columns': left_columns},
        [right], example, spec.join_type if not spec.semantics.returns_right else none)) -}}
{%- endmacro %}


{#- The output columns of a join of `left` with the `others` (each
    {'alias', 'columns', 'key_names'}): `columns` checked against them (every
    alias a side's, every column one of its columns), or by default every
    column of the left side and the non-key columns of the others, in order,
    a taken name renamed to a free one (output_columns.sql). `left_only`: the join
    type of a join that returns only the left side's rows (none otherwise).
    Returns {'select_list', 'renamed'}. -#}
{% macro _sj_output_columns(macro_name, columns, left, others, example, left_only=none) -%}
    {%- if columns is none -%}
        {%- set out = skewjoin._sj_add_output_columns(skewjoin._sj_new_output(), left.alias, left.columns) -%}
        {%- for side in others if left_only is none -%}
            {%- set side_keys = side.key_names | map('lower') | list -%}
            {%- set non_keys = [] -%}
            {%- for c in side.columns if (c.name | lower) not in side_keys -%}
                {%- do non_keys.append(c) -%}
            {%- endfor -%}
            {%- do skewjoin._sj_add_output_columns(out, side.alias, non_keys) -%}
        {%- endfor -%}
        {{- return({'select_list': out.select_list, 'renamed': out.renamed}) -}}
    {%- endif -%}
    {%- set select_list = [] -%}
    {%- set items = [columns] if columns is string else columns -%}
    {%- if items is mapping or items is not iterable or items | length == 0 -%}
        {%- do skewjoin._sj_raise(macro_name, 'columns', 'expected a list of select expressions; got '
            ~ columns, example) -%}
    {%- endif -%}
    {%- set sides = [left] + others -%}
    {%- set aliases = sides | map(attribute='alias') | list -%}
    {%- set named = (aliases[:-1] | join(', ')) ~ ' and ' ~ aliases[-1] -%}
    {%- for item in items -%}
        {%- do skewjoin._sj_check_fragment(macro_name, 'columns', item, example) -%}
        {%- if modules.re.match('\\s*[*]', skewjoin._sj_split_literals(item | string)[0]) -%}
            {%- set problem -%}
'{{ item }}' selects every column of both sides without an alias: the skew plans' branches list their sides in
other orders and carry columns of their own (sj_group, sj_slot). Name a side's columns with {{ left.alias }}.* or
{{ sides[-1].alias }}.*
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, 'columns', problem, example) -%}
        {%- endif -%}
        {%- set star = modules.re.fullmatch('\\s*' ~ skewjoin._sj_ref_pattern('[*]') ~ '\\s*', item | string) -%}
        {%- for ref in skewjoin._sj_expr_refs(item) -%}
            {%- set side = namespace(found=none) -%}
            {%- for s in sides if s.alias | lower == ref.alias | lower -%}{%- set side.found = s -%}{%- endfor -%}
            {%- if side.found is none -%}
                {%- set problem -%}
'{{ item }}' uses the alias '{{ ref.alias }}'; the sides are {{ named }}
                {%- endset -%}
                {%- do skewjoin._sj_raise(macro_name, 'columns', problem, example) -%}
            {%- elif skewjoin._sj_find_column(side.found.columns, ref.column) is none -%}
                {%- set problem -%}
'{{ item }}': {{ ref.alias }} has no column '{{ ref.column }}'; its columns are:
{{ side.found.columns | map(attribute='name') | join(', ') }}
                {%- endset -%}
                {%- do skewjoin._sj_raise(macro_name, 'columns', problem, example) -%}
            {%- elif left_only is not none and not (side.found is sameas left) -%}
                {%- set problem -%}
'{{ item }}' selects from {{ ref.alias }}, but a {{ left_only }} join returns only the rows of {{ left.alias }}
                {%- endset -%}
                {%- do skewjoin._sj_raise(macro_name, 'columns', problem, example) -%}
            {%- endif -%}
        {%- endfor -%}
        {#- `<alias>.*` as that side's columns by name: the skew plans' CTEs carry columns of their own
            (sj_group, sj_slot), which a star would select too; inside an expression it is refused -#}
        {%- for part in skewjoin._sj_split_literals(item | string)[::2] if star is none -%}
            {%- set inner = modules.re.search(skewjoin._sj_ref_pattern('[*]'), part) -%}
            {%- if inner is not none -%}
                {%- set problem -%}
'{{ item }}' uses {{ inner.group(0) }} inside an expression; a skew plan's inputs carry columns of their own
(sj_group, sj_slot) that it would take in: name the columns, or give {{ inner.group(0) }} as an item of its own
                {%- endset -%}
                {%- do skewjoin._sj_raise(macro_name, 'columns', problem, example) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- set star_side = namespace(found=none) -%}
        {%- for s in sides if star is not none and s.alias | lower == star.group(1).strip('`') | lower -%}
            {%- set star_side.found = s -%}
        {%- endfor -%}
        {%- if star_side.found is not none -%}
            {%- for c in star_side.found.columns -%}
                {%- do select_list.append(star_side.found.alias ~ '.' ~ skewjoin._sj_ident(c.name)) -%}
            {%- endfor -%}
        {%- else -%}
            {%- do select_list.append(item) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return({'select_list': select_list, 'renamed': []}) -}}
{%- endmacro %}


{#- Resolve the join spec against the real columns: adds the sides'
    columns, the keys (with the type both sides are compared in) and the
    output columns. Needs `execute` (it describes the inputs). -#}
{% macro _sj_resolve_join(spec) -%}
    {%- set macro_name = spec.macro -%}
    {%- set la = spec.left.alias -%}
    {%- set ra = spec.right.alias -%}
    {%- set left_columns = skewjoin._sj_columns(spec.left['from']) -%}
    {%- set right_columns = skewjoin._sj_columns(spec.right['from']) -%}
    {%- for side_columns, arg in [(left_columns, 'left'), (right_columns, 'right')] -%}
        {%- for c in side_columns if (c.name | lower) in ('sj_group', 'sj_slot', 'sj_spread') -%}
            {%- set problem -%}
the input has a column named '{{ c.name }}', a name the generated query uses for its own routing; rename it in a
subquery
            {%- endset -%}
            {%- do skewjoin._sj_raise(macro_name, arg, problem, arg ~ '="select * except (' ~ c.name ~ '), '
                ~ c.name ~ ' as ' ~ c.name ~ '_value from ' ~ spec[arg]['from'] ~ '"') -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set ansi = (skewjoin._sj_spark_conf('spark.sql.ansi.enabled', 'false') | lower) == 'true' -%}
    {%- set keys = [] -%}
    {%- for pair in spec.pairs -%}
        {%- set lc = skewjoin._sj_find_column(left_columns, pair[0]) -%}
        {%- set rc = skewjoin._sj_find_column(right_columns, pair[1]) -%}
        {%- for col, name, side, alias, side_columns in [(lc, pair[0], 'left', la, left_columns),
                                                           (rc, pair[1], 'right', ra, right_columns)] if col is none -%}
            {%- set problem -%}
{%- set names = side_columns | map(attribute='name') | list -%}
column '{{ name }}' is not a column of the {{ side }} side ({{ alias }}){{ skewjoin._sj_did_you_mean(name, names) }};
its columns are: {{ names | join(', ') }}
            {%- endset -%}
            {%- set example = skewjoin._sj_key_example(left_columns, right_columns, ansi, pair) -%}
            {%- set on_arg = spec.get('on_argument') or 'on' -%}
            {%- do skewjoin._sj_raise(macro_name, on_arg, problem, skewjoin._sj_example_for(on_arg, example)) -%}
        {%- endfor -%}
        {%- set common = skewjoin._sj_common_type(lc.type, rc.type, ansi) -%}
        {%- set collated = 'collate' in (lc.type | lower) or 'collate' in (rc.type | lower) -%}
        {%- if common is none and collated -%}
            {#- a collation compares values other than by their text (utf8_lcase: 'A' = 'a'), which the slot hash
                and the hot keys' literals do not mirror -#}
            {%- set problem -%}
key {{ la }}.{{ lc.name }} ({{ lc.type }}) and {{ ra }}.{{ rc.name }} ({{ rc.type }}): a collated key is not
supported (the skew plans hash and compare a key by its text, and a collation matches other texts too); join on a
key in the default collation, such as lower() of it for utf8_lcase, in a subquery of each side
            {%- endset -%}
            {%- set example = 'left="select lower(' ~ lc.name ~ ') collate utf8_binary as ' ~ lc.name
                ~ ', * except (' ~ lc.name ~ ') from ' ~ spec.left['from'] ~ '"' -%}
            {%- do skewjoin._sj_raise(macro_name, spec.get('on_argument') or 'on', problem, example) -%}
        {%- elif common is none -%}
            {#- timestamp_ntz: Spark compares it with a timestamp as a timestamp (in the session time zone) and
                with a date or a string as a timestamp_ntz; a cast of the side not already in that type keeps
                the join's matches (the other way round, a cast of a timestamp to timestamp_ntz, can make two
                instants one local time) -#}
            {%- set types = [lc.type | lower, rc.type | lower] -%}
            {%- set ntz_compare = none -%}
            {%- if 'timestamp_ntz' in types -%}
                {%- set ntz_compare = 'timestamp' if 'timestamp' in types else 'timestamp_ntz' -%}
            {%- endif -%}
            {%- set cast_right = ntz_compare is not none and types[0] == ntz_compare -%}
            {%- set arg, col, target = ('right', rc.name, ntz_compare) if cast_right
                else ('left', lc.name, ntz_compare or rc.type) -%}
            {%- set problem -%}
{%- if ntz_compare is not none -%}
key {{ la }}.{{ lc.name }} ({{ lc.type }}) and {{ ra }}.{{ rc.name }} ({{ rc.type }}): a key of timestamp_ntz joined to
another type is not supported (the skew plans route each key by its value in the type both sides are compared in);
Spark compares these two as {{ ntz_compare }}: cast {{ arg }}'s key to {{ ntz_compare }} in a subquery, which keeps the
join's matches
{%- else -%}
key {{ la }}.{{ lc.name }} ({{ lc.type }}) and {{ ra }}.{{ rc.name }} ({{ rc.type }}) have types Spark cannot compare
consistently (ANSI mode {{ 'on' if ansi else 'off' }}); cast one side in a subquery so both keys share a type
{%- endif -%}
            {%- endset -%}
            {%- set example = arg ~ '="select cast(' ~ col ~ ' as ' ~ target ~ ') as ' ~ col ~ ', * except ('
                ~ col ~ ') from ' ~ spec[arg]['from'] ~ '"' -%}
            {%- do skewjoin._sj_raise(macro_name, spec.get('on_argument') or 'on', problem, example) -%}
        {%- endif -%}
        {%- do keys.append({
            'left': lc.name, 'right': rc.name, 'left_type': lc.type, 'right_type': rc.type, 'type': common,
            'left_ident': skewjoin._sj_ident(lc.name), 'right_ident': skewjoin._sj_ident(rc.name)
        }) -%}
    {%- endfor -%}
    {%- set output = skewjoin._sj_select_list(spec, left_columns, right_columns, keys) -%}
    {%- set join = {} -%}
    {%- do join.update(spec) -%}
    {%- do join.update({
        'left': {'alias': la, 'from': spec.left['from'], 'columns': left_columns,
                 'key_names': keys | map(attribute='left') | list},
        'right': {'alias': ra, 'from': spec.right['from'], 'columns': right_columns,
                  'key_names': keys | map(attribute='right') | list},
        'keys': keys, 'select_list': output.select_list, 'renamed': output.renamed, 'ansi': ansi
    }) -%}
    {{- return(join) -}}
{%- endmacro %}


{#- The equality condition between the two sides, as the user wrote it. -#}
{% macro _sj_on_condition(join, left_alias=none, right_alias=none) -%}
    {%- set la = left_alias or join.left.alias -%}
    {%- set ra = right_alias or join.right.alias -%}
    {%- set parts = [] -%}
    {%- for k in join['keys'] -%}
        {%- do parts.append(la ~ '.' ~ k.left_ident ~ ' = ' ~ ra ~ '.' ~ k.right_ident) -%}
    {%- endfor -%}
    {{- return(parts | join('\n    and ')) -}}
{%- endmacro %}


{#- The key expressions of one side ('left' or 'right') in the common type. -#}
{% macro _sj_common_keys(join, side, alias) -%}
    {%- set out = [] -%}
    {%- for k in join['keys'] -%}
        {%- set expr = alias ~ '.' ~ (k.left_ident if side == 'left' else k.right_ident) -%}
        {%- do out.append(skewjoin._sj_cast(expr, k.left_type if side == 'left' else k.right_type, k.type,
            join.get('ansi', true))) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The keys of one side as every routing reads them (the slot's hash, the hot keys' and the groups'
    predicates, the placed slots): the common type's values, a string's without its trailing spaces.
    Spark pads a char(n) key to compare it with a char(m) key ('x  ' = 'x    ') or with a string literal
    (a char(3) 'ab ' is 'ab'), not with a string column, and DESCRIBE QUERY calls char(n) string: keys
    the join matches must route alike on both sides (keys it does not match may route alike too). -#}
{% macro _sj_route_keys(join, side, alias) -%}
    {%- set out = [] -%}
    {%- for expr in skewjoin._sj_common_keys(join, side, alias) -%}
        {%- set k = join['keys'][loop.index0] -%}
        {%- do out.append(('rtrim(' ~ expr ~ ')') if skewjoin._sj_type_kind(k.type) == 'string' else expr) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The key columns of one side, as they are (no cast). -#}
{% macro _sj_side_keys(join, side, alias) -%}
    {%- set out = [] -%}
    {%- for k in join['keys'] -%}
        {%- do out.append(alias ~ '.' ~ (k.left_ident if side == 'left' else k.right_ident)) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- A deterministic hash of a whole row (columns that can be hashed). -#}
{% macro _sj_row_hash(columns, alias) -%}
    {%- set parts = [] -%}
    {%- for c in columns if not (c.type.startswith('map<') or c.type.startswith('map(')) -%}
        {%- do parts.append(alias ~ '.' ~ skewjoin._sj_ident(c.name)) -%}
    {%- endfor -%}
    {{- return('xxhash64(' ~ (parts | join(', ') if parts else "'sj'") ~ ')') -}}
{%- endmacro %}


{#- A key's literal as routing compares it (`_sj_route_keys`): a string's without its trailing spaces
    (a plain literal's spaces before its closing quote; `_sj_quote_string` writes any other string
    as concat(), which rtrim() wraps). -#}
{% macro _sj_route_literal(literal, data_type) -%}
    {%- if skewjoin._sj_type_kind(data_type) != 'string' -%}
        {{- return(literal) -}}
    {%- elif modules.re.fullmatch("'[^'\\\\]*'", literal) -%}
        {{- return(modules.re.sub(" +'$", "'", literal)) -}}
    {%- endif -%}
    {{- return('rtrim(' ~ literal ~ ')') -}}
{%- endmacro %}

{#- Resolve the request against the real columns (needs `execute`; reads
    column lists only, with DESCRIBE QUERY): the keys of every dimension, its
    filter's references and the output columns. -#}

{% macro _sj_star_columns_text(columns) -%}
    {{- return(columns | map(attribute='name') | join(', ')) -}}
{%- endmacro %}


{#- The keys of one dimension: [{'fact', 'dim', 'fact_type', 'dim_type'}]. -#}
{% macro _sj_star_resolve_keys(spec, d, dim_columns) -%}
    {%- set fa = spec.fact_alias -%}
    {%- set keys = [] -%}
    {%- for pair in d.pairs -%}
        {%- set fc = skewjoin._sj_find_column(spec.fact_columns, pair[0]) -%}
        {%- set dc = skewjoin._sj_find_column(dim_columns, pair[1]) -%}
        {%- set right_form = skewjoin._sj_pair_right_form(pair, spec.fact_columns, fc, dim_columns, dc) -%}
        {%- if fc is none -%}
            {%- set problem -%}
column '{{ pair[0] }}' is not a column of the fact ({{ fa }}){{ skewjoin._sj_did_you_mean(pair[0],
spec.fact_columns | map(attribute='name') | list) }}; its columns are:
{{ skewjoin._sj_star_columns_text(spec.fact_columns) }}
            {%- endset -%}
            {%- do skewjoin._sj_raise('star_join', d.arg ~ '.on', problem, right_form) -%}
        {%- endif -%}
        {%- if dc is none -%}
            {%- set problem -%}
column '{{ pair[1] }}' is not a column of the dimension {{ d.alias }} ({{ d.input.label }}){{
skewjoin._sj_did_you_mean(pair[1], dim_columns | map(attribute='name') | list) }}; its columns are:
{{ skewjoin._sj_star_columns_text(dim_columns) }}
            {%- endset -%}
            {%- do skewjoin._sj_raise('star_join', d.arg ~ '.on', problem, right_form) -%}
        {%- endif -%}
        {#- a date or timestamp against a boolean or a number: no ANSI mode compares them (checked on Spark
            4.3), and Spark refuses the join when it runs -#}
        {%- set kinds = [skewjoin._sj_type_kind(fc.type), skewjoin._sj_type_kind(dc.type)] -%}
        {%- set datetime = ('date', 'timestamp') -%}
        {%- set scalar = ('boolean', 'integral', 'decimal', 'fractional') -%}
        {%- if (kinds[0] in datetime and kinds[1] in scalar) or (kinds[1] in datetime and kinds[0] in scalar) -%}
            {%- set others = dim_columns | rejectattr('name', 'eq', dc.name) | list -%}
            {%- set better = skewjoin._sj_suggest_column(others, fc.name, fc.name, fc.type) if others else dc.name -%}
            {%- set problem -%}
fact column {{ fc.name }} ({{ fc.type }}) and {{ d.alias }}.{{ dc.name }} ({{ dc.type }}) have types Spark cannot
compare; join on a key of a comparable type, or cast one side in a subquery so both keys share a type
            {%- endset -%}
            {%- do skewjoin._sj_raise('star_join', d.arg ~ '.on', problem, "[['" ~ fc.name ~ "', '" ~ better ~ "']]") -%}
        {%- endif -%}
        {%- do keys.append({'fact': fc.name, 'dim': dc.name, 'fact_type': fc.type, 'dim_type': dc.type}) -%}
    {%- endfor -%}
    {{- return(keys) -}}
{%- endmacro %}


{#- A dimension's filter sees only that dimension. -#}
{% macro _sj_star_check_filter(d, dim_columns) -%}
    {%- set argument = d.arg ~ '.filter' -%}
    {%- for ref in skewjoin._sj_expr_refs(d.filter) -%}
        {%- if ref.alias | lower != d.alias | lower and skewjoin._sj_find_column(dim_columns, ref.alias) is none -%}
            {%- set problem -%}
the filter uses '{{ ref.alias }}.{{ ref.column }}', but a dimension's filter sees only that dimension, here named
'{{ d.alias }}'; write {{ d.alias }}.<column> or bare column names
            {%- endset -%}
            {%- do skewjoin._sj_raise('star_join', argument, problem, '"' ~ d.alias ~ ".region = 'EU'\"") -%}
        {%- elif ref.alias | lower == d.alias | lower and skewjoin._sj_find_column(dim_columns, ref.column) is none -%}
            {%- set problem -%}
the filter uses '{{ ref.alias }}.{{ ref.column }}', but {{ d.alias }} has no column {{ ref.column }}; its columns
are: {{ skewjoin._sj_star_columns_text(dim_columns) }}
            {%- endset -%}
            {%- set first = (dim_columns | first).name if dim_columns else 'region' -%}
            {%- do skewjoin._sj_raise('star_join', argument, problem,
                '"' ~ d.alias ~ '.' ~ skewjoin._sj_ident(first) ~ ' is not null"') -%}
        {%- endif -%}
    {%- endfor -%}
{%- endmacro %}


{% macro _sj_star_resolve(spec, columns) -%}
    {%- do spec.update({'fact_columns': skewjoin._sj_columns(spec.fact['from'])}) -%}
    {%- for d in spec.dims -%}
        {%- set dim_columns = skewjoin._sj_columns(d.input['from']) -%}
        {%- set keys = skewjoin._sj_star_resolve_keys(spec, d, dim_columns) -%}
        {%- if d.filter is not none -%}
            {%- do skewjoin._sj_star_check_filter(d, dim_columns) -%}
        {%- endif -%}
        {%- for c in d.columns_wanted or [] if skewjoin._sj_find_column(dim_columns, c) is none -%}
            {%- set problem -%}
'{{ c }}' is not a column of the dimension {{ d.alias }}{{ skewjoin._sj_did_you_mean(c,
dim_columns | map(attribute='name') | list) }}; its columns are: {{ skewjoin._sj_star_columns_text(dim_columns) }}
            {%- endset -%}
            {%- set better = skewjoin._sj_suggest_column(dim_columns, c, c, none) -%}
            {%- set fixed = [] -%}
            {%- for w in d.columns_wanted -%}{%- do fixed.append(better if w == c else w) -%}{%- endfor -%}
            {%- do skewjoin._sj_raise('star_join', d.arg ~ '.columns', problem,
                "['" ~ (fixed | join("', '")) ~ "']") -%}
        {%- endfor -%}
        {%- do d.update({'columns': dim_columns, 'keys': keys}) -%}
    {%- endfor -%}
    {%- do spec.update(skewjoin._sj_star_select_list(spec, columns)) -%}
    {{- return(spec) -}}
{%- endmacro %}


{#- The output name of a select expression when it can be read off
    (`x.col`, `col`, `... as name`, `... name`), else none. -#}
{% macro _sj_star_output_name(item) -%}
    {%- set name = '([A-Za-z_][A-Za-z0-9_]*|`[^`]+`)' -%}
    {%- set m = modules.re.search('(?:\\s+as\\s+|\\s+|^\\s*(?:' ~ name ~ '\\s*\\.\\s*)?)' ~ name ~ '\\s*$', item,
        flags=modules.re.I) -%}
    {{- return(m.group(2).strip('`') | lower if m else none) -}}
{%- endmacro %}


{#- Check the argument `columns` (select expressions using the aliases) and
    return them trimmed. -#}
{% macro _sj_star_explicit_columns(spec, columns) -%}
    {%- set fa = spec.fact_alias -%}
    {%- set example = "columns=['" ~ fa ~ ".*']" -%}
    {%- set items = [columns] if columns is string else columns -%}
    {%- if items is mapping or items is not iterable or items | length == 0 -%}
        {%- do skewjoin._sj_raise('star_join', 'columns',
            'expected a non-empty list of select expressions using the aliases; got ' ~ columns, example) -%}
    {%- endif -%}
    {%- set by_alias = {fa | lower: {'columns': spec.fact_columns, 'join_type': none}} -%}
    {%- for d in spec.dims -%}
        {%- do by_alias.update({d.alias | lower: {'columns': d.columns, 'join_type': d.join_type}}) -%}
    {%- endfor -%}
    {%- set all_aliases = [fa] + (spec.dims | map(attribute='alias') | list) -%}
    {%- set out = [] -%}
    {%- for item in items -%}
        {%- do skewjoin._sj_check_fragment('star_join', 'columns', item, example, aggregates=true) -%}
        {%- for ref in skewjoin._sj_expr_refs(item) -%}
            {%- set side = by_alias.get(ref.alias | lower) -%}
            {%- if side is none -%}
                {%- set problem -%}
'{{ item }}' uses the alias '{{ ref.alias }}', which names nothing here{{ skewjoin._sj_did_you_mean(ref.alias,
all_aliases) }}; the aliases are {{ all_aliases | join(', ') }}
                {%- endset -%}
                {%- do skewjoin._sj_raise('star_join', 'columns', problem, example) -%}
            {%- elif side.join_type is not none and not skewjoin._sj_join_semantics(side.join_type).returns_right -%}
                {%- set problem -%}
'{{ item }}' selects from {{ ref.alias }}, but a {{ side.join_type }} join returns only the rows of the fact
                {%- endset -%}
                {%- do skewjoin._sj_raise('star_join', 'columns', problem, example) -%}
            {%- elif ref.column != '*' and skewjoin._sj_find_column(side['columns'], ref.column) is none -%}
                {%- set problem -%}
'{{ item }}': {{ ref.alias }} has no column '{{ ref.column }}'{{ skewjoin._sj_did_you_mean(ref.column,
side['columns'] | map(attribute='name') | list) }}; its columns are:
{{ skewjoin._sj_star_columns_text(side['columns']) }}
                {%- endset -%}
                {%- do skewjoin._sj_raise('star_join', 'columns', problem, example) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- do out.append(item | trim) -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}


{#- The output columns, in this order:
      - the argument `columns` (select expressions using the aliases) if
        given, else every fact column;
      - then, for each dimension in the order given, its `columns` if set;
        without the argument `columns` a dimension without `columns` adds its
        non-key columns (all of them for a right or full join, whose fact keys
        are NULL on unmatched dimension rows);
    a dimension column whose name is already taken is renamed to a free
    name (output_columns.sql; said in the decision record). -#}
{% macro _sj_star_select_list(spec, columns) -%}
    {%- set fa = spec.fact_alias -%}
    {%- set out = skewjoin._sj_new_output() -%}
    {%- if columns is none -%}
        {%- do skewjoin._sj_add_output_columns(out, fa, spec.fact_columns) -%}
    {%- else -%}
        {%- for item in skewjoin._sj_star_explicit_columns(spec, columns) -%}
            {%- do out.select_list.append(item) -%}
            {%- set name = skewjoin._sj_star_output_name(item) -%}
            {%- if name is not none -%}{%- do out.taken.append(name) -%}{%- endif -%}
            {#- `<alias>.*` takes every name of that side -#}
            {%- set star = modules.re.fullmatch('\\s*' ~ skewjoin._sj_ref_pattern('[*]') ~ '\\s*', item) -%}
            {%- set starred = (star.group(1).strip('`') | lower) if star is not none else none -%}
            {%- for side in [{'alias': fa, 'columns': spec.fact_columns}] + spec.dims
                    if starred is not none and (side.alias | lower) == starred -%}
                {%- for c in side['columns'] -%}{%- do out.taken.append(c.name | lower) -%}{%- endfor -%}
            {%- endfor -%}
        {%- endfor -%}
    {%- endif -%}
    {%- for d in spec.dims if skewjoin._sj_join_semantics(d.join_type).returns_right -%}
        {%- set key_names = d['keys'] | map(attribute='dim') | map('lower') | list -%}
        {%- set wanted = [] -%}
        {%- if d.columns_wanted is not none -%}
            {%- for c in d.columns_wanted -%}
                {%- do wanted.append(skewjoin._sj_find_column(d.columns, c)) -%}
            {%- endfor -%}
        {%- elif columns is not none -%}
        {%- elif d.join_type in ('right', 'full') -%}
            {%- do wanted.extend(d.columns) -%}
        {%- else -%}
            {%- for c in d.columns if (c.name | lower) not in key_names -%}{%- do wanted.append(c) -%}{%- endfor -%}
        {%- endif -%}
        {%- do skewjoin._sj_add_output_columns(out, d.alias, wanted, qualified=true) -%}
    {%- endfor -%}
    {{- return({'select_list': out.select_list, 'renamed': out.renamed}) -}}
{%- endmacro %}

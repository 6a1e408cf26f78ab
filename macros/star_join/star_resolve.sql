{#- Resolve the request against the real columns (needs `execute`): the keys
    of every dimension, its filter's references and the output columns. -#}

{% macro _sj_star_columns_text(columns) -%}
    {{- return(columns | map(attribute='name') | join(', ')) -}}
{%- endmacro %}


{% macro _sj_star_resolve(spec, columns) -%}
    {%- set fa = spec.fact_alias -%}
    {%- set fact_columns = skewjoin._sj_columns(spec.fact['from']) -%}
    {%- do spec.update({'fact_columns': fact_columns}) -%}
    {%- for d in spec.dims -%}
        {%- set dim_columns = skewjoin._sj_columns(d.input['from']) -%}
        {%- set keys = [] -%}
        {%- for pair in d.pairs -%}
            {%- set fc = skewjoin._sj_find_column(fact_columns, pair[0]) -%}
            {%- set dc = skewjoin._sj_find_column(dim_columns, pair[1]) -%}
            {%- if fc is none -%}
                {%- do skewjoin._sj_raise('star_join', d.arg ~ '.on', "column '" ~ pair[0] ~ "' is not a column of the fact (" ~ fa ~ "); its columns are: " ~ skewjoin._sj_star_columns_text(fact_columns), "'on': [['" ~ ((fact_columns | first).name if fact_columns else 'id') ~ "', '" ~ pair[1] ~ "']]  ([fact column, dimension column])") -%}
            {%- endif -%}
            {%- if dc is none -%}
                {%- do skewjoin._sj_raise('star_join', d.arg ~ '.on', "column '" ~ pair[1] ~ "' is not a column of the dimension " ~ d.alias ~ ' (' ~ d.input.label ~ '); its columns are: ' ~ skewjoin._sj_star_columns_text(dim_columns), "'on': [['" ~ pair[0] ~ "', '" ~ ((dim_columns | first).name if dim_columns else 'id') ~ "']]  ([fact column, dimension column])") -%}
            {%- endif -%}
            {%- do keys.append({'fact': fc.name, 'dim': dc.name, 'fact_type': fc.type, 'dim_type': dc.type}) -%}
        {%- endfor -%}
        {%- if d.filter is not none -%}
            {%- for ref in skewjoin._sj_expr_refs(d.filter) -%}
                {%- if ref.alias | lower != d.alias | lower and skewjoin._sj_find_column(dim_columns, ref.alias) is none -%}
                    {%- do skewjoin._sj_raise('star_join', d.arg ~ '.filter', "the filter uses '" ~ ref.alias ~ '.' ~ ref.column ~ "', but a dimension's filter sees only that dimension, here named '" ~ d.alias ~ "'; write " ~ d.alias ~ '.<column> or bare column names', "'filter': \"" ~ d.alias ~ ".region = 'EU'\"") -%}
                {%- elif ref.alias | lower == d.alias | lower and skewjoin._sj_find_column(dim_columns, ref.column) is none -%}
                    {%- do skewjoin._sj_raise('star_join', d.arg ~ '.filter', "the filter uses '" ~ ref.alias ~ '.' ~ ref.column ~ "', but " ~ d.alias ~ ' has no column ' ~ ref.column ~ '; its columns are: ' ~ skewjoin._sj_star_columns_text(dim_columns), "'filter': \"" ~ d.alias ~ "." ~ ((dim_columns | first).name if dim_columns else 'region') ~ " is not null\"") -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
        {%- if d.columns_wanted is not none -%}
            {%- if d.join_type in ('left semi', 'left anti') and d.columns_wanted | length > 0 -%}
                {%- do skewjoin._sj_raise('star_join', d.arg ~ '.columns', 'a ' ~ d.join_type ~ ' join returns only the rows of the fact, so ' ~ d.alias ~ ' has no columns to select', "'columns': []") -%}
            {%- endif -%}
            {%- for c in d.columns_wanted if skewjoin._sj_find_column(dim_columns, c) is none -%}
                {%- do skewjoin._sj_raise('star_join', d.arg ~ '.columns', "'" ~ c ~ "' is not a column of the dimension " ~ d.alias ~ '; its columns are: ' ~ skewjoin._sj_star_columns_text(dim_columns), "'columns': ['" ~ ((dim_columns | first).name if dim_columns else 'name') ~ "']") -%}
            {%- endfor -%}
        {%- endif -%}
        {%- do d.update({'columns': dim_columns, 'keys': keys}) -%}
    {%- endfor -%}
    {%- do spec.update(skewjoin._sj_star_select_list(spec, columns)) -%}
    {{- return(spec) -}}
{%- endmacro %}


{#- The output columns: the argument `columns` (select expressions using the
    aliases), or by default every fact column, then each dimension's
    non-key columns (its `columns` if given; the key columns too for a right
    or full join, whose fact keys are NULL on unmatched dimension rows), a
    name already taken renamed <alias>_<name>. -#}
{% macro _sj_star_select_list(spec, columns) -%}
    {%- set fa = spec.fact_alias -%}
    {%- set select_list = [] -%}
    {%- set renamed = [] -%}
    {%- set example = "columns=['" ~ fa ~ ".sale_id', '" ~ fa ~ ".amount', 's.store_name', 'd.year as sale_year']" -%}
    {%- if columns is none -%}
        {%- set taken = [] -%}
        {%- for c in spec.fact_columns -%}
            {%- do select_list.append(fa ~ '.' ~ skewjoin._sj_ident(c.name)) -%}
            {%- do taken.append(c.name | lower) -%}
        {%- endfor -%}
        {%- for d in spec.dims if d.join_type not in ('left semi', 'left anti') -%}
            {%- set key_names = d['keys'] | map(attribute='dim') | map('lower') | list -%}
            {%- if d.columns_wanted is not none -%}
                {%- set wanted = [] -%}
                {%- for c in d.columns_wanted -%}{%- do wanted.append(skewjoin._sj_find_column(d.columns, c)) -%}{%- endfor -%}
            {%- elif d.join_type in ('right', 'full') -%}
                {%- set wanted = d.columns -%}
            {%- else -%}
                {%- set wanted = [] -%}
                {%- for c in d.columns if (c.name | lower) not in key_names -%}{%- do wanted.append(c) -%}{%- endfor -%}
            {%- endif -%}
            {%- for c in wanted -%}
                {%- if (c.name | lower) in taken -%}
                    {%- set new_name = d.alias ~ '_' ~ c.name -%}
                    {%- if (new_name | lower) in taken -%}
                        {%- do skewjoin._sj_raise('star_join', 'columns', 'the default output would hold two columns named ' ~ new_name ~ ' (' ~ d.alias ~ '.' ~ c.name ~ ' renamed to avoid a clash, and another column of that name); list the output columns yourself', example) -%}
                    {%- endif -%}
                    {%- do select_list.append(d.alias ~ '.' ~ skewjoin._sj_ident(c.name) ~ ' as ' ~ skewjoin._sj_ident(new_name)) -%}
                    {%- do renamed.append(d.alias ~ '.' ~ c.name ~ ' -> ' ~ new_name) -%}
                    {%- do taken.append(new_name | lower) -%}
                {%- else -%}
                    {%- do select_list.append(d.alias ~ '.' ~ skewjoin._sj_ident(c.name)) -%}
                    {%- do taken.append(c.name | lower) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endfor -%}
    {%- else -%}
        {%- set items = [columns] if columns is string else columns -%}
        {%- if items is mapping or items is not iterable or items | length == 0 -%}
            {%- do skewjoin._sj_raise('star_join', 'columns', 'expected a non-empty list of select expressions using the aliases; got ' ~ (columns | string), example) -%}
        {%- endif -%}
        {%- set by_alias = {fa | lower: {'columns': spec.fact_columns, 'join_type': none}} -%}
        {%- for d in spec.dims -%}
            {%- do by_alias.update({d.alias | lower: {'columns': d.columns, 'join_type': d.join_type}}) -%}
        {%- endfor -%}
        {%- set all_aliases = [fa] + (spec.dims | map(attribute='alias') | list) -%}
        {%- for item in items -%}
            {%- do skewjoin._sj_check_fragment('star_join', 'columns', item, example) -%}
            {%- for ref in skewjoin._sj_expr_refs(item) -%}
                {%- set side = by_alias.get(ref.alias | lower) -%}
                {%- if side is none -%}
                    {%- do skewjoin._sj_raise('star_join', 'columns', "'" ~ item ~ "' uses the alias '" ~ ref.alias ~ "', which names nothing here; the aliases are " ~ (all_aliases | join(', ')), example) -%}
                {%- elif side.join_type in ('left semi', 'left anti') -%}
                    {%- do skewjoin._sj_raise('star_join', 'columns', "'" ~ item ~ "' selects from " ~ ref.alias ~ ', but a ' ~ side.join_type ~ ' join returns only the rows of the fact', example) -%}
                {%- elif ref.column != '*' and skewjoin._sj_find_column(side['columns'], ref.column) is none -%}
                    {%- do skewjoin._sj_raise('star_join', 'columns', "'" ~ item ~ "': " ~ ref.alias ~ " has no column '" ~ ref.column ~ "'; its columns are: " ~ skewjoin._sj_star_columns_text(side['columns']), example) -%}
                {%- endif -%}
            {%- endfor -%}
            {%- do select_list.append(item | trim) -%}
        {%- endfor -%}
    {%- endif -%}
    {{- return({'select_list': select_list, 'renamed': renamed}) -}}
{%- endmacro %}

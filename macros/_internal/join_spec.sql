{#- The join being optimized: its two sides, keys, join type and output
    columns, validated and resolved against the sides' real columns. Shared by
    skew_join's strategies so each rule lives in one place. -#}

{% macro _sj_join_types() -%}
    {{- return({
        'inner': 'inner', 'inner join': 'inner', 'join': 'inner',
        'left': 'left', 'left outer': 'left', 'left join': 'left', 'left outer join': 'left',
        'right': 'right', 'right outer': 'right', 'right join': 'right', 'right outer join': 'right',
        'full': 'full', 'full outer': 'full', 'full join': 'full', 'full outer join': 'full', 'outer': 'full',
        'left semi': 'left semi', 'semi': 'left semi', 'left semi join': 'left semi',
        'left anti': 'left anti', 'anti': 'left anti', 'left anti join': 'left anti'
    }) -}}
{%- endmacro %}


{% macro _sj_normalize_join_type(macro_name, join_type) -%}
    {%- set key = modules.re.sub('\\s+', ' ', (join_type | string | lower | trim)) -%}
    {%- set known = skewjoin._sj_join_types() -%}
    {%- if key not in known -%}
        {%- do skewjoin._sj_raise(macro_name, 'join_type', "unknown join type '" ~ join_type ~ "'; supported: inner, left, right, full, left semi, left anti", "join_type='left'") -%}
    {%- endif -%}
    {{- return(known[key]) -}}
{%- endmacro %}


{% macro _sj_sql_join_keyword(join_type) -%}
    {{- return({'inner': 'inner join', 'left': 'left outer join', 'right': 'right outer join',
                'full': 'full outer join', 'left semi': 'left semi join', 'left anti': 'left anti join'}[join_type]) -}}
{%- endmacro %}


{#- [[left_col, right_col], ...] from `on`. -#}
{% macro _sj_parse_on(macro_name, on) -%}
    {%- set example = "on=['customer_id']  or  on=[['customer_id', 'id']]" -%}
    {%- set items = [on] if on is string else on -%}
    {%- if items is none or items is string or items is mapping or items | length == 0 -%}
        {%- do skewjoin._sj_raise(macro_name, 'on', 'expected a non-empty list of column names or [left_column, right_column] pairs; got ' ~ (on | string), example) -%}
    {%- endif -%}
    {%- set pairs = [] -%}
    {%- for item in items -%}
        {%- if item is string and item | trim | length > 0 -%}
            {%- do pairs.append([item | trim, item | trim]) -%}
        {%- elif item is iterable and item is not mapping and item is not string and item | length == 2 and item[0] is string and item[1] is string -%}
            {%- do pairs.append([item[0] | trim, item[1] | trim]) -%}
        {%- else -%}
            {%- do skewjoin._sj_raise(macro_name, 'on', 'each key must be a column name or a [left_column, right_column] pair; got ' ~ (item | string), example) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(pairs) -}}
{%- endmacro %}


{#- Resolve the join: returns a dict with sides, keys (with common types),
    join type and output columns. Needs `execute` (it describes the inputs). -#}
{% macro _sj_resolve_join(macro_name, left, right, on, join_type, columns, left_alias, right_alias) -%}
    {%- for arg, alias in [('left_alias', left_alias), ('right_alias', right_alias)] -%}
        {%- if alias is not string or not modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*', alias) or alias.startswith('sj_') -%}
            {%- do skewjoin._sj_raise(macro_name, arg, 'an alias must be a plain identifier not starting with sj_; got ' ~ (alias | string), arg ~ "='o'") -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if left_alias | lower == right_alias | lower -%}
        {%- do skewjoin._sj_raise(macro_name, 'right_alias', 'the two sides need different aliases; both are ' ~ left_alias, "left_alias='o', right_alias='c'") -%}
    {%- endif -%}
    {%- set jt = skewjoin._sj_normalize_join_type(macro_name, join_type) -%}
    {%- set pairs = skewjoin._sj_parse_on(macro_name, on) -%}
    {%- set left_from = skewjoin._sj_from_text(macro_name, 'left', left) -%}
    {%- set right_from = skewjoin._sj_from_text(macro_name, 'right', right) -%}
    {%- set left_columns = skewjoin._sj_columns(left_from) -%}
    {%- set right_columns = skewjoin._sj_columns(right_from) -%}
    {%- for side_columns, arg in [(left_columns, 'left'), (right_columns, 'right')] -%}
        {%- for c in side_columns if (c.name | lower) in ('sj_group', 'sj_slot') -%}
            {%- do skewjoin._sj_raise(macro_name, arg, "the input has a column named '" ~ c.name ~ "', a name the generated query uses for its own routing; rename it in a subquery", arg ~ "=\"select * except (" ~ c.name ~ "), " ~ c.name ~ " as " ~ c.name ~ "_value from {{ ref('orders') }}\"") -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- set ansi = (skewjoin._sj_spark_conf('spark.sql.ansi.enabled', 'false') | lower) == 'true' -%}
    {%- set keys = [] -%}
    {%- for pair in pairs -%}
        {%- set lc = skewjoin._sj_find_column(left_columns, pair[0]) -%}
        {%- set rc = skewjoin._sj_find_column(right_columns, pair[1]) -%}
        {%- if lc is none -%}
            {%- do skewjoin._sj_raise(macro_name, 'on', "column '" ~ pair[0] ~ "' is not a column of the left side (" ~ left_alias ~ "); its columns are: " ~ (left_columns | map(attribute='name') | join(', ')), "on=[['" ~ ((left_columns | first).name if left_columns else 'id') ~ "', '" ~ pair[1] ~ "']]") -%}
        {%- endif -%}
        {%- if rc is none -%}
            {%- do skewjoin._sj_raise(macro_name, 'on', "column '" ~ pair[1] ~ "' is not a column of the right side (" ~ right_alias ~ "); its columns are: " ~ (right_columns | map(attribute='name') | join(', ')), "on=[['" ~ pair[0] ~ "', '" ~ ((right_columns | first).name if right_columns else 'id') ~ "']]") -%}
        {%- endif -%}
        {%- set common = skewjoin._sj_common_type(lc.type, rc.type, ansi) -%}
        {%- if common is none -%}
            {%- do skewjoin._sj_raise(macro_name, 'on', 'key ' ~ left_alias ~ '.' ~ lc.name ~ ' (' ~ lc.type ~ ') and ' ~ right_alias ~ '.' ~ rc.name ~ ' (' ~ rc.type ~ ') have types Spark cannot compare consistently (ANSI mode ' ~ ('on' if ansi else 'off') ~ '); cast one side in a subquery so both keys share a type', "left=\"select cast(customer_id as bigint) as customer_id, * except (customer_id) from {{ ref('orders') }}\"") -%}
        {%- endif -%}
        {%- do keys.append({
            'left': lc.name, 'right': rc.name, 'left_type': lc.type, 'right_type': rc.type, 'type': common,
            'left_ident': skewjoin._sj_ident(lc.name), 'right_ident': skewjoin._sj_ident(rc.name)
        }) -%}
    {%- endfor -%}
    {#- output columns -#}
    {%- set select_list = [] -%}
    {%- set renamed = [] -%}
    {%- if columns is none -%}
        {%- set taken = [] -%}
        {%- for c in left_columns -%}
            {%- do select_list.append(left_alias ~ '.' ~ skewjoin._sj_ident(c.name)) -%}
            {%- do taken.append(c.name | lower) -%}
        {%- endfor -%}
        {%- if jt not in ('left semi', 'left anti') -%}
            {%- set right_keys = keys | map(attribute='right') | map('lower') | list -%}
            {%- for c in right_columns if (c.name | lower) not in right_keys -%}
                {%- if (c.name | lower) in taken -%}
                    {%- set new_name = right_alias ~ '_' ~ c.name -%}
                    {%- do select_list.append(right_alias ~ '.' ~ skewjoin._sj_ident(c.name) ~ ' as ' ~ skewjoin._sj_ident(new_name)) -%}
                    {%- do renamed.append(c.name ~ ' -> ' ~ new_name) -%}
                    {%- do taken.append(new_name | lower) -%}
                {%- else -%}
                    {%- do select_list.append(right_alias ~ '.' ~ skewjoin._sj_ident(c.name)) -%}
                    {%- do taken.append(c.name | lower) -%}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- else -%}
        {%- set items = [columns] if columns is string else columns -%}
        {%- if items is mapping or items | length == 0 -%}
            {%- do skewjoin._sj_raise(macro_name, 'columns', 'expected a list of select expressions; got ' ~ (columns | string), "columns=['" ~ left_alias ~ ".order_id', '" ~ right_alias ~ ".name as customer_name']") -%}
        {%- endif -%}
        {%- for item in items -%}
            {%- do skewjoin._sj_check_fragment(macro_name, 'columns', item, "columns=['" ~ left_alias ~ ".order_id', '" ~ right_alias ~ ".name as customer_name']") -%}
            {%- for ref in skewjoin._sj_expr_refs(item) -%}
                {%- set side_columns = left_columns if ref.alias | lower == left_alias | lower else (right_columns if ref.alias | lower == right_alias | lower else none) -%}
                {%- if side_columns is none -%}
                    {%- do skewjoin._sj_raise(macro_name, 'columns', "'" ~ item ~ "' uses the alias '" ~ ref.alias ~ "'; the sides are " ~ left_alias ~ ' and ' ~ right_alias, "columns=['" ~ left_alias ~ "." ~ ref.column ~ "']") -%}
                {%- elif ref.column != '*' and skewjoin._sj_find_column(side_columns, ref.column) is none -%}
                    {%- do skewjoin._sj_raise(macro_name, 'columns', "'" ~ item ~ "': " ~ ref.alias ~ " has no column '" ~ ref.column ~ "'; its columns are: " ~ (side_columns | map(attribute='name') | join(', ')), "columns=['" ~ ref.alias ~ "." ~ (side_columns | first).name ~ "']") -%}
                {%- elif jt in ('left semi', 'left anti') and ref.alias | lower == right_alias | lower -%}
                    {%- do skewjoin._sj_raise(macro_name, 'columns', "'" ~ item ~ "' selects from " ~ right_alias ~ ', but a ' ~ jt ~ ' join returns only the rows of ' ~ left_alias, "columns=['" ~ left_alias ~ ".*']") -%}
                {%- endif -%}
            {%- endfor -%}
            {%- do select_list.append(item) -%}
        {%- endfor -%}
    {%- endif -%}
    {{- return({
        'macro': macro_name, 'join_type': jt,
        'left': {'alias': left_alias, 'from': left_from, 'columns': left_columns, 'key_names': keys | map(attribute='left') | list},
        'right': {'alias': right_alias, 'from': right_from, 'columns': right_columns, 'key_names': keys | map(attribute='right') | list},
        'keys': keys, 'select_list': select_list, 'renamed': renamed, 'ansi': ansi
    }) -}}
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
        {%- do out.append(skewjoin._sj_cast(expr, k.left_type if side == 'left' else k.right_type, k.type)) -%}
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


{#- The plain join of the two inputs (what every strategy must equal). -#}
{% macro _sj_plain_join_sql(join, left_from=none, right_from=none) -%}
    {%- set la = join.left.alias -%}
    {%- set ra = join.right.alias -%}
    {%- set sql -%}
select
    {{ join.select_list | join(',\n    ') }}
from {{ left_from or join.left['from'] }} as {{ la }}
{{ skewjoin._sj_sql_join_keyword(join.join_type) }} {{ right_from or join.right['from'] }} as {{ ra }}
    on {{ skewjoin._sj_on_condition(join) }}
    {%- endset -%}
    {{- return(sql) -}}
{%- endmacro %}

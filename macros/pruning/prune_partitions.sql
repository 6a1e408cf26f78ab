{#- The big table's partitions: which columns partition it (DESCRIBE TABLE),
    which partitions exist (SHOW PARTITIONS) and how many of them a predicate
    keeps. Spark does the pruning itself from the literal predicate; the count
    here is for the decision record and is computed by Spark evaluating the
    same predicate over the partition values. -#}

{#- The partition columns of a table, [] when it has none. Needs `execute`. -#}
{% macro _sj_prune_partition_columns(table) -%}
    {%- set result = skewjoin._sj_run_query('describe table ' ~ table, 'metadata') -%}
    {%- set state = namespace(in_section=false) -%}
    {%- set columns = [] -%}
    {%- for row in result.rows -%}
        {%- set name = (row[0] or '') | string | trim -%}
        {%- if name == '# Partition Information' -%}
            {%- set state.in_section = true -%}
        {%- elif state.in_section and name.startswith('#') and name != '# col_name' -%}
            {%- set state.in_section = false -%}
        {%- elif state.in_section and name | length > 0 and not name.startswith('#') -%}
            {%- do columns.append(name) -%}
        {%- elif name | length == 0 -%}
            {%- set state.in_section = false -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(columns) -}}
{%- endmacro %}


{#- Undo Hive's partition path escaping (%XX). -#}
{% macro _sj_prune_unescape(text) -%}
    {%- set out = [] -%}
    {%- set state = namespace(pos=0) -%}
    {%- for m in modules.re.finditer('%([0-9A-Fa-f]{2})', text) -%}
        {%- do out.append(text[state.pos:m.start()]) -%}
        {%- do out.append('%c' | format(m.group(1) | int(base=16))) -%}
        {%- set state.pos = m.end() -%}
    {%- endfor -%}
    {%- do out.append(text[state.pos:]) -%}
    {{- return(out | join('')) -}}
{%- endmacro %}


{#- [{column: value-or-none}] for every partition of the table. -#}
{% macro _sj_prune_list_partitions(table) -%}
    {%- set result = skewjoin._sj_run_query('show partitions ' ~ table, 'metadata') -%}
    {%- set partitions = [] -%}
    {%- for row in result.rows -%}
        {%- set spec = {} -%}
        {%- for part in (row[0] | string).split('/') -%}
            {%- set kv = part.split('=', 1) -%}
            {%- set value = skewjoin._sj_prune_unescape(kv[1]) if kv | length == 2 else none -%}
            {%- set value = none if value == '__HIVE_DEFAULT_PARTITION__' else value -%}
            {%- do spec.update({skewjoin._sj_prune_unescape(kv[0]) | lower: value}) -%}
        {%- endfor -%}
        {%- do partitions.append(spec) -%}
    {%- endfor -%}
    {{- return(partitions) -}}
{%- endmacro %}


{#- How many partitions exist and how many `conjuncts` (SQL over the
    partition columns, qualified by `alias`) keep. Returns
    {'total': n, 'kept': m or none, 'seconds': s}; kept is none when the table
    has more than `max_partitions` partitions (not counted). -#}
{% macro _sj_prune_count_partitions(spec, conjuncts, max_partitions=10000) -%}
    {%- set started = modules.datetime.datetime.now() -%}
    {%- set partitions = skewjoin._sj_prune_list_partitions(spec.big) -%}
    {%- set total = partitions | length -%}
    {%- if total == 0 or total > max_partitions or conjuncts | length == 0 -%}
        {{- return({'total': total, 'kept': (total if conjuncts | length == 0 else (0 if total == 0 else none)),
                    'seconds': (modules.datetime.datetime.now() - started).total_seconds()}) -}}
    {%- endif -%}
    {%- set names = spec.partition_columns -%}
    {%- set rows = [] -%}
    {%- for p in partitions -%}
        {%- set values = [] -%}
        {%- for name in names -%}
            {%- set v = p.get(name | lower) -%}
            {%- do values.append('cast(null as string)' if v is none else skewjoin._sj_quote_string(v)) -%}
        {%- endfor -%}
        {%- do rows.append('(' ~ (values | join(', ')) ~ ')') -%}
    {%- endfor -%}
    {%- set typed = [] -%}
    {%- set raw = [] -%}
    {%- for name in names -%}
        {%- set column = skewjoin._sj_find_column(spec.big_columns, name) -%}
        {%- do raw.append('sj_p' ~ loop.index0) -%}
        {%- set column_type = column.type if column is not none else 'string' -%}
        {%- do typed.append(skewjoin._sj_cast('sj_p' ~ loop.index0, 'string', column_type)
            ~ ' as ' ~ skewjoin._sj_ident(name)) -%}
    {%- endfor -%}
    {%- set query -%}
select count(*) as sj_kept
from (
    select
        {{ typed | join(',\n        ') }}
    from values
        {{ rows | join(',\n        ') }}
        as sj_parts ({{ raw | join(', ') }})
) as {{ spec.alias or 'sj_big' }}
where {{ conjuncts | join('\n    and ') }}
    {%- endset -%}
    {%- set result = skewjoin._sj_run_query(query, 'metadata') -%}
    {{- return({'total': total, 'kept': result.rows[0][0] | int,
                'seconds': (modules.datetime.datetime.now() - started).total_seconds()}) -}}
{%- endmacro %}

{#- skew_join_chain's arguments outside the checks: the SQL it returns at
    parse time, and the right form of `joins` built from the user's own
    relations. -#}

{#- Whether `_sj_from_text` accepts `obj` (so parse time can render it
    without raising). -#}
{% macro _sj_input_renders(obj) -%}
    {{- return(skewjoin._sj_is_relation(obj) or (obj is string and obj | trim | length > 0
        and ((skewjoin._sj_is_query_text(obj) and skewjoin._sj_query_text_problem(obj) is none)
             or modules.re.fullmatch('[A-Za-z0-9_`.]+', obj | trim) is not none))) -}}
{%- endmacro %}

{#- Parse time (execute false): SQL naming every relation the chain reads,
    with no check and no error; the arguments are checked when the model
    compiles, so a bad chain stops that model only. -#}
{% macro _sj_chain_parse_sql(left, joins, left_alias) -%}
    {%- set parts = [] -%}
    {%- set objs = [left] -%}
    {%- if joins is iterable and joins is not string and joins is not mapping -%}
        {%- for entry in joins if entry is mapping -%}{%- do objs.append(entry.get('relation')) -%}{%- endfor -%}
    {%- endif -%}
    {%- for obj in objs -%}
        {%- if skewjoin._sj_input_renders(obj) -%}
            {%- do parts.append(skewjoin._sj_from_text('skew_join_chain', 'joins', obj) ~ ' as sj_side_' ~ loop.index0) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if not parts -%}
        {{- return('select 1 as sj_parse_time') -}}
    {%- endif -%}
    {{- return('select * from ' ~ (parts | join(' cross join '))) -}}
{%- endmacro %}


{#- A `joins` value in the right form, from the user's own relations: their
    entries' relations (or the large side) with distinct aliases. -#}
{% macro _sj_chain_example(joins, left_alias, left) -%}
    {%- set relations = [] -%}
    {%- set entries = joins if (joins is iterable and joins is not string and joins is not mapping) else
        ([joins] if joins is mapping else []) -%}
    {%- for entry in entries -%}
        {%- set parts = skewjoin._sj_entry_example_parts(entry, none, none) -%}
        {%- if parts.relation is not none -%}{%- do relations.append(parts.relation) -%}{%- endif -%}
    {%- endfor -%}
    {%- set fallback = skewjoin._sj_entry_example_parts({'relation': left}, 'my_table', none).relation -%}
    {%- for i in range(2 - (relations | length)) -%}{%- do relations.append(fallback) -%}{%- endfor -%}
    {%- set aliases = [] -%}
    {%- for name in ['b', 'c', 'd', 'e', 'g', 'h'] if name != left_alias | lower -%}
        {%- do aliases.append(name) -%}
    {%- endfor -%}
    {%- set items = [] -%}
    {%- for r in relations[:6] -%}
        {%- do items.append("{'relation': '" ~ r ~ "', 'alias': '" ~ aliases[loop.index0] ~ "'"
            ~ (", 'join_type': 'left'" if loop.first else '') ~ '}') -%}
    {%- endfor -%}
    {{- return('[' ~ (items | join(', ')) ~ ']') -}}
{%- endmacro %}

{#- The one rule for default output columns: a side's columns are added in
    order, and a column whose name is already taken is renamed to the first
    free name of <alias>_<name>, <alias>_<name>_2, <alias>_<name>_3, ...
    (names compared case-insensitively, as Spark does). Used by skew_join,
    skew_join_chain and star_join. -#}

{#- An empty output: {'select_list', 'taken' (lower-case names), 'renamed'
    (the record's "old -> new" entries)}. -#}
{% macro _sj_new_output() -%}
    {{- return({'select_list': [], 'taken': [], 'renamed': []}) -}}
{%- endmacro %}


{#- Add the `columns` of the side `alias` to `out` (from `_sj_new_output`).
    `qualified`: the record names a renamed column with its alias
    (`d.year -> d_year`) rather than alone (`year -> d_year`). -#}
{% macro _sj_add_output_columns(out, alias, columns, qualified=false) -%}
    {%- for c in columns -%}
        {%- if (c.name | lower) in out.taken -%}
            {%- set free = namespace(name=alias ~ '_' ~ c.name, n=1) -%}
            {%- for _ in range(out.taken | length) if (free.name | lower) in out.taken -%}
                {%- set free.n = free.n + 1 -%}
                {%- set free.name = alias ~ '_' ~ c.name ~ '_' ~ free.n -%}
            {%- endfor -%}
            {%- do out.select_list.append(alias ~ '.' ~ skewjoin._sj_ident(c.name) ~ ' as '
                ~ skewjoin._sj_ident(free.name)) -%}
            {%- do out.renamed.append((alias ~ '.' if qualified else '') ~ c.name ~ ' -> ' ~ free.name) -%}
            {%- do out.taken.append(free.name | lower) -%}
        {%- else -%}
            {%- do out.select_list.append(alias ~ '.' ~ skewjoin._sj_ident(c.name)) -%}
            {%- do out.taken.append(c.name | lower) -%}
        {%- endif -%}
    {%- endfor -%}
    {{- return(out) -}}
{%- endmacro %}

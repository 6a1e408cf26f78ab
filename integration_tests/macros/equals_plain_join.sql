{#- Data test: the model's rows equal, as a multiset, the plain Spark join of
    the same inputs, and the model has at least `min_rows` rows (0 for a
    model that is empty by design). Returns the rows that differ (missing or
    extra, with multiplicity), so the test fails on any lost or
    duplicated row, and a row when the model has fewer than `min_rows`.
    The plain join is written here from the arguments, independently of the
    package's macros. -#}
{% test equals_plain_join(model, left, right, keys, join_type='inner', columns=none, left_alias='a', right_alias='b',
                          min_rows=1) %}
    {%- set conditions = [] -%}
    {%- for key in keys -%}
        {%- set pair = [key, key] if key is string else key -%}
        {%- do conditions.append(left_alias ~ '.' ~ pair[0] ~ ' = ' ~ right_alias ~ '.' ~ pair[1]) -%}
    {%- endfor -%}
    {%- set expected -%}
select
        {{ (columns or [left_alias ~ '.*']) | join(',\n        ') }}
    from {{ left }} as {{ left_alias }}
    {{ join_type }} join {{ right }} as {{ right_alias }}
        on {{ conditions | join(' and ') }}
    {%- endset %}
{{ multiset_difference(model, expected, min_rows) }}
{% endtest %}


{#- Data test: the model's rows equal, as a multiset, the plain chain of
    Spark joins `left` JOIN each of `joins` ({'relation', 'alias',
    'join_type', 'keys'}: keys a list of [left column, right column] pairs, or
    of names both sides share), written here from the arguments; and the model
    has at least `min_rows` rows. -#}
{% test equals_plain_chain(model, left, joins, columns, left_alias='a', min_rows=1) %}
    {%- set parts = ['select', '    ' ~ (columns | join(',\n    ')), 'from ' ~ left ~ ' as ' ~ left_alias] -%}
    {%- for entry in joins -%}
        {%- set conditions = [] -%}
        {%- for key in entry['keys'] -%}
            {%- set pair = [key, key] if key is string else key -%}
            {%- do conditions.append(left_alias ~ '.' ~ pair[0] ~ ' = ' ~ entry.alias ~ '.' ~ pair[1]) -%}
        {%- endfor -%}
        {%- do parts.append((entry.join_type or 'inner') ~ ' join ' ~ entry.relation ~ ' as ' ~ entry.alias) -%}
        {%- do parts.append('    on ' ~ (conditions | join(' and '))) -%}
    {%- endfor -%}
{{ multiset_difference(model, parts | join('\n'), min_rows) }}
{% endtest %}

{#- The relation and keys of a list entry (a star_join dimension, a
    prune_predicate small relation) as a "Right form" example writes them:
    the relation as its table name (a value `relation` accepts) and `on` as
    given when usable, else the defaults; so that the example compiles when
    pasted in place of the entry. Returns {'relation': text, 'on': text}. -#}
{% macro _sj_entry_example_parts(entry, default_relation, default_on) -%}
    {%- set entry = entry if entry is mapping else {} -%}
    {%- set found = namespace(relation=entry.get('relation')) -%}
    {#- `relation` misspelled (`relaton`): the value under the misspelled key is still the user's relation -#}
    {%- for key in entry if found.relation is none and key is string and key != 'relation'
            and skewjoin._sj_edit_distance(key | lower, 'relation') <= 2 -%}
        {%- set found.relation = entry[key] -%}
    {%- endfor -%}
    {%- set relation = found.relation -%}
    {%- set relation_text = default_relation -%}
    {%- if skewjoin._sj_is_relation(relation) or (relation is string and relation | trim
           and not skewjoin._sj_is_query_text(relation)) -%}
        {%- set relation_text = relation | string | trim -%}
    {%- endif -%}
    {%- set on = entry.get('on') -%}
    {%- set on_ok = on is string or (on is iterable and on is not mapping and on | length > 0
        and on | reject('string') | list | length == 0) -%}
    {%- set on_text = tojson([on] if on is string else on) if on_ok else default_on -%}
    {{- return({'relation': relation_text, 'on': on_text}) -}}
{%- endmacro %}

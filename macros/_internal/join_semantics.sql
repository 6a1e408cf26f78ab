{#- Join semantics: what each join type means for the rows of its two sides.
    One table, asked by every capability (skew groups, hot keys, star join,
    pruning) instead of each writing its own copy of the rules.

    For `left <join_type> right`:
      keeps_unmatched  sides whose rows that match nothing are still returned
                       (an outer join's preserved sides; for a left anti join
                       the left rows it returns are exactly those)
      no_multicast     sides whose rows must never be copied: every copy of
                       one of their rows could be returned (a preserved side,
                       or the side whose rows a semi or anti join returns)
      broadcastable    sides a broadcast hash join may build (Hive's map-join
                       rule: never a side whose unmatched rows must be kept,
                       a full outer join never)
      returns_right    whether the right side's columns are in the output
      keyword          the SQL spelling of the join
-#}

{% macro _sj_join_semantics(join_type) -%}
    {%- set table = {
        'inner': {'keeps_unmatched': [], 'no_multicast': [], 'broadcastable': ['left', 'right'],
                  'returns_right': true, 'keyword': 'inner join'},
        'left': {'keeps_unmatched': ['left'], 'no_multicast': ['left'], 'broadcastable': ['right'],
                 'returns_right': true, 'keyword': 'left outer join'},
        'right': {'keeps_unmatched': ['right'], 'no_multicast': ['right'], 'broadcastable': ['left'],
                  'returns_right': true, 'keyword': 'right outer join'},
        'full': {'keeps_unmatched': ['left', 'right'], 'no_multicast': ['left', 'right'], 'broadcastable': [],
                 'returns_right': true, 'keyword': 'full outer join'},
        'left semi': {'keeps_unmatched': [], 'no_multicast': ['left'], 'broadcastable': ['right'],
                      'returns_right': false, 'keyword': 'left semi join'},
        'left anti': {'keeps_unmatched': ['left'], 'no_multicast': ['left'], 'broadcastable': ['right'],
                      'returns_right': false, 'keyword': 'left anti join'}
    } -%}
    {%- set row = {'join_type': join_type} -%}
    {%- do row.update(table[join_type]) -%}
    {{- return(row) -}}
{%- endmacro %}


{#- Every spelling a user may write, and the join type it means. -#}
{% macro _sj_join_type_spellings() -%}
    {{- return({
        'inner': 'inner', 'inner join': 'inner', 'join': 'inner',
        'left': 'left', 'left outer': 'left', 'left join': 'left', 'left outer join': 'left',
        'right': 'right', 'right outer': 'right', 'right join': 'right', 'right outer join': 'right',
        'full': 'full', 'full outer': 'full', 'full join': 'full', 'full outer join': 'full', 'outer': 'full',
        'left semi': 'left semi', 'semi': 'left semi', 'left semi join': 'left semi', 'semi join': 'left semi',
        'left anti': 'left anti', 'anti': 'left anti', 'left anti join': 'left anti', 'anti join': 'left anti'
    }) -}}
{%- endmacro %}


{#- The join type `join_type` spells (any spelling above, any case and
    spacing), or a compile error naming `argument`. -#}
{% macro _sj_normalize_join_type(macro_name, argument, join_type, allowed=none) -%}
    {%- set key = modules.re.sub('\\s+', ' ', (join_type | string | lower | trim)) -%}
    {%- set spellings = skewjoin._sj_join_type_spellings() -%}
    {%- set names = allowed or ['inner', 'left', 'right', 'full', 'left semi', 'left anti'] -%}
    {%- if key not in spellings -%}
        {%- set problem -%}
unknown join type '{{ join_type }}'{{ skewjoin._sj_did_you_mean(key, spellings.keys() | list) }};
supported: {{ names | join(', ') }} (also spelled with `outer` and `join`, as in SQL: 'left outer join')
        {%- endset -%}
        {#- the right form: the type a near miss spells ('lfet': left), else the first supported (inner) -#}
        {%- set near = skewjoin._sj_nearest(key, spellings.keys() | list) -%}
        {%- set value = "'" ~ (spellings[near] if near is not none and spellings[near] in names else names[0]) ~ "'" -%}
        {%- do skewjoin._sj_raise(macro_name, argument, problem, skewjoin._sj_example_for(argument, value)) -%}
    {%- endif -%}
    {{- return(spellings[key]) -}}
{%- endmacro %}

-- int big column, bigint small keys: a small key outside the int range
-- (4294967303, which wraps to 7) can never match and is dropped, never cast.
{%- set small_keys = "select rid, k_big from " ~ ref('typed_right') ~ " where region = 'EU' union all select -1 as rid, 4294967303 as k_big" %}
with small_keys as (
    {{ small_keys }}
)

select
    a.id,
    a.k_int,
    b.rid
from {{ ref('typed_left') }} as a
inner join small_keys as b
    on a.k_int = b.k_big
where {{ skewjoin.prune_predicate(ref('typed_left'), 'a', [
        {'relation': small_keys, 'on': [['k_int', 'k_big']]}
    ]) }}

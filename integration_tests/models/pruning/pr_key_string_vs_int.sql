-- Keys of a filtered small relation as literals of the big column's type:
-- typed_left.k_str = typed_right.k_int.
select
    a.id,
    a.k_str,
    b.rid
from {{ ref('typed_left') }} as a
inner join {{ ref('typed_right') }} as b
    on a.k_str = b.k_int
where
    b.region = 'EU'
    and {{ skewjoin.prune_predicate(ref('typed_left'), 'a', [
        {'relation': ref('typed_right'), 'filter': "region = 'EU'", 'on': [['k_str', 'k_int']]}
    ]) }}

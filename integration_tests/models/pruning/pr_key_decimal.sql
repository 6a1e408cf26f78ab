-- Keys of a filtered small relation as literals of the big column's type:
-- typed_left.k_dec = typed_right.k_dec2.
select
    a.id,
    a.k_dec,
    b.rid
from {{ ref('typed_left') }} as a
inner join {{ ref('typed_right') }} as b
    on a.k_dec = b.k_dec2
where
    b.region = 'EU'
    and {{ skewjoin.prune_predicate(ref('typed_left'), 'a', [
        {'relation': ref('typed_right'), 'filter': "region = 'EU'", 'on': [['k_dec', 'k_dec2']]}
    ]) }}

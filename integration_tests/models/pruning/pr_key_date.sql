-- Keys of a filtered small relation as literals of the big column's type:
-- typed_left.k_date = typed_right.k_date.
select
    a.id,
    a.k_date,
    b.rid
from {{ ref('typed_left') }} as a
inner join {{ ref('typed_right') }} as b
    on a.k_date = b.k_date
where
    b.region = 'EU'
    and {{ skewjoin.prune_predicate(ref('typed_left'), 'a', [
        {'relation': ref('typed_right'), 'filter': "region = 'EU'", 'on': [['k_date', 'k_date']]}
    ]) }}

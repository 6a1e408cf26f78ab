-- Keys of a filtered small relation as literals of the big column's type:
-- typed_left.k_ts = typed_right.k_ts.
select
    a.id,
    a.k_ts,
    b.rid
from {{ ref('typed_left') }} as a
inner join {{ ref('typed_right') }} as b
    on a.k_ts = b.k_ts
where
    b.region = 'EU'
    and {{ skewjoin.prune_predicate(ref('typed_left'), 'a', [
        {'relation': ref('typed_right'), 'filter': "region = 'EU'", 'on': [['k_ts', 'k_ts']]}
    ]) }}

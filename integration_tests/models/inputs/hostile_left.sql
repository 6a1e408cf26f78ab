-- Many rows for the first hostile keys (hot), a few for the rest, plus NULLs.
select
    h.hkey,
    h.pos,
    seq as copy_no
from {{ ref('hostile_keys') }} as h
lateral view explode(sequence(1, case when h.pos < 3 then 25 else 2 end)) as seq
union all
select
    cast(null as string) as hkey,
    -1 as pos,
    id as copy_no
from range(5)

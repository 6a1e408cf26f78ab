-- Many rows for the first hostile keys (hot), a few for the rest, plus NULLs.
with copies as (
    select
        h.hkey,
        h.pos,
        c.copy_no
    from {{ ref('hostile_keys') }} as h
        lateral view explode(sequence(1, case when h.pos < 3 then 25 else 2 end)) c as copy_no
),

null_keys as (
    select
        r.id as copy_no,
        cast(null as string) as hkey,
        -1 as pos
    from range(5) as r
)

select
    copies.hkey,
    copies.pos,
    copies.copy_no
from copies
union all
select
    null_keys.hkey,
    null_keys.pos,
    null_keys.copy_no
from null_keys

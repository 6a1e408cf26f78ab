-- One or two rows per hostile key (all but the last two), plus a NULL key.
with labelled as (
    select
        h.hkey,
        concat('r', cast(h.pos as string), '-', cast(c.seq as string)) as label
    from {{ ref('hostile_keys') }} as h
        lateral view explode(sequence(1, 1 + pmod(h.pos, 2))) c as seq
    where h.pos < 13
)

select
    labelled.hkey,
    labelled.label
from labelled
union all
select
    cast(null as string) as hkey,
    'r-null' as label

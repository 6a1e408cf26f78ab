-- One or two rows per hostile key (all but the last two), plus a NULL key.
select
    h.hkey,
    concat('r', cast(h.pos as string), '-', cast(seq as string)) as label
from {{ ref('hostile_keys') }} as h
lateral view explode(sequence(1, 1 + pmod(h.pos, 2))) as seq
where h.pos < 13
union all
select
    cast(null as string) as hkey,
    'r-null' as label

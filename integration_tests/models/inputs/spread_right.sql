-- One row per key 0..499, and a second row for key 0 (the hot key fans out).
select
    r.id as k,
    concat('dim-', cast(r.id as string)) as label
from range(500) as r
union all
select
    0 as k,
    'dim-0-bis' as label

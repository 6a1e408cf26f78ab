-- 40,000 rows, 80% on key 0, written as a single file (one input split):
-- the few-file input on which a hot branch must spread its rows.
select /*+ coalesce(1) */
    r.id,
    case when pmod(r.id, 10) < 8 then 0 else pmod(r.id, 500) end as k,
    concat('payload-', cast(r.id as string)) as payload
from range(40000) as r

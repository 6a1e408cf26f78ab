-- Like Hive's `src` test table: 500 rows of (key string, value string).
-- Key '0' holds 40 rows, so the self join on key has a skewed key.
select
    case when id < 40 then '0' else cast(pmod(xxhash64(id), 499) as string) end as key,
    concat('val_', cast(id as string)) as value
from range(500)

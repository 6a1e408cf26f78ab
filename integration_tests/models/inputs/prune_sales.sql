-- Fact table partitioned by date_key: 60 days (2026-01-01 .. 2026-03-01) of
-- 40 rows each, plus 10 rows with a NULL date_key (Hive's default partition):
-- 61 partitions. store_id 0..19 with every 50th row NULL.
{{ config(partition_by=['date_key']) }}
select
    s.id as sale_id,
    cast(pmod(s.id, 997) + 0.5 as decimal(12, 2)) as amount,
    case when pmod(s.id, 50) = 49 then null else cast(pmod(xxhash64(s.id), 20) as int) end as store_id,
    concat('c', cast(pmod(s.id, 37) as string)) as customer,
    case when s.id >= 2400 then null else date_add(date '2026-01-01', cast(s.id div 40 as int)) end as date_key
from range(2410) as s

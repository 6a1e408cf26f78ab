-- Store dimension: stores 0..49 (the fact also sells in 50..59), store 7
-- listed twice (a duplicate dimension row doubles its sales), a NULL key.
select
    s.id as store_id,
    concat('store ', cast(s.id as string)) as store_name,
    element_at(array('EU', 'NA', 'APAC'), cast(pmod(s.id, 3) + 1 as int)) as region
from range(50) as s
union all
select
    cast(7 as bigint) as store_id,
    'store 7 (second row)' as store_name,
    'EU' as region
union all
select
    cast(null as bigint) as store_id,
    'no store' as store_name,
    'EU' as region

-- Store dimension: stores 0..24 (20..24 sell nothing), a NULL store_id row.
select
    cast(s.id as int) as store_id,
    element_at(array('EU', 'NA', 'APAC'), cast(pmod(s.id, 3) + 1 as int)) as region
from range(25) as s
union all
select
    cast(null as int) as store_id,
    'EU' as region

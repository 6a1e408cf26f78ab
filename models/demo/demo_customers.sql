-- Dimension: 200,000 customers, deterministic, generated in the warehouse.
{{ config(enabled=(project_name == 'skewjoin' or var('skewjoin_build_demo', false))) }}
select
    id as customer_id,
    concat('customer ', cast(id as string)) as customer_name,
    element_at(array('retail', 'wholesale', 'online', 'partner'), cast(pmod(id, 4) + 1 as int)) as segment,
    element_at(array('EU', 'NA', 'APAC', 'LATAM', 'MEA'), cast(pmod(xxhash64(id), 5) + 1 as int)) as region
from range(200000)

-- Customer dimension: C0..C499 (the fact also has C500..C699), for left joins.
select
    concat('C', cast(c.id as string)) as customer_id,
    element_at(array('retail', 'business', 'vip'), cast(pmod(c.id, 3) + 1 as int)) as segment,
    element_at(array('FR', 'DE', 'US', 'JP'), cast(pmod(c.id, 4) + 1 as int)) as country
from range(500) as c

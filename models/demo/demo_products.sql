-- Dimension: 5,000 products.
{{ config(enabled=(project_name == 'skewjoin' or var('skewjoin_build_demo', false))) }}
select
    id as product_id,
    concat('product ', cast(id as string)) as product_name,
    element_at(array('books', 'games', 'garden', 'kitchen', 'toys', 'tools'), cast(pmod(id, 6) + 1 as int)) as category,
    cast(5 + pmod(xxhash64(id, 7), 9500) / 100 as decimal(10, 2)) as list_price
from range(5000)

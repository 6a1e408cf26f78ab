-- Product dimension, the largest one (about 100 KB of parquet): products
-- 0..2999 with long descriptions (the fact also sells 3000..3299).
select
    p.id as product_id,
    element_at(array('food', 'toys', 'garden', 'books', 'tools'), cast(pmod(p.id, 5) + 1 as int)) as category,
    concat('product ', cast(p.id as string)) as product_name,
    concat_ws(' ', 'A product of the demo catalog, number', cast(p.id as string), 'sha', sha2(cast(p.id as string), 256)) as description
from range(3000) as p

-- The same rows as prune_sales in one non-partitioned table.
select
    s.sale_id,
    s.store_id,
    s.amount,
    s.customer,
    s.date_key
from {{ ref('prune_sales') }} as s

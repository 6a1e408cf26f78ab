-- A non-partitioned fact pruned on a data column: the IN list reaches the
-- Parquet scan's pushed filters.
select
    f.sale_id,
    f.store_id,
    f.amount,
    s.region
from {{ ref('prune_sales_flat') }} as f
inner join {{ ref('prune_stores') }} as s
    on f.store_id = s.store_id
where
    s.region = 'EU'
    and {{ skewjoin.prune_predicate(ref('prune_sales_flat'), 'f', [
        {'relation': ref('prune_stores'), 'filter': "region = 'EU'", 'on': ['store_id']}
    ]) }}

-- `big left semi join small`: the output is the big table's rows.
select
    f.sale_id,
    f.store_id,
    f.amount,
    f.customer,
    f.date_key
from {{ ref('prune_sales_flat') }} as f
left semi join {{ ref('prune_stores') }} as s
    on f.store_id = s.store_id and s.region = 'APAC'
where {{ skewjoin.prune_predicate(ref('prune_sales_flat'), 'f', [
        {'relation': ref('prune_stores'), 'filter': "region = 'APAC'", 'on': ['store_id']}
    ], join_type='left semi') }}

-- The fact's partitions pruned by the keys of a filtered date dimension.
select
    f.sale_id,
    f.store_id,
    f.amount,
    f.date_key,
    d.is_weekend
from {{ ref('prune_sales') }} as f
inner join {{ ref('prune_dates') }} as d
    on f.date_key = d.date_key
where
    d.year = 2026
    and d.month = 2
    and {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [
        {'relation': ref('prune_dates'), 'filter': 'year = 2026 and month = 2', 'on': ['date_key']}
    ]) }}

-- More keys than max_values: the range of the keys instead of the list.
select
    f.sale_id,
    f.date_key,
    d.is_weekend
from {{ ref('prune_sales_flat') }} as f
inner join {{ ref('prune_dates') }} as d
    on f.date_key = d.date_key
where
    d.month = 2
    and d.is_weekend
    and {{ skewjoin.prune_predicate(ref('prune_sales_flat'), 'f', [
        {'relation': ref('prune_dates'), 'filter': 'month = 2 and is_weekend', 'on': ['date_key']}
    ], max_values=3, fallback='range') }}

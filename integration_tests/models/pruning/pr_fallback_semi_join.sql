-- More keys than max_values: a semi join against the small relation's keys.
select
    f.sale_id,
    f.date_key,
    d.is_weekend
from {{ ref('prune_sales') }} as f
inner join {{ ref('prune_dates') }} as d
    on f.date_key = d.date_key
where
    d.month = 2
    and d.is_weekend
    and {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [
        {'relation': ref('prune_dates'), 'filter': 'month = 2 and is_weekend', 'on': ['date_key']}
    ], max_values=3, fallback='semi_join') }}

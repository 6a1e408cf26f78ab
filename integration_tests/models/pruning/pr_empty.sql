-- A filter that keeps no dimension row: the predicate is false, nothing is read.
select
    f.sale_id,
    f.date_key,
    d.month
from {{ ref('prune_sales') }} as f
inner join {{ ref('prune_dates') }} as d
    on f.date_key = d.date_key
where
    d.year = 1999
    and {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [
        {'relation': ref('prune_dates'), 'filter': 'year = 1999', 'on': ['date_key']}
    ]) }}

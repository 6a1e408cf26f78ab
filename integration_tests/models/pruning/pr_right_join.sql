-- `sales right join dates` (written here as dates left join sales): the small
-- side is preserved, so the big side may be pruned; the predicate goes on the
-- big table before the join, never in the outer join's WHERE.
with march as (
    select
        d.date_key,
        d.month
    from {{ ref('prune_dates') }} as d
    where d.month = 3
),

sales as (
    select
        f.sale_id,
        f.date_key
    from {{ ref('prune_sales') }} as f
    where {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [
        {'relation': ref('prune_dates'), 'filter': 'month = 3', 'on': ['date_key']}
    ], join_type='right') }}
)

select
    f.sale_id,
    d.date_key,
    d.month
from march as d
left outer join sales as f
    on d.date_key = f.date_key

-- pr_cascade with the prune cache: the three key sets are computed by the
-- pre_hook (one query each) and read from the cache, not from the small
-- relations, when the model's query runs.
{{ config(pre_hook="{{ skewjoin.prune_key_sets() }}") }}

with holidays as (
    select distinct p.date_key
    from {{ ref('prune_promos') }} as p
    where p.promo_type = 'holiday'
)

select
    f.sale_id,
    f.store_id,
    f.date_key,
    f.amount,
    s.region
from {{ ref('prune_sales') }} as f
inner join {{ ref('prune_dates') }} as d
    on f.date_key = d.date_key
inner join holidays as h
    on f.date_key = h.date_key
inner join {{ ref('prune_stores') }} as s
    on f.store_id = s.store_id
where
    d.month = 2
    and s.region = 'EU'
    and {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [
        {'relation': ref('prune_dates'), 'filter': 'month = 2', 'on': ['date_key']},
        {'relation': ref('prune_promos'), 'alias': 'p', 'filter': "p.promo_type = 'holiday'", 'on': ['date_key']},
        {'relation': ref('prune_stores'), 'filter': "region = 'EU'", 'on': ['store_id']}
    ], cache=true) }}

-- A two-column key (date_key, store_id): one IN list per column plus the
-- exact tuple check.
select
    f.sale_id,
    f.date_key,
    f.store_id,
    p.promo_type
from {{ ref('prune_sales') }} as f
inner join {{ ref('prune_promos') }} as p
    on f.date_key = p.date_key and f.store_id = p.store_id
where
    p.promo_type = 'holiday'
    and {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [
        {'relation': ref('prune_promos'), 'filter': "promo_type = 'holiday'", 'on': ['date_key', 'store_id']}
    ]) }}

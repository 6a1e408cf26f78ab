-- pr_multi_key with the prune cache: the key set goes through the cache's text form
-- and back to the same values.
{{ config(pre_hook="{{ skewjoin.prune_key_sets() }}") }}

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
    ], cache=true) }}

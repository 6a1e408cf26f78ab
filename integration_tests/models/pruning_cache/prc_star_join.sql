-- pr_star_join with prune='cache': the filtered dimension's key set comes from
-- the prune cache, filled by the pre_hook.
{{ config(pre_hook="{{ skewjoin.prune_key_sets() }}") }}

{{ skewjoin.star_join(ref('prune_sales'), [
    {'relation': ref('prune_dates'), 'alias': 'd', 'on': ['date_key'], 'filter': 'd.year = 2026 and d.month = 2'},
    {'relation': ref('prune_stores'), 'alias': 's', 'on': ['store_id'], 'join_type': 'left'}
], columns=['f.sale_id', 'f.store_id', 'f.date_key', 'd.is_weekend', 's.region'], prune='cache') }}

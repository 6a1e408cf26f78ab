-- star_join prunes the fact by its filtered dimension on its own (prune is on
-- by default): the fact's scan lists only the partitions of the filtered
-- dates; the left-joined dimension does not prune.
{{ skewjoin.star_join(ref('prune_sales'), [
    {'relation': ref('prune_dates'), 'alias': 'd', 'on': ['date_key'], 'filter': 'd.year = 2026 and d.month = 2'},
    {'relation': ref('prune_stores'), 'alias': 's', 'on': ['store_id'], 'join_type': 'left'}
], columns=['f.sale_id', 'f.store_id', 'f.date_key', 'd.is_weekend', 's.region']) }}

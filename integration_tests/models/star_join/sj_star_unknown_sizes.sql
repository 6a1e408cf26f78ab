-- Sizes from every source: a table without catalog statistics (measured
-- from its files), a view (unknown: shuffled), a query over one table
-- (bounded by the table's size), a query with an aggregate (unknown).
{{ skewjoin.star_join(ref('star_sales'), [
    {'relation': ref('star_channels'), 'alias': 'ch', 'on': ['channel_id']},
    {'relation': ref('star_store_regions'), 'alias': 'sr', 'on': ['store_id'], 'join_type': 'left'},
    {'relation': 'select customer_id, segment from ' ~ ref('star_customers') ~ " where country <> 'JP'", 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left'},
    {'relation': 'select store_id, count(*) as promo_count from ' ~ ref('star_promos') ~ ' group by store_id', 'alias': 'pc', 'on': ['store_id'], 'join_type': 'left'}
]) }}

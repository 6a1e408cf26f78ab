-- The same star join with a budget of 100 KiB from the model config: the
-- products dimension (about 230 KiB) does not fit and is shuffled; the join
-- order puts it after the broadcast joins.
{{ config(star_join={'broadcast_budget': '100k'}) }}
{{ skewjoin.star_join(ref('star_sales'), [
    {'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id']},
    {'relation': ref('star_products'), 'alias': 'p', 'on': ['product_id']},
    {'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']], 'filter': 'd.month <= 6'},
    {'relation': ref('star_customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left'},
    {'relation': ref('star_promos'), 'alias': 'pr', 'on': ['promo_code', 'store_id'], 'join_type': 'left'}
], columns=['f.sale_id', 'f.amount', 'p.category', 's.store_name', 'd.day_name', 'c.segment', 'pr.discount_pct']) }}

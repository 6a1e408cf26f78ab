-- Five dimensions under the default budget (10 MiB): all fit, all are
-- broadcast. Keys of different types (int with bigint), different names,
-- two columns (promos), a filter, left joins; default output columns.
{{ skewjoin.star_join(ref('star_sales'), [
    {'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id']},
    {'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']], 'filter': 'd.month <= 6'},
    {'relation': ref('star_customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left'},
    {'relation': ref('star_promos'), 'alias': 'pr', 'on': ['promo_code', 'store_id'], 'join_type': 'left'},
    {'relation': ref('star_products'), 'alias': 'p', 'on': ['product_id']}
]) }}

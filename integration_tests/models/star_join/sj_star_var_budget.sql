-- The budget from the project var skewjoin_broadcast_budget (the tests set
-- it to 6000 bytes: stores and promos fit, customers and dates do not).
{{ skewjoin.star_join(ref('star_sales'), [
    {'relation': ref('star_customers'), 'alias': 'c', 'on': ['customer_id']},
    {'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id']},
    {'relation': ref('star_promos'), 'alias': 'pr', 'on': ['promo_code', 'store_id'], 'join_type': 'left'},
    {'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']], 'join_type': 'left'}
], columns=['f.sale_id', 'c.country', 's.region', 'pr.discount_pct', 'd.year']) }}

-- A full outer join is never broadcast; an inner join before it still is.
{{ skewjoin.star_join(ref('star_sales'), [
    {'relation': ref('star_promos'), 'alias': 'pr', 'on': ['promo_code', 'store_id']},
    {'relation': ref('star_customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'full outer'}
], fact_alias='sales') }}

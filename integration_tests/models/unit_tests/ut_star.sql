-- star_join as a unit test sees it: a fact and two dimensions (an inner and
-- a left join); in a unit test no size is looked up, so nothing is
-- broadcast and the plan is the plain join of the given rows.
{{ skewjoin.star_join(ref('star_sales'), [
    {'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id']},
    {'relation': ref('star_customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left'}
], columns=['f.sale_id', 'f.store_id', 's.region', 'c.segment']) }}

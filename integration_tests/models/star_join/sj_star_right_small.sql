-- A small dimension on the preserved side of an outer join (`fact right join
-- stores` keeps every store, like `stores left join fact`): it must not be
-- broadcast, however small. The order given is kept around it.
{{ skewjoin.star_join(ref('star_sales'), [
    {'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']], 'filter': "d.day_name = 'Monday'"},
    {'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], 'join_type': 'right'},
    {'relation': ref('star_customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left'}
]) }}

-- One date dimension in two roles (sold and shipped): the second alias's
-- columns clash with the first's and are renamed d_ship_<name>.
{{ skewjoin.star_join(ref('star_sales'), [
    {'relation': ref('star_dates'), 'alias': 'd_sold', 'on': [['sold_date', 'date_key']]},
    {'relation': ref('star_dates'), 'alias': 'd_ship', 'on': [['ship_date', 'date_key']], 'join_type': 'left'}
], columns=none) }}

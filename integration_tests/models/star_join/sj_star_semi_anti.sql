-- Filtering joins: a left semi join (sales on a Monday in the first
-- quarter) and a left anti join (no promotion); the fact is a query.
{{ skewjoin.star_join(
    "select sale_id, store_id, sold_date, promo_code, amount from " ~ ref('star_sales') ~ " where qty > 1",
    [
        {'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']], 'join_type': 'left semi', 'filter': "month <= 3 and day_name = 'Monday'"},
        {'relation': ref('star_promos'), 'alias': 'pr', 'on': ['promo_code', 'store_id'], 'join_type': 'left anti'},
        {'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], 'columns': ['region']}
    ]) }}

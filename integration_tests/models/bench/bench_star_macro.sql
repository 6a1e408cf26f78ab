-- Benchmark: the same star join with star_join (Hive's map-join rule): the
-- dimensions are broadcast smallest first while their sizes together fit one
-- budget (default 10 MiB, like Spark's per-table threshold); the others are
-- joined by a sort-merge join.
{{ config(enabled=var('skewjoin_bench', false)) }}
{{ skewjoin.star_join(source('skewjoin_bench', 'bench_star_sales'), [
    {'relation': source('skewjoin_bench', 'bench_star_dates'), 'alias': 'd', 'on': ['date_key']},
    {'relation': source('skewjoin_bench', 'bench_star_stores'), 'alias': 's', 'on': ['store_id']},
    {'relation': source('skewjoin_bench', 'bench_star_products'), 'alias': 'p', 'on': ['product_id']},
    {'relation': source('skewjoin_bench', 'bench_star_customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left'},
    {'relation': source('skewjoin_bench', 'bench_star_promos'), 'alias': 'pr', 'on': ['promo_id'], 'join_type': 'left'}
], columns=['f.sale_id', 'f.quantity', 'f.amount', 'd.year', 'd.month', 's.region', 'p.category', 'c.segment', 'pr.discount_pct']) }}

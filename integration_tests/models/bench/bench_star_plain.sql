-- Benchmark baseline of the star case: a fact joined to five dimensions as a
-- user writes it. Spark broadcasts every dimension whose estimated size is
-- under its per-table threshold (spark.sql.autoBroadcastJoinThreshold, 10 MB),
-- however much they hold together.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    f.sale_id,
    f.quantity,
    f.amount,
    d.year,
    d.month,
    s.region,
    p.category,
    c.segment,
    pr.discount_pct
from {{ source('skewjoin_bench', 'bench_star_sales') }} as f
inner join {{ source('skewjoin_bench', 'bench_star_dates') }} as d
    on f.date_key = d.date_key
inner join {{ source('skewjoin_bench', 'bench_star_stores') }} as s
    on f.store_id = s.store_id
inner join {{ source('skewjoin_bench', 'bench_star_products') }} as p
    on f.product_id = p.product_id
left join {{ source('skewjoin_bench', 'bench_star_customers') }} as c
    on f.customer_id = c.customer_id
left join {{ source('skewjoin_bench', 'bench_star_promos') }} as pr
    on f.promo_id = pr.promo_id

/* skewjoin.star_join decision record (model unit_model)
  star join: fact f (skewjoin_it.star_sales) with 2 dimension(s); broadcast budget 10240 bytes (10.0 KiB) from argument broadcast_budget
  rule: Hive's map-join conversion with one budget: the dimensions that may be broadcast (inner, left, left semi, left anti joins; known size) are taken smallest first while the sum of their sizes x size factor fits the budget (this broadcasts as many as fit); unknown sizes are never broadcast
  dimension p (skewjoin_it.star_products, inner join on f.product_id = p.product_id): 260000 bytes (253.9 KiB) from catalog statistics (parquet); x size factor 1 (default) = 260000 bytes -> broadcast (broadcast: true (forced))
  dimension s (skewjoin_it.star_stores, inner join on f.store_id = s.store_id): 1700 bytes (1.7 KiB) from catalog statistics (parquet); x size factor 1 (default) = 1700 bytes -> shuffle (over budget: broadcast total would be 260000 + 1700 = 261700 > 10240)
  memory: the sizes of p, s are on disk (size factor 1, the default); a broadcast hash table takes several times its size on disk (4.4x to 35x measured for parquet dimensions), so the broadcasts may need that many times the budget in memory; set size_factor (argument, config star_join.size_factor or var skewjoin_size_factor; per format or per dimension) to count memory
  candidates smallest first (bytes x factor): s 1700
  broadcast: p (total 260000 of 10240 bytes); shuffle: s (hint merge, so that Spark does not broadcast them past the budget)
  join order: p, s (broadcast joins first (filtering joins, then left joins), then shuffle joins)
  size queries: <elapsed> s
  pruning: no inner or left semi dimension has a filter, so the fact is read whole
  measuring cost: 5 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: catalog 2, <elapsed> s; column lists 3, <elapsed> s
*/
select /*+ broadcast(p), merge(s) */
    f.sale_id,
    f.store_id,
    f.sold_date,
    f.ship_date,
    f.product_id,
    f.customer_id,
    f.promo_code,
    f.channel_id,
    f.warehouse_id,
    f.amount,
    f.qty,
    p.category,
    p.product_name,
    p.description,
    s.store_name,
    s.region
from skewjoin_it.star_sales as f
inner join skewjoin_it.star_products as p
    on f.product_id = p.product_id
inner join skewjoin_it.star_stores as s
    on f.store_id = s.store_id

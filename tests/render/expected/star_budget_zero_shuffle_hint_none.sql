/* skewjoin.star_join decision record (model unit_model)
  star join: fact f (skewjoin_it.star_sales) with 1 dimension(s); broadcast budget 0 bytes from argument broadcast_budget
  rule: Hive's map-join conversion with one budget: the dimensions that may be broadcast (inner, left, left semi, left anti joins; known size) are taken smallest first while the sum of their sizes x size factor fits the budget (this broadcasts as many as fit); unknown sizes are never broadcast
  dimension s (skewjoin_it.star_stores, inner join on f.store_id = s.store_id): 1700 bytes (1.7 KiB) from catalog statistics (parquet); x size factor 1 (default) = 1700 bytes -> shuffle (over budget: broadcast total would be 0 + 1700 = 1700 > 0)
  memory: the size of s is on disk (size factor 1, the default); a broadcast hash table takes several times its size on disk (4.4x to 35x measured for parquet dimensions), so the broadcasts may need that many times the budget in memory; set size_factor (argument, config star_join.size_factor or var skewjoin_size_factor; per format or per dimension) to count memory
  candidates smallest first (bytes x factor): s 1700
  broadcast: none (total 0 of 0 bytes); shuffle: s (left to Spark)
  join order: s (broadcast joins first (filtering joins, then left joins), then shuffle joins)
  size queries: <elapsed> s
  pruning: no inner or left semi dimension has a filter, so the fact is read whole
  measuring cost: 3 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: catalog 1, <elapsed> s; column lists 2, <elapsed> s
*/
select
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
    s.store_name,
    s.region
from skewjoin_it.star_sales as f
inner join skewjoin_it.star_stores as s
    on f.store_id = s.store_id

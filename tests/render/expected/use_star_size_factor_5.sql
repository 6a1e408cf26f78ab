/* skewjoin.star_join decision record (model unit_model)
  star join: fact f (skewjoin_it.star_sales) with 1 dimension(s); broadcast budget 10485760 bytes (10.0 MiB) from default
  rule: Hive's map-join conversion with one budget: the dimensions that may be broadcast (inner, left, left semi, left anti joins; known size) are taken smallest first while the sum of their sizes x size factor fits the budget (this broadcasts as many as fit); unknown sizes are never broadcast
  dimension s (skewjoin_it.star_stores, inner join on f.store_id = s.store_id): 1700 bytes (1.7 KiB) from catalog statistics (parquet); x size factor 5 (argument size_factor) = 8500 bytes -> broadcast (fits: broadcast total 8500 <= budget 10485760)
  candidates smallest first (bytes x factor): s 8500
  broadcast: s (total 8500 of 10485760 bytes); shuffle: none
  join order: s (broadcast joins first (filtering joins, then left joins), then shuffle joins)
  size queries: <elapsed> s
  pruning: no inner or left semi dimension has a filter, so the fact is read whole
  measuring cost: 3 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: catalog 1, <elapsed> s; column lists 2, <elapsed> s
*/
select /*+ broadcast(s) */
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

/* skewjoin.star_join decision record (model unit_model)
  star join: fact f (skewjoin_it.star_sales) with 2 dimension(s); broadcast budget 6249 bytes (6.1 KiB) from argument broadcast_budget
  rule: Hive's map-join conversion with one budget: the dimensions that may be broadcast (inner, left, left semi, left anti joins; known size) are taken smallest first while the sum of their sizes x size factor fits the budget (this broadcasts as many as fit); unknown sizes are never broadcast
  dimension s (skewjoin_it.star_stores, inner join on f.store_id = s.store_id): 1700 bytes (1.7 KiB) from catalog statistics (parquet); x size factor 3 (argument size_factor for parquet) = 5100 bytes -> shuffle (over budget: broadcast total would be 1150 + 5100 = 6250 > 6249)
  dimension pr (skewjoin_it.star_promos, left join on f.promo_code = pr.promo_code and f.store_id = pr.store_id): 2300 bytes (2.2 KiB) from catalog statistics (parquet); x size factor 0.5 (dims[1].size_factor) = 1150 bytes -> broadcast (fits: broadcast total 1150 <= budget 6249)
  candidates smallest first (bytes x factor): pr 1150, s 5100
  broadcast: pr (total 1150 of 6249 bytes); shuffle: s (hint merge, so that Spark does not broadcast them past the budget)
  join order: pr, s (broadcast joins first (filtering joins, then left joins), then shuffle joins)
  size queries: <elapsed> s
  pruning: no inner or left semi dimension has a filter, so the fact is read whole
  measuring cost: 5 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: catalog 2, <elapsed> s; column lists 3, <elapsed> s
*/
select /*+ broadcast(pr), merge(s) */
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
    s.region,
    pr.discount_pct
from skewjoin_it.star_sales as f
left outer join skewjoin_it.star_promos as pr
    on f.promo_code = pr.promo_code
    and f.store_id = pr.store_id
inner join skewjoin_it.star_stores as s
    on f.store_id = s.store_id

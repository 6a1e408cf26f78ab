/* skewjoin.star_join decision record (model unit_model)
  star join: fact f (skewjoin_it.star_sales) with 4 dimension(s); broadcast budget 7899 bytes (7.7 KiB) from argument broadcast_budget
  rule: Hive's map-join conversion with one budget: the dimensions that may be broadcast (inner, left, left semi, left anti joins; known size) are taken smallest first while the sum of their sizes x size factor fits the budget (this broadcasts as many as fit); unknown sizes are never broadcast
  dimension s (skewjoin_it.star_stores, inner join on f.store_id = s.store_id): 1700 bytes (1.7 KiB) from catalog statistics (parquet); x size factor 1 (default) = 1700 bytes -> broadcast (fits: broadcast total 1700 <= budget 7899)
  dimension c (skewjoin_it.star_customers, left join on f.customer_id = c.customer_id): 4800 bytes (4.7 KiB) from catalog statistics (parquet); x size factor 1 (default) = 4800 bytes -> shuffle (over budget: broadcast total would be 4000 + 4800 = 8800 > 7899)
  dimension d (skewjoin_it.star_dates, inner join on f.sold_date = d.date_key): 3900 bytes (3.8 KiB) from catalog statistics (parquet); x size factor 1 (default) = 3900 bytes -> shuffle (over budget: broadcast total would be 4000 + 3900 = 7900 > 7899)
  dimension pr (skewjoin_it.star_promos, left join on f.promo_code = pr.promo_code and f.store_id = pr.store_id): 2300 bytes (2.2 KiB) from catalog statistics (parquet); x size factor 1 (default) = 2300 bytes -> broadcast (fits: broadcast total 4000 <= budget 7899)
  memory: the sizes of s, c, d, pr are on disk (size factor 1, the default); a broadcast hash table takes several times its size on disk (4.4x to 35x measured for parquet dimensions), so the broadcasts may need that many times the budget in memory; set size_factor (argument, config star_join.size_factor or var skewjoin_size_factor; per format or per dimension) to count memory
  candidates smallest first (bytes x factor): s 1700, pr 2300, d 3900, c 4800
  broadcast: s, pr (total 4000 of 7899 bytes); shuffle: c, d (hint merge, so that Spark does not broadcast them past the budget)
  join order: s, pr, d, c (broadcast joins first (filtering joins, then left joins), then shuffle joins)
  size queries: <elapsed> s
  pruning: no inner or left semi dimension has a filter, so the fact is read whole
  measuring cost: 9 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: catalog 4, <elapsed> s; column lists 5, <elapsed> s
*/
select /*+ broadcast(s, pr), merge(d, c) */
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
    c.segment,
    c.country,
    d.`year`,
    d.`month`,
    d.day_name,
    pr.discount_pct
from skewjoin_it.star_sales as f
inner join skewjoin_it.star_stores as s
    on f.store_id = s.store_id
left outer join skewjoin_it.star_promos as pr
    on f.promo_code = pr.promo_code
    and f.store_id = pr.store_id
inner join skewjoin_it.star_dates as d
    on f.sold_date = d.date_key
left outer join skewjoin_it.star_customers as c
    on f.customer_id = c.customer_id

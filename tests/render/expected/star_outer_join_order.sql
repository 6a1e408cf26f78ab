/* skewjoin.star_join decision record (model unit_model)
  star join: fact f (skewjoin_it.star_sales) with 3 dimension(s); broadcast budget 10485760 bytes (10.0 MiB) from default
  rule: Hive's map-join conversion with one budget: the dimensions that may be broadcast (inner, left, left semi, left anti joins; known size) are taken smallest first while the sum of their sizes x size factor fits the budget (this broadcasts as many as fit); unknown sizes are never broadcast
  dimension d (skewjoin_it.star_dates, inner join on f.sold_date = d.date_key): 3900 bytes (3.8 KiB) from catalog statistics (parquet); x size factor 1 (default) = 3900 bytes -> broadcast (fits: broadcast total 3900 <= budget 10485760)
  dimension s (skewjoin_it.star_stores, right join on f.store_id = s.store_id): 1700 bytes (1.7 KiB) from catalog statistics (parquet); x size factor 1 (default) = 1700 bytes -> shuffle (cannot be broadcast: a right join preserves s (all its rows are returned); only the non-preserved side of an outer join may be broadcast, and here that side holds the fact)
  dimension c (skewjoin_it.star_customers, left join on f.customer_id = c.customer_id): 4800 bytes (4.7 KiB) from catalog statistics (parquet); x size factor 1 (default) = 4800 bytes -> broadcast (fits: broadcast total 8700 <= budget 10485760)
  memory: the sizes of d, s, c are on disk (size factor 1, the default); a broadcast hash table takes several times its size on disk (4.4x to 35x measured for parquet dimensions), so the broadcasts may need that many times the budget in memory; set size_factor (argument, config star_join.size_factor or var skewjoin_size_factor; per format or per dimension) to count memory
  candidates smallest first (bytes x factor): d 3900, c 4800
  broadcast: d, c (total 8700 of 10485760 bytes); shuffle: s (hint merge, so that Spark does not broadcast them past the budget)
  join order: d, s, c (as given, because s is right- or full-joined and such a join does not commute with the others)
  output columns renamed to avoid duplicate names: s.store_id -> s_store_id
  size queries: <elapsed> s
  pruning: no inner or left semi dimension has a filter, so the fact is read whole
  measuring cost: 7 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: catalog 3, <elapsed> s; column lists 4, <elapsed> s
*/
select /*+ broadcast(d, c), merge(s) */
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
    d.`year`,
    d.`month`,
    d.day_name,
    s.store_id as s_store_id,
    s.store_name,
    s.region,
    c.segment,
    c.country
from skewjoin_it.star_sales as f
inner join skewjoin_it.star_dates as d
    on f.sold_date = d.date_key
right outer join skewjoin_it.star_stores as s
    on f.store_id = s.store_id
left outer join skewjoin_it.star_customers as c
    on f.customer_id = c.customer_id

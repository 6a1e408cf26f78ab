/* skewjoin.star_join decision record (model unit_model)
  star join: fact f (skewjoin_it.star_sales) with 5 dimension(s); broadcast budget 10485760 bytes (10.0 MiB) from default
  rule: Hive's map-join conversion with one budget: the dimensions that may be broadcast (inner, left, left semi, left anti joins; known size) are taken smallest first while the sum of their sizes x size factor fits the budget (this broadcasts as many as fit); unknown sizes are never broadcast
  dimension ch (skewjoin_it.star_channels, inner join on f.channel_id = ch.channel_id): 1100 bytes (1.1 KiB) from catalog statistics after ANALYZE TABLE ... COMPUTE STATISTICS NOSCAN (there were none) (parquet); x size factor 1 (default) = 1100 bytes -> broadcast (fits: broadcast total 2100 <= budget 10485760)
  dimension sr (skewjoin_it.star_store_regions, inner join on f.store_id = sr.store_id): size unknown (a view has no statistics and no files of its own (ANALYZE does not apply to views)) -> shuffle (size unknown, and a dimension of unknown size is never broadcast)
  dimension c (a query, inner join on f.customer_id = c.customer_id): 4800 bytes (4.7 KiB) from catalog statistics (parquet), upper bound: the size of skewjoin_it.star_customers, which the query only filters and projects; x size factor 1 (default) = 4800 bytes -> broadcast (fits: broadcast total 6900 <= budget 10485760)
  dimension cg (a query, inner join on f.customer_id = cg.customer_id): size unknown (a query other than `select <columns> from <table> [where ...]` is not estimated (give the table as relation with a filter, or set broadcast: true)) -> shuffle (size unknown, and a dimension of unknown size is never broadcast)
  dimension w (skewjoin_it.star_warehouses, inner join on f.warehouse_id = w.warehouse_id): 1000 bytes from catalog statistics after ANALYZE TABLE ... COMPUTE STATISTICS NOSCAN (there were none) (parquet); x size factor 1 (default) = 1000 bytes -> broadcast (fits: broadcast total 1000 <= budget 10485760)
  memory: the sizes of ch, c, w are on disk (size factor 1, the default); a broadcast hash table takes several times its size on disk (4.4x to 35x measured for parquet dimensions), so the broadcasts may need that many times the budget in memory; set size_factor (argument, config star_join.size_factor or var skewjoin_size_factor; per format or per dimension) to count memory
  candidates smallest first (bytes x factor): w 1000, ch 1100, c 4800
  broadcast: ch, c, w (total 6900 of 10485760 bytes); shuffle: sr, cg (hint merge, so that Spark does not broadcast them past the budget)
  join order: ch, c, w, sr, cg (broadcast joins first (filtering joins, then left joins), then shuffle joins)
  output columns renamed to avoid duplicate names: cg.segment -> cg_segment, cg.country -> cg_country
  size queries: <elapsed> s
  pruning: no inner or left semi dimension has a filter, so the fact is read whole
  measuring cost: 14 compile-time queries (2 reading data), <elapsed> s of wall time; by kind: analyze 2, <elapsed> s; catalog 6, <elapsed> s; column lists 6, <elapsed> s
*/
with

sj_c as (
    select customer_id, segment from skewjoin_it.star_customers where segment = 'vip'
),

sj_cg as (
    select customer_id from skewjoin_it.star_customers group by customer_id
)

select /*+ broadcast(ch, c, w), merge(sr, cg) */
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
    ch.channel_name,
    sr.store_region,
    c.segment,
    c.country,
    cg.segment as cg_segment,
    cg.country as cg_country,
    w.warehouse_name
from skewjoin_it.star_sales as f
inner join skewjoin_it.star_channels as ch
    on f.channel_id = ch.channel_id
inner join sj_c as c
    on f.customer_id = c.customer_id
inner join skewjoin_it.star_warehouses as w
    on f.warehouse_id = w.warehouse_id
inner join skewjoin_it.star_store_regions as sr
    on f.store_id = sr.store_id
inner join sj_cg as cg
    on f.customer_id = cg.customer_id

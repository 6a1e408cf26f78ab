/* skewjoin.star_join decision record (model unit_model)
  star join: fact f (skewjoin_it.star_sales) with 2 dimension(s); broadcast budget 10485760 bytes (10.0 MiB) from default
  rule: Hive's map-join conversion with one budget: the dimensions that may be broadcast (inner, left, left semi, left anti joins; known size) are taken smallest first while the sum of their sizes x size factor fits the budget (this broadcasts as many as fit); unknown sizes are never broadcast
  dimension s (skewjoin_it.star_stores, inner join on f.store_id = s.store_id): size unknown (not looked up: compile-time queries are off (var skewjoin_run_queries: false)) -> shuffle (size unknown, and a dimension of unknown size is never broadcast)
  dimension d (skewjoin_it.star_dates, inner join on f.sold_date = d.date_key, filter: year = 2026): size unknown (not looked up: compile-time queries are off (var skewjoin_run_queries: false)) -> broadcast (broadcast: true (forced; size unknown, not counted))
  candidates smallest first (bytes x factor): none
  broadcast: d (total 0 of 10485760 bytes); shuffle: s (hint merge, so that Spark does not broadcast them past the budget)
  join order: d, s (broadcast joins first (filtering joins, then left joins), then shuffle joins)
  size queries: none, compile-time queries are off (var skewjoin_run_queries: false): no size was looked up, so only dimensions with broadcast: true are broadcast
  pruning: none, compile-time queries are off (var skewjoin_run_queries: false): no key was collected, so the fact is read whole
  measuring cost: 3 compile-time queries (0 reading data), <elapsed> s of wall time; by kind: column lists 3, <elapsed> s
*/
with

sj_d as (
    select *
    from skewjoin_it.star_dates as d
    where year = 2026
)

select /*+ broadcast(d), merge(s) */
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
    d.`year`,
    d.`month`,
    d.day_name
from skewjoin_it.star_sales as f
inner join sj_d as d
    on f.sold_date = d.date_key
inner join skewjoin_it.star_stores as s
    on f.store_id = s.store_id

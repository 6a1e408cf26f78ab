-- Fact table of the star join tests: 12,000 sales (the first 30 appear
-- twice). Every foreign key has NULLs and values that no dimension row
-- holds; key types differ from the dimensions' on purpose (store_id is an
-- int here and a bigint in star_stores). Two dates (sold_date, ship_date)
-- join the same date dimension in two roles.
with base as (
    select s.id
    from range(12000) as s
),

sales as (
    select
        b.id as sale_id,
        cast(pmod(b.id, 9) as int) as channel_id,
        cast(pmod(b.id * 11, 8) as int) as warehouse_id,
        cast(pmod(b.id * 37, 10000) / 100 as decimal(10, 2)) as amount,
        cast(pmod(b.id, 4) + 1 as int) as qty,
        case when pmod(b.id, 97) = 0 then null else cast(pmod(b.id, 60) as int) end as store_id,
        case
            when pmod(b.id, 89) = 0 then null
            else date_add(date '2025-12-01', cast(pmod(b.id * 7, 430) as int))
        end as sold_date,
        case when pmod(b.id, 83) = 0 then null else pmod(xxhash64(b.id), 3300) end as product_id,
        case when pmod(b.id, 79) = 0 then null else concat('C', cast(pmod(b.id * 13, 700) as string)) end as customer_id,
        case when pmod(b.id, 5) = 0 then null else concat('P', cast(pmod(b.id, 7) as string)) end as promo_code,
        date_add(date '2025-12-01', cast(pmod(b.id * 7, 430) + pmod(b.id, 6) as int)) as ship_date
    from base as b
)

select
    sales.sale_id,
    sales.store_id,
    sales.sold_date,
    sales.ship_date,
    sales.product_id,
    sales.customer_id,
    sales.promo_code,
    sales.channel_id,
    sales.warehouse_id,
    sales.amount,
    sales.qty
from sales
union all
select
    sales.sale_id,
    sales.store_id,
    sales.sold_date,
    sales.ship_date,
    sales.product_id,
    sales.customer_id,
    sales.promo_code,
    sales.channel_id,
    sales.warehouse_id,
    sales.amount,
    sales.qty
from sales
where sales.sale_id < 30

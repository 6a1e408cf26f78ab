-- Fact: 4,000,000 orders. Customer 0 (the marketplace's guest account)
{{ config(enabled=(project_name == 'skewjoin' or var('skewjoin_build_demo', false))) }}
-- places 70% of them: the skew the join models below handle. A further 2%
-- have no customer (NULL), as in real order feeds.
with numbered as (
    select
        id as order_id,
        pmod(xxhash64(id, 1), 100) as bucket
    from range(4000000)
)

select
    order_id,
    case
        when bucket < 70 then 0
        when bucket < 72 then null
        else 1 + pmod(xxhash64(order_id, 2), 199999)
    end as customer_id,
    pmod(xxhash64(order_id, 3), 5000) as product_id,
    cast(1 + pmod(xxhash64(order_id, 4), 50000) / 100 as decimal(12, 2)) as amount,
    date_add(date'2026-01-01', cast(pmod(xxhash64(order_id, 5), 300) as int)) as order_date
from numbered

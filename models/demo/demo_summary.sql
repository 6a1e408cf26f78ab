-- What the demo built, and where the skew was.
{{ config(enabled=(project_name == 'skewjoin' or var('skewjoin_build_demo', false))) }}
with orders as (
    select
        count(*) as order_rows,
        sum(case when customer_id = 0 then 1 else 0 end) as guest_orders,
        sum(case when customer_id is null then 1 else 0 end) as orders_without_customer
    from {{ ref('demo_orders') }}
)

select 'demo_customers' as model, (select count(*) from {{ ref('demo_customers') }}) as row_count, 'dimension' as note
union all
select 'demo_products' as model, (select count(*) from {{ ref('demo_products') }}) as row_count, 'dimension' as note
union all
select
    'demo_orders' as model,
    order_rows as row_count,
    concat(
        'fact; customer 0 holds ', cast(round(100 * guest_orders / order_rows, 1) as string), '% of rows, ',
        cast(round(100 * orders_without_customer / order_rows, 1) as string), '% have no customer'
    ) as note
from orders
union all
select 'demo_orders_by_group' as model, (select count(*) from {{ ref('demo_orders_by_group') }}) as row_count, 'skew group join (left)' as note
union all
select 'demo_orders_by_hot_key' as model, (select count(*) from {{ ref('demo_orders_by_hot_key') }}) as row_count, 'hot-key broadcast join (left)' as note
union all
select 'demo_orders_auto' as model, (select count(*) from {{ ref('demo_orders_auto') }}) as row_count, 'skew_join: auto, planned from measured counts (left)' as note

-- The explicit skew join (HIVE-3286): customer 0 gets 50% of the slots and
-- its orders are spread over them; its one customer row is multicast to
-- those slots only. The rest of the orders join normally. min_parallelism 1:
-- the demo shows the plan on any machine (on a local Spark with fewer than 4
-- cores skew_join would otherwise emit the plain join, which wins there).
{{ config(enabled=(project_name == 'skewjoin' or var('skewjoin_build_demo', false)), skew_join={
    'groups': [
        {'name': 'guest', 'when': 'a.customer_id = 0', 'percent': 50, 'distribute': 'random'}
    ],
    'min_parallelism': 1
}) }}

{{ skewjoin.skew_join(ref('demo_orders'), ref('demo_customers'), on=['customer_id'], join_type='left') }}

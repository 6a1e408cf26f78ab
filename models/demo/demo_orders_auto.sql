-- skew_join: 'auto': nothing declared. Both sides are measured at run time
-- (one aggregate query each), and the plan comes from the counts: customer
-- 0's orders join a broadcast copy of its one customer row, the orders
-- without a customer bypass the join, the rest is a plain shuffle join. The
-- record prints the plan as a specification to pin. min_parallelism 1: the
-- demo shows the plan on any machine.
{{ config(enabled=(project_name == 'skewjoin' or var('skewjoin_build_demo', false)), skew_join={
    'auto': {'min_parallelism': 1}
}) }}

{{ skewjoin.skew_join(ref('demo_orders'), ref('demo_customers'), on=['customer_id'], join_type='left') }}

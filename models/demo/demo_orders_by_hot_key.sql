-- The skewed join (Hive's skewed join optimization): the heavy customers are
-- found at compile time and their orders join a broadcast copy of their rows;
-- the NULL customers bypass the join; the rest is a plain shuffle join.
-- min_parallelism 1: the demo shows the plan on any machine.
{{ config(enabled=(project_name == 'skewjoin' or var('skewjoin_build_demo', false)), skew_join={
    'hot_keys': {'a': 'auto'},
    'hot_keys_options': {'min_share': 0.01, 'max_keys': 10},
    'min_parallelism': 1
}) }}

{{ skewjoin.skew_join(ref('demo_orders'), ref('demo_customers'), on=['customer_id'], join_type='left') }}

-- Benchmark: the same join with prune_predicate (HIVE-5119): the holidays'
-- day keys are collected when dbt compiles the model and become a literal IN
-- list on the partition column, so Spark lists and reads only those partitions.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    s.sale_id,
    s.store_id,
    s.amount,
    s.day_key,
    d.day
from {{ source('skewjoin_bench', 'bench_sales_by_day') }} as s
inner join {{ source('skewjoin_bench', 'bench_days') }} as d
    on s.day_key = d.day_key
where
    d.day_type = 'holiday'
    and {{ skewjoin.prune_predicate(source('skewjoin_bench', 'bench_sales_by_day'), 's', [
        {'relation': source('skewjoin_bench', 'bench_days'), 'filter': "day_type = 'holiday'", 'on': ['day_key']}
    ]) }}

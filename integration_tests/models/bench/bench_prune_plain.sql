-- Benchmark baseline of the pruning case: a fact partitioned by day_key joined
-- to the holidays of its date dimension. Spark's dynamic partition pruning
-- (DPP) may prune the fact's partitions at run time; the benchmark runs it
-- with DPP off and on.
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
where d.day_type = 'holiday'

-- Benchmark scenario g: a's left join (the fact, the null-supplying side,
-- hot) with more than 2000 shuffle partitions.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    d.k,
    d.dim_row,
    d.attr,
    f.fact_id,
    f.amount,
    f.tag
from {{ source('skewjoin_bench', 'bench_dim') }} as d
left outer join {{ source('skewjoin_bench', 'bench_fact_skewed') }} as f
    on d.k = f.k

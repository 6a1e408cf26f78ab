-- Benchmark scenario f: the fact joined to two dimensions on the same key,
-- the plain chain of Spark joins (AQE cannot split the second join: its
-- child is the first join, not a shuffle stage).
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    f.fact_id,
    f.k,
    f.amount,
    d1.dim_row,
    d1.attr,
    d2.dim_row as d2_row
from {{ source('skewjoin_bench', 'bench_fact_skewed') }} as f
inner join {{ source('skewjoin_bench', 'bench_dim') }} as d1
    on f.k = d1.k
inner join {{ source('skewjoin_bench', 'bench_dim_hot') }} as d2
    on f.k = d2.k

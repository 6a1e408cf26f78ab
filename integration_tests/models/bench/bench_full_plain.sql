-- Benchmark scenario b: a full outer join with a hot key on each side: the
-- fact hot on key 0, the dimension (bench_dim_hot) on its last key. Spark's
-- AQE splits neither side of a full outer join.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    f.fact_id,
    f.k,
    f.amount,
    f.tag,
    d.k as d_k,
    d.dim_row,
    d.attr
from {{ source('skewjoin_bench', 'bench_fact_skewed') }} as f
full outer join {{ source('skewjoin_bench', 'bench_dim_hot') }} as d
    on f.k = d.k

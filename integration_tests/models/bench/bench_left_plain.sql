-- Benchmark scenario a: the null-supplying side hot. `dim LEFT JOIN fact`,
-- the fact (right, null-supplying) hot on key 0. Spark's AQE does not split
-- the null-supplying side of an outer join.
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

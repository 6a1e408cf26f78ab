-- Benchmark scenario a, mirrored: `fact RIGHT JOIN dim`, the fact (left,
-- null-supplying) hot on key 0.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    d.k,
    d.dim_row,
    d.attr,
    f.fact_id,
    f.amount,
    f.tag
from {{ source('skewjoin_bench', 'bench_fact_skewed') }} as f
right outer join {{ source('skewjoin_bench', 'bench_dim') }} as d
    on f.k = d.k

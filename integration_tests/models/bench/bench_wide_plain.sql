-- Benchmark scenario c: both sides hot on the same key. 70% of the fact rows
-- and wide_fanout dimension rows on key 0 (bench_dim_wide): the join's
-- output explodes on that key.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    f.fact_id,
    f.k,
    f.amount,
    d.dim_row,
    d.weight
from {{ source('skewjoin_bench', 'bench_fact_skewed') }} as f
inner join {{ source('skewjoin_bench', 'bench_dim_wide') }} as d
    on f.k = d.k

-- Benchmark scenario g: e's inner join (the fact hot) with more than 2000
-- shuffle partitions (the benchmark sets spark.sql.shuffle.partitions for
-- this dataset). Above spark.shuffle.minNumPartitionsToHighlyCompress (2000)
-- map outputs keep an average block size, and AQE's skew detection sees a
-- flat distribution.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    f.fact_id,
    f.k,
    f.amount,
    f.tag,
    d.dim_row,
    d.attr,
    d.weight
from {{ source('skewjoin_bench', 'bench_fact_skewed') }} as f
inner join {{ source('skewjoin_bench', 'bench_dim') }} as d
    on f.k = d.k

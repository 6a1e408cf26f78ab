-- Benchmark baseline: the plain join of the skewed fact, then an aggregate by
-- the join key (join rows and exact integer sums per key). The aggregate
-- needs the rows of a key together, as the join's shuffle already has them,
-- so Spark's AQE does not split the skewed partition here (splitting it would
-- need another shuffle). Its result is the oracle of bench_aggregated_*.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    f.k,
    count(*) as join_rows,
    sum(cast(f.amount * 100 as bigint)) as amount_cents,
    sum(d.dim_row) as dim_rows
from {{ source('skewjoin_bench', 'bench_fact_skewed') }} as f
inner join {{ source('skewjoin_bench', 'bench_dim') }} as d
    on f.k = d.k
group by f.k

-- Benchmark baseline: the plain join a user writes without skewjoin, on the
-- skewed fact (one key holds most rows and fans out on the dimension side).
-- The benchmark runs it with AQE off, AQE on, and AQE with scaled skew
-- thresholds; its result is the oracle of the other bench_skewed_* models.
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

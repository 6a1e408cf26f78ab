-- Benchmark baseline: the plain join a user writes without skewjoin, on the
-- uniform fact (no skew): the control case.
-- The benchmark runs it with the same settings as the strategies;
-- its result is the oracle of the other bench_uniform_* models.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    f.fact_id,
    f.k,
    f.amount,
    f.tag,
    d.dim_row,
    d.attr,
    d.weight
from {{ source('skewjoin_bench', 'bench_fact_uniform') }} as f
inner join {{ source('skewjoin_bench', 'bench_dim') }} as d
    on f.k = d.k

-- Benchmark scenario h: e's inner join with the fact projected to its key
-- and a constant, so that every hot row is the same row.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    f.k,
    f.one,
    d.dim_row,
    d.attr,
    d.weight
from {{ source('skewjoin_bench', 'bench_fact_ident') }} as f
inner join {{ source('skewjoin_bench', 'bench_dim') }} as d
    on f.k = d.k

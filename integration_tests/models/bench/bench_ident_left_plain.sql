-- Benchmark scenario h: a's left join with the fact (null-supplying side)
-- projected to its key and a constant, so that every hot row is the same row.
{{ config(enabled=var('skewjoin_bench', false)) }}
select
    d.k,
    d.dim_row,
    d.attr,
    f.one
from {{ source('skewjoin_bench', 'bench_dim') }} as d
left outer join {{ source('skewjoin_bench', 'bench_fact_ident') }} as f
    on d.k = f.k

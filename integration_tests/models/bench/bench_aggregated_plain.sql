-- Benchmark baseline: the plain join of the skewed fact (or of scenario d's
-- own, var skewjoin_bench_aggregated_fact), then an aggregate by the join
-- key (bench_aggregate_by_key). The aggregate needs the rows of a
-- key together, as the join's shuffle already has them, so Spark's AQE does
-- not split the skewed partition here (splitting it would need another
-- shuffle). Its result is the oracle of bench_aggregated_*.
{{ config(enabled=var('skewjoin_bench', false)) }}
{%- set joined -%}
select
    f.k,
    f.amount,
    d.dim_row
from {{ source('skewjoin_bench', var('skewjoin_bench_aggregated_fact', 'bench_fact_skewed')) }} as f
inner join {{ source('skewjoin_bench', 'bench_dim') }} as d
    on f.k = d.k
{%- endset %}
{{ bench_aggregate_by_key(joined) }}

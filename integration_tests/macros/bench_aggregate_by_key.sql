{#- The benchmark's aggregate by the join key over a join's rows (k, amount,
    dim_row): join rows and exact integer sums per key, so that every plan's
    result has the same checksum. -#}
{% macro bench_aggregate_by_key(join_sql) %}
select
    j.k,
    count(*) as join_rows,
    sum(cast(j.amount * 100 as bigint)) as amount_cents,
    sum(j.dim_row) as dim_rows
from (
    {{ join_sql }}
) as j
group by j.k
{% endmacro %}

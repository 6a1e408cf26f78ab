{#- Data test: the model's rows equal, as a multiset, the rows of `sql`, a
    query written out by hand in schema.yml (for star joins: the plain join
    of the fact and its dimensions, without hints), and the model has at
    least `min_rows` rows. Returns the rows that differ (missing or extra,
    with multiplicity: EXCEPT ALL), and a row when the model has fewer. -#}
{% test equals_sql(model, sql, min_rows=1) %}
{{ multiset_difference(model, sql, min_rows) }}
{% endtest %}


{#- The rows of `actual` (a relation) and of the query `expected` that differ,
    with multiplicity (EXCEPT ALL both ways), each as one JSON text labelled
    by the side it is missing from, and one more row when `actual` has fewer
    than `min_rows` rows (so that two empty sides do not pass a join test
    vacuously); no rows when the two are equal as multisets and `actual` has
    at least `min_rows`. One statement: a dbt test is a connection and a
    query, and the guard used to be a test of its own. -#}
{% macro multiset_difference(actual, expected, min_rows=1) %}
with actual as (
    select * from {{ actual }}
),

expected as (
    {{ expected }}
),

missing as (
    select * from expected
    except all
    select * from actual
),

extra as (
    select * from actual
    except all
    select * from expected
)

select 'missing from the model' as difference, to_json(struct(*)) as row_json from missing
union all
select 'extra in the model' as difference, to_json(struct(*)) as row_json from extra
union all
select 'the model has fewer than {{ min_rows | int }} rows' as difference, cast(count(*) as string) as row_json
from actual
having count(*) < {{ min_rows | int }}
{% endmacro %}

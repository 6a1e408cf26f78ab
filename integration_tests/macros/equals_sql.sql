{#- Data test: the model's rows equal, as a multiset, the rows of `sql`, a
    query written out by hand in schema.yml (for star joins: the plain join
    of the fact and its dimensions, without hints), and the model has at
    least `min_rows` rows. Returns the rows that differ (missing or extra,
    with multiplicity), and a row when the model has fewer. -#}
{% test equals_sql(model, sql, min_rows=1) %}
{{ multiset_difference(model, sql, min_rows) }}
{% endtest %}


{#- The rows of `actual` (a relation) and of the query `expected` that differ,
    with multiplicity, each as one JSON text labelled by the side it is
    missing from, and one more row when `actual` has fewer than `min_rows`
    rows (so that two empty sides do not pass a join test vacuously); no rows
    when the two are equal as multisets and `actual` has at least
    `min_rows`. One statement (a dbt test is a connection and a query, and
    the guard used to be a test of its own) and one aggregate: every row of
    both sides, tagged +1 (actual) or -1 (expected), grouped by all its
    columns; a group whose tags do not sum to 0 differs, by that many copies.
    The sides are unioned by position, as EXCEPT ALL compares them, and the
    grouping compares as EXCEPT ALL does (NULL equals NULL, NaN equals NaN,
    -0.0 equals 0.0). Two EXCEPT ALL (one each way) computed `expected`, the
    plain join, twice. Where it differs from EXCEPT ALL (none of these occurs
    in this project's models, whose columns are scalars): a struct column
    whose field names differ between the sides is compared by position
    (EXCEPT ALL refused it), map columns are compared (EXCEPT ALL refused
    them), and a model column named `sj_oracle_sign` makes the test fail
    with Spark's AMBIGUOUS_REFERENCE (it never passes). Needs Spark 4.0 or
    later (`* except`). -#}
{% macro multiset_difference(actual, expected, min_rows=1) %}
with actual as (
    select * from {{ actual }}
),

expected as (
    {{ expected }}
),

tagged as (
    select
        *,
        1 as sj_oracle_sign
    from actual
    union all
    select
        *,
        -1 as sj_oracle_sign
    from expected
),

surplus as (
    select
        struct(* except (sj_oracle_sign)) as sj_oracle_row,
        sum(sj_oracle_sign) as sj_oracle_surplus
    from tagged
    group by all
    having sum(sj_oracle_sign) != 0
)

select
    if(sj_oracle_surplus < 0, 'missing from the model', 'extra in the model') as difference,
    to_json(sj_oracle_row) as row_json
from surplus
lateral view explode(sequence(1, abs(sj_oracle_surplus))) as sj_oracle_copy
union all
select
    'the model has fewer than {{ min_rows | int }} rows' as difference,
    cast(count(*) as string) as row_json
from actual
having count(*) < {{ min_rows | int }}
{% endmacro %}

{#- Data test: the model's rows equal, as a multiset, the rows of `sql`, a
    query written out by hand in schema.yml (for star joins: the plain join
    of the fact and its dimensions, without hints). Returns the rows that
    differ (missing or extra, with multiplicity: EXCEPT ALL). -#}
{% test equals_sql(model, sql) %}
{{ multiset_difference(model, sql) }}
{% endtest %}


{#- The rows of `actual` (a relation) and of the query `expected` that differ,
    with multiplicity (EXCEPT ALL both ways), labelled by the side they are
    missing from; no rows when the two are equal as multisets. -#}
{% macro multiset_difference(actual, expected) %}
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

select 'missing from the model' as difference, * from missing
union all
select 'extra in the model' as difference, * from extra
{% endmacro %}

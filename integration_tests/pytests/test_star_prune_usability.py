"""star_join and prune_predicate on the Spark Thrift Server, as a new user
writes them: a dimension's `columns` combined with the argument `columns`
(alias-qualified and bare names), and the project var skewjoin_run_queries
false (compiling without measuring, e.g. in CI). Every result is compared
with the plain join as a multiset of rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from support import SCHEMA, inline_compiled_sql, strip_record

from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark

NO_QUERIES = {"skewjoin_run_queries": False}


def test_dimension_columns_combined_with_the_argument_columns(
    compile_inline: Callable[..., Any], inputs_built: DbtProject
) -> None:
    call = (
        "{{ skewjoin.star_join(ref('star_sales'), ["
        "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], 'columns': ['s.store_name', 'region']},"
        "{'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']], 'filter': 'd.month = 2',"
        " 'columns': ['day_name']},"
        "{'relation': ref('star_customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left outer'}"
        "], columns=['f.sale_id', 'f.amount', 'c.segment as region'], broadcast_budget='10MB') }}"
    )
    sql = inline_compiled_sql(compile_inline(call))
    plain = (
        f"select f.sale_id, f.amount, c.segment as region, s.store_name, s.region as s_region, d.day_name "
        f"from {SCHEMA}.star_sales as f "
        f"inner join {SCHEMA}.star_stores as s on f.store_id = s.store_id "
        f"inner join (select * from {SCHEMA}.star_dates where month = 2) as d on f.sold_date = d.date_key "
        f"left join {SCHEMA}.star_customers as c on f.customer_id = c.customer_id"
    )
    assert assert_same_rows(inputs_built.conn, strip_record(sql), plain) > 100


def test_star_join_without_run_time_queries(compile_inline: Callable[..., Any], inputs_built: DbtProject) -> None:
    """No size is looked up: only the forced dimension is broadcast; the
    filtered dimension does not prune the fact; the rows are the plain join's."""
    call = (
        "{{ skewjoin.star_join(ref('star_sales'), ["
        "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], 'broadcast': true},"
        "{'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']], 'filter': 'd.month = 2'}"
        "], columns=['f.sale_id', 's.store_name', 'd.day_name']) }}"
    )
    sql = inline_compiled_sql(compile_inline(call, vars=NO_QUERIES))
    assert "/*+ broadcast(s), merge(d) */" in sql
    assert "compile-time queries are off" in sql and "pruning: none" in sql
    plain = (
        f"select f.sale_id, s.store_name, d.day_name from {SCHEMA}.star_sales as f "
        f"inner join {SCHEMA}.star_stores as s on f.store_id = s.store_id "
        f"inner join {SCHEMA}.star_dates as d on f.sold_date = d.date_key where d.month = 2"
    )
    assert assert_same_rows(inputs_built.conn, strip_record(sql), plain) > 100


def test_prune_predicate_without_run_time_queries(compile_inline: Callable[..., Any], inputs_built: DbtProject) -> None:
    model = (
        "select f.sale_id, d.month\n"
        "from {{ ref('prune_sales') }} as f\n"
        "inner join {{ ref('prune_dates') }} as d on f.date_key = d.date_key\n"
        "where d.year = 2026 and d.month = 2\n"
        "    and {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [\n"
        "        {'relation': ref('prune_dates'), 'filter': 'year = 2026 and month = 2', 'on': ['date_key']}]) }}"
    )
    sql = inline_compiled_sql(compile_inline(model, vars=NO_QUERIES))
    assert "no predicate (true): compile-time queries are off" in sql
    plain = (
        f"select f.sale_id, d.month from {SCHEMA}.prune_sales as f "
        f"inner join {SCHEMA}.prune_dates as d on f.date_key = d.date_key where d.year = 2026 and d.month = 2"
    )
    assert assert_same_rows(inputs_built.conn, strip_record(sql), plain) > 0


def test_a_query_with_a_comment_keeps_its_string_values(
    compile_inline: Callable[..., Any], inputs_built: DbtProject
) -> None:
    """A fact and a dimension given as queries whose comment holds an apostrophe, before a string literal
    that spans two lines: the macro indents the queries into its CTEs, and the literal keeps its value (the
    apostrophe in the comment opened no literal)."""
    fact = "select id, id % 4 as k, -- the fact's rows\n 'p\nq' as w from range(8)"
    dim = "select id as k, -- the dim's key\n 'x\ny' as v from range(4)"
    call = (
        f'{{{{ skewjoin.star_join("{fact}", [{{"relation": "{dim}", "alias": "d", "on": ["k"], '
        f'"filter": "d.k > 1", "columns": ["v"]}}], columns=["f.id", "f.w"]) }}}}'
    )
    sql = inline_compiled_sql(compile_inline(call.replace("\n", "\\n")))
    assert "pruning:" in sql and "f.k in (" in strip_record(sql), sql
    plain = f"select f.id, f.w, d.v from ({fact}) as f inner join ({dim}) as d on f.k = d.k where d.k > 1"
    assert assert_same_rows(inputs_built.conn, strip_record(sql), plain) == 4


def test_timestamp_keys_keep_an_offset_of_seconds(
    compile_inline: Callable[..., Any], inputs_built: DbtProject
) -> None:
    """In a time zone whose old offset has seconds (Europe/Amsterdam before 1937: +00:19:32; 1800: +00:17:30),
    the pruned fact's IN list writes each timestamp with its whole offset, so it is the same instant and the
    fact's rows of it are kept."""
    zone = "set spark.sql.session.timeZone=Europe/Amsterdam"
    values = "timestamp'1800-01-01 00:00:00'), (2, timestamp'1920-06-01 12:00:00'), (3, timestamp'2026-03-29 03:30:00'"
    fact = f"select id, ts from values (1, {values}) as t(id, ts)"
    dim = f"select ts, 1 as year from values (1, {values}) as t(n, ts)"
    call = (
        f'{{% do run_query("{zone}") %}}{{{{ skewjoin.star_join("{fact}", [{{"relation": "{dim}", "alias": "d", '
        f'"on": ["ts"], "filter": "d.year = 1"}}], columns=["f.id"]) }}}}'
    )
    sql = inline_compiled_sql(compile_inline(call))
    assert "+00:17:30' as timestamp)" in sql, sql
    conn = inputs_built.conn
    ((_, before),) = run_sql(conn, "set spark.sql.session.timeZone")
    run_sql(conn, zone)
    try:
        plain = f"select f.id from ({fact}) as f inner join ({dim}) as d on f.ts = d.ts where d.year = 1"
        assert assert_same_rows(conn, strip_record(sql), plain) == 3
    finally:
        run_sql(conn, f"set spark.sql.session.timeZone={before}")


def test_a_key_pruning_cannot_write_is_joined_without_pruning(
    compile_inline: Callable[..., Any], inputs_built: DbtProject
) -> None:
    """A timestamp fact key against a timestamp_ntz dimension key, and collated strings: Spark joins them,
    pruning cannot write their literals; the filtered dimension is joined as written without pruning the
    fact (it used to stop the model with a misleading error), and the rows are the plain join's."""
    fact = ("select id, cast(ts as timestamp) as ts, collate(s, 'UTF8_LCASE') as s from values "
            "(1, '2026-01-01 10:00:00', 'A'), (2, '2026-01-02 10:00:00', 'b'), (3, '2026-01-03 10:00:00', 'c') "
            "as t(id, ts, s)")  # fmt: skip
    dim = ("select cast(ts as timestamp_ntz) as ts, collate(s, 'UTF8_LCASE') as s, x from values "
           "('2026-01-01 10:00:00', 'a', 1), ('2026-01-02 10:00:00', 'B', 0), ('2026-01-03 10:00:00', 'C', 1) "
           "as t(ts, s, x)")  # fmt: skip
    for key in ("ts", "s"):
        call = (f'{{{{ skewjoin.star_join("{fact}", [{{"relation": "{dim}", "alias": "d", "on": ["{key}"], '
                f'"filter": "d.x = 1"}}], columns=["f.id"]) }}}}')  # fmt: skip
        sql = inline_compiled_sql(compile_inline(call))
        assert "pruning: dimension d does not prune the fact" in sql and "pruning: none" in sql, sql
        plain = f"select f.id from ({fact}) as f inner join ({dim}) as d on f.{key} = d.{key} where d.x = 1"
        assert assert_same_rows(inputs_built.conn, strip_record(sql), plain) == 2

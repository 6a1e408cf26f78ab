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
    assert "run-time queries are off" in sql and "pruning: none" in sql
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
    assert "no predicate (true): run-time queries are off" in sql
    plain = (
        f"select f.sale_id, d.month from {SCHEMA}.prune_sales as f "
        f"inner join {SCHEMA}.prune_dates as d on f.date_key = d.date_key where d.year = 2026 and d.month = 2"
    )
    assert assert_same_rows(inputs_built.conn, strip_record(sql), plain) > 0

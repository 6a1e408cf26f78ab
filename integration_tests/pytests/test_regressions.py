"""Regression tests: failing cases found by the property-based tests
(test_properties.py), shrunk and kept with explicit data.

Each test loads its inputs as global temporary views, compiles the macro call
with `dbt compile --inline`, runs the compiled SQL and compares its rows with
the plain Spark join written here, as multisets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from support import inline_compiled_sql

from skewjoin.pytest_plugin import DbtProject
from skewjoin.sql import compare_multisets, run_sql

pytestmark = pytest.mark.spark

LEFT = "global_temp.sj_reg_left"
RIGHT = "global_temp.sj_reg_right"


@pytest.fixture(scope="module")
def conn(dbt_project: DbtProject) -> Iterator[Any]:
    connection = dbt_project.thrift.connect()
    try:
        yield connection
    finally:
        connection.close()


@pytest.fixture(scope="module")
def compare(dbt_project: DbtProject, conn: Any) -> Callable[..., str]:
    """``compare(left_sql, right_sql, call, plain)``: load the inputs, compile
    *call* (a Jinja expression over LEFT and RIGHT), assert its rows equal
    *plain*'s; returns the compiled SQL."""

    def _compare(left_sql: str, right_sql: str, call: str, plain: str) -> str:
        run_sql(conn, f"create or replace global temporary view {LEFT.split('.')[1]} as {left_sql}")
        run_sql(conn, f"create or replace global temporary view {RIGHT.split('.')[1]} as {right_sql}")
        sql = inline_compiled_sql(dbt_project.run(["compile", "--inline", "{{ " + call + " }}"]))
        actual = run_sql(conn, sql)
        expected = run_sql(conn, plain)
        diff = compare_multisets(actual, expected)
        assert diff.equal, f"{diff}\n{sql}"
        assert diff.actual_count > 0, "the regression case must return rows"
        return sql

    return _compare


def test_two_skew_groups_with_the_same_name_get_distinct_ctes(compare: Callable[..., str]) -> None:
    """Two groups named 'hot' used to give two CTEs `a_hot_spread`: Spark
    refused the query (DUPLICATED_CTE_NAMES). CTE names now carry the group's
    position (`a_group_1_hot_spread`, `a_group_3_hot_spread`)."""
    sql = compare(
        "select * from values (1, 0.0D), (2, 0.0D), (3, 1.0D), (4, cast(null as double)) as t(id, k)",
        "select * from values (10, 0.0D), (11, -0.0D), (12, 2.0D) as t(rid, rk)",
        f"skewjoin.skew_join('{LEFT}', '{RIGHT}', on=[['k', 'rk']], join_type='left', columns=['a.id', 'b.rid'], "
        "skew={'groups': ["
        "{'when': 'a.k = 0.0D and a.k = 0.0D', 'percent': 20, 'distribute': 'random', 'name': 'hot'}, "
        "{'when': 'a.k = 0.0D', 'percent': 5, 'distribute': 'random'}, "
        "{'when': 'a.k = 1.0D', 'percent': 12.5, 'distribute': 'random', 'name': 'hot'}]})",
        f"select a.id, b.rid from {LEFT} as a left outer join {RIGHT} as b on a.k = b.rk",
    )
    assert "a_group_1_hot_spread as (" in sql
    assert "a_group_3_hot_spread as (" in sql
    assert "b_group_1_hot_multicast as (" in sql

"""Regression tests: failing cases found by the property-based tests
(test_properties.py), shrunk and kept with explicit data.

Each test loads its inputs as global temporary views, compiles the macro call
with `dbt compile --inline`, runs the compiled SQL and compares its rows with
the plain Spark join written here, as multisets.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from support import inline_compiled_sql

from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import compare_multisets
from skewjoin_devtools.pytest_plugin import DbtProject

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


def test_two_skew_groups_with_the_same_name_do_not_clash(compare: Callable[..., str]) -> None:
    """Two groups named 'hot' used to give two CTEs `a_hot_spread`: Spark
    refused the query (DUPLICATED_CTE_NAMES). Groups are now told apart by
    their position (one arm per group in the side's slotting CTE); a group's
    name only labels it in the decision record."""
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
    names = re.findall(r"^(\w+) as \($", sql, re.M)
    assert len(names) == len(set(names)) and "a_slotted" in names and "b_slotted" in names, names
    assert "group 1 hot:" in sql and "group 3 hot:" in sql
    assert "when 1 then sequence(" in sql and "when 3 then sequence(" in sql


def test_dollar_brace_in_a_hot_key_is_not_substituted_by_spark(compare: Callable[..., str]) -> None:
    """Spark substitutes ``${name}`` inside string literals before parsing
    (spark.sql.variable.substitute): a hot key 'x${spark.sql.shuffle.partitions}'
    became 'x200', so its rows never reached the broadcast branch's filter and
    the rows of the real 'x200' key were routed there. The package writes the
    dollar as ``chr(36)`` (no backslash escape: read alike in either literal mode). Spark substitutes inside comments too: the
    decision record naming the key made the statement fail (the record now
    writes ``$ {``)."""
    key = "x${spark.sql.shuffle.partitions}"
    lit = "'x\\u0024{spark.sql.shuffle.partitions}'"  # the test's own input must not say ${ either
    sql = compare(
        f"select * from values (1, {lit}), (2, {lit}), (3, 'x200'), (4, 'x200'), (5, cast(null as string)) as t(id, k)",
        f"select * from values (10, {lit}), (11, 'x200'), (12, 'x200') as t(rid, rk)",
        f"skewjoin.skew_join('{LEFT}', '{RIGHT}', on=[['k', 'rk']], columns=['a.id', 'a.k', 'b.rid'], "
        f"skew={{'hot_keys': ['{key}']}})",
        f"select a.id, a.k, b.rid from {LEFT} as a join {RIGHT} as b on a.k = b.rk",
    )
    assert "${" not in sql, "no ${ may reach Spark, not even in a comment"
    assert "concat('x', chr(36), '{spark.sql.shuffle.partitions}')" in sql
    assert "hot keys of a (declared): x$ {spark.sql.shuffle.partitions}" in sql


def test_percent_sizes_round_half_up(compare: Callable[..., str]) -> None:
    """12.5% of 20 slots is 2.5 slots: Jinja's round() rounds half to even
    (2), the documented rule and the seed's arithmetic round half up (3)."""
    sql = compare(
        "select id, cast(id % 3 as int) as k from range(60)",
        "select id as rid, cast(id % 4 as int) as rk from range(8)",
        f"skewjoin.skew_join('{LEFT}', '{RIGHT}', on=[['k', 'rk']], columns=['a.id', 'b.rid'], "
        "skew={'total_slots': 20, 'groups': [{'when': 'a.k = 0', 'percent': 12.5, 'distribute': 'random'}]})",
        f"select a.id, b.rid from {LEFT} as a join {RIGHT} as b on a.k = b.rk",
    )
    record = sql[: sql.index("*/")]
    assert "12.5% of 20 = 3 slots -> slots #17-#19" in record, record


def test_nan_found_by_auto_stays_in_the_shuffle_join(compare: Callable[..., str]) -> None:
    """A double key column whose heaviest value is NaN: hot_keys 'auto' found
    it, and the literal writer had no form for it, so compilation failed.
    A value found in the data with no literal form now stays in the shuffle
    join (Spark's join matches NaN to NaN; the result must keep those rows)."""
    sql = compare(
        "select id, case when id < 70 then cast('NaN' as double) when id < 90 then 1.5D else cast(id as double) end as k"
        " from range(100)",
        "select * from values (1, cast('NaN' as double)), (2, 1.5D), (3, 95.0D), (4, cast(null as double)) as t(rid, rk)",
        f"skewjoin.skew_join('{LEFT}', '{RIGHT}', on=[['k', 'rk']], join_type='left', columns=['a.id', 'b.rid'], "
        "skew={'hot_keys': 'auto', 'hot_keys_options': {'min_share': 0.1}})",
        f"select a.id, b.rid from {LEFT} as a left outer join {RIGHT} as b on a.k = b.rk",
    )
    assert "1.5" in sql.split("*/", 1)[1], "1.5 (20% of the rows) is a hot key"

"""Identical hot rows (issue 29): a side whose hot rows are all the same row
(a SELECT of the key and a constant) used to put every hot row on one slot,
because the salt was a hash of the row alone. The salt now hashes the row and
the input split it is read in (`spark_partition_id()` of the scan; a group's
slot is the row's hash modulo its slots moved on by the split): identical
rows in different splits get different slots, and the salt still does not
depend on the order of rows within a split, so a re-run task (the same split)
gives every row the same slot.

On the Thrift server: a left side of 4,000 rows in 4 Parquet files, 2,800 of
them the same row (k = 0, c = 'x'), NULL keys, and duplicates everywhere;
the rows of each plan equal the plain join's as multisets (inner, left,
full), and the hot key's joined rows reach as many join tasks as the splits
allow (they reached one before)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from support import SCHEMA, inline_compiled_sql, partition_shares, strip_record

from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark

LEFT = f"{SCHEMA}.ih_left"
RIGHT = f"{SCHEMA}.ih_right"
DISTINCT = f"{SCHEMA}.ih_left_distinct"
SPLITS = 4


@pytest.fixture(scope="module")
def identical_inputs(inputs_built: DbtProject) -> Iterator[DbtProject]:
    """ih_left: 4,000 rows in 4 files: 2,800 of them (0, 'x'), 200 (NULL, 'x'), the rest (k, 'x') for
    k in 1..100, so every key's rows are identical; ih_left_distinct: the same keys with an id column
    (every row different). ih_right: 2 identical rows of key 0, 1 row of keys 1..99 (key 100 has none),
    a NULL key, key 5000 (no match)."""
    conn = inputs_built.conn
    run_sql(conn, f"drop table if exists {LEFT}")
    run_sql(conn, f"drop table if exists {DISTINCT}")
    run_sql(conn, f"drop table if exists {RIGHT}")
    keys = (
        "case when id % 20 < 14 then 0 when id % 20 = 14 then cast(null as bigint) else id % 100 + 1 end"
    )
    run_sql(conn, f"create table {LEFT} using parquet as select /*+ repartition({SPLITS}) */ "
                  f"{keys} as k, 'x' as c from range(4000)")  # fmt: skip
    run_sql(conn, f"create table {DISTINCT} using parquet as select /*+ repartition({SPLITS}) */ "
                  f"id, {keys} as k, 'x' as c from range(4000)")  # fmt: skip
    run_sql(conn, f"create table {RIGHT} using parquet as "
                  "select cast(k as bigint) as k, label from values (0, 'zero'), (0, 'zero'), (null, 'null key'), "
                  "(5000, 'no match') as t(k, label) "
                  "union all select id as k, concat('r', id) as label from range(1, 100)")  # fmt: skip
    yield inputs_built
    for table in (LEFT, DISTINCT, RIGHT):
        run_sql(conn, f"drop table if exists {table}")


def _compile(project: DbtProject, left: str, join_type: str, skew: str) -> str:
    model = (
        f"{{{{ skewjoin.skew_join('{left}', '{RIGHT}', on=['k'], join_type='{join_type}', "
        f"columns=['a.k', 'a.c', 'b.label'], skew={skew}) }}}}"
    )
    return inline_compiled_sql(project.run(["compile", "--inline", model]))


def _plain(left: str, join_type: str) -> str:
    return (f"select a.k, a.c, b.label from {left} as a {join_type} join {RIGHT} as b on a.k = b.k")


GROUP = "{'groups': [{'when': 'a.k = 0', 'slots': 8}], 'total_slots': 20}"
SPREAD = "{'hot_keys': {'a': [0]}, 'hot_keys_options': {'spread': 'always', 'spread_partitions': 8}}"


@pytest.mark.parametrize(
    ("join_type", "skew"),
    [("inner", GROUP), ("left", GROUP), ("full", SPREAD), ("left", SPREAD)],
    ids=["inner-group", "left-group", "full-hot-spread", "left-hot-spread"],
)
def test_identical_hot_rows_spread_over_the_splits_and_equal_the_plain_join(
    identical_inputs: DbtProject, join_type: str, skew: str, spark_sql: Callable[[str], list[Any]]
) -> None:
    conn = identical_inputs.conn
    sql = _compile(identical_inputs, LEFT, join_type, skew)
    assert "spark_partition_id()" in strip_record(sql)
    rows = assert_same_rows(conn, strip_record(sql), _plain(LEFT, join_type))
    assert rows >= 2800 * 2
    ((splits,),) = run_sql(
        conn, f"select count(distinct sj_split) from (select spark_partition_id() as sj_split from {LEFT} where k = 0) as s"
    )
    assert splits >= 2, splits
    run_sql(conn, "set spark.sql.shuffle.partitions=200")
    shares = partition_shares(conn, strip_record(sql), "p.k = 0")
    if "groups" in skew:
        # a group's slot is the row's hash modulo its slots moved on by the split: 2,800 identical rows
        # in `splits` splits take exactly that many of the 8 slots, placed on distinct join tasks
        assert len(shares) == splits, (shares, splits)
    else:
        # the hot branch repartitions by a hash of (row, split): at most one partition a split
        assert 2 <= len(shares) <= splits, (shares, splits)
    assert shares[0] <= 0.5, shares


def test_distinct_hot_rows_still_reach_every_slot(identical_inputs: DbtProject) -> None:
    conn = identical_inputs.conn
    model = (
        f"{{{{ skewjoin.skew_join('{DISTINCT}', '{RIGHT}', on=['k'], join_type='inner', "
        f"columns=['a.id', 'a.k', 'a.c', 'b.label'], skew={GROUP}) }}}}"
    )
    sql = inline_compiled_sql(identical_inputs.run(["compile", "--inline", model]))
    assert_same_rows(conn, strip_record(sql),
                     f"select a.id, a.k, a.c, b.label from {DISTINCT} as a join {RIGHT} as b on a.k = b.k")  # fmt: skip
    run_sql(conn, "set spark.sql.shuffle.partitions=200")
    shares = partition_shares(conn, strip_record(sql), "p.k = 0")
    assert len(shares) == 8, shares


def test_the_salt_is_the_same_when_the_side_is_read_again(identical_inputs: DbtProject) -> None:
    """What a re-run task computes: the slotted side read twice (two scans of the same files) gives
    every (row, split) the same slot, so a retried map task sends each row where the first attempt did."""
    conn = identical_inputs.conn
    sql = strip_record(_compile(identical_inputs, LEFT, "inner", GROUP))
    slotted = sql[: sql.index("\nb_grouped as (")].rstrip().rstrip(",")  # the CTEs up to a_slotted
    probe = f"{slotted}\nselect k, c, spark_partition_id() as sj_split, sj_slot from a_slotted"
    first = sorted(map(tuple, run_sql(conn, probe)), key=repr)
    second = sorted(map(tuple, run_sql(conn, probe)), key=repr)
    assert first == second
    hot_slots = {r[3] for r in first if r[0] == 0}
    hot_splits = {r[2] for r in first if r[0] == 0}
    assert len(hot_slots) == len(hot_splits) >= 2, (hot_slots, hot_splits)


def test_auto_says_how_far_the_salt_of_identical_rows_reaches(identical_inputs: DbtProject) -> None:
    """'auto' plans a group for key 0 (b's 2 rows of it are over a broadcast budget of 1) and counts
    what the salt does with a's rows of it: 2,800 rows, 1 distinct row, one slot a split holding it;
    the record says so, and the rows equal the plain join's."""
    conn = identical_inputs.conn
    skew = "{'auto': {'max_broadcast_rows': 1, 'total_slots': 40}}"
    sql = _compile(identical_inputs, LEFT, "inner", skew)
    ((splits,),) = run_sql(
        conn, f"select count(distinct sj_split) from (select spark_partition_id() as sj_split from {LEFT} where k = 0) as s"
    )
    line = next(x for x in sql.splitlines() if "auto: group 'a.k = 0'" in x)
    assert f"its 2,800 rows of a are 1 distinct row in {splits} input splits" in line, line
    assert f"reaches {splits} of its" in line and "identical rows in one split share a slot" in line, line
    assert_same_rows(conn, strip_record(sql), _plain(LEFT, "inner"))

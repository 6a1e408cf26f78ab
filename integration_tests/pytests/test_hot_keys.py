"""skew_join with hot keys (Hive's skewed join, PRPD), on the Spark Thrift Server.

Every model in models/hot_keys is compared with the plain Spark join by the
`equals_plain_join` data test. These tests also check that hot rows are never
hash-shuffled by their key (they reach the join through a broadcast join,
possibly after an even round-robin spread), that the spread works on
single-file input, what the decision record says of keys found in real data,
and that Spark reads every hostile literal back as its value. The text of the
hot-key branches and literals is checked without Spark by the render tier.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import Built
from support import SCHEMA, inline_compiled_sql, partition_shares, session_settings, strip_record

from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark


def test_hot_key_models_equal_the_plain_join(skew_models_built: Built) -> None:
    models = {n[1] for n in skew_models_built.nodes if n[0] == "model"}
    tests = {n[1] for n in skew_models_built.nodes if n[0] == "test"}
    assert {"hk_hostile_declared", "hk_hostile_auto", "hk_both_sides_full", "hk_null_supplying_hot"} <= models
    # one data test per model (its rows equal the plain join's, and it has rows), all passed
    hot_key_models = {m for m in models if m.startswith("hk_")}
    assert len(hot_key_models) == 18
    assert all(any(t.startswith(f"equals_plain_join_{m}_") for t in tests) for m in hot_key_models), tests


def test_verify_counts_the_hot_keys_on_spark(skew_models_built: Built) -> None:
    """Declared hot keys verified against spread_left on the server: key 0 (32,000 of 40,000 rows) kept, key 8
    (80 rows, under 1/40) dropped, and the splits read by the same query. The model equals the plain left
    join (its data test)."""
    sql = skew_models_built.sql["hk_verify"]
    assert "hot key 8 of a dropped: 0.2% of a's rows (80 of 40,000), under 2.5% (one slot's even share, " \
        "1/40 slots)" in sql, sql
    assert "hot key 0 of a verified: 80.0% of a's rows (32,000 of 40,000) >= 2.5%" in sql
    assert "hot keys of a (declared): 0" in sql
    body = strip_record(sql)
    assert "coalesce(a.k in (cast(0 as bigint)), false)" in body and "cast(8 as bigint)" not in body


def _plan_lines(conn: Any, sql: str) -> list[str]:
    run_sql(conn, "set spark.sql.adaptive.enabled=false")
    try:
        plan = run_sql(conn, "explain " + sql)[0][0]
    finally:
        run_sql(conn, "set spark.sql.adaptive.enabled=true")
    physical = plan.split("== Physical Plan ==")[-1]
    return [line for line in physical.splitlines() if line.strip()]


_PREFIX = re.compile(r"^[\s:+\-]*(\*\(\d+\)\s*)?")


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(" :+-"))


def _node(line: str) -> str:
    return _PREFIX.sub("", line)


def _ancestors(lines: list[str], index: int) -> list[str]:
    """The operators above lines[index] in the plan tree, nearest first."""
    out, depth = [], _depth(lines[index])
    for line in reversed(lines[:index]):
        if _depth(line) < depth:
            out.append(_node(line))
            depth = _depth(line)
    return out


def test_hot_rows_are_never_hash_shuffled_by_key(skew_models_built: Built, inputs_built: DbtProject) -> None:
    """In the physical plan, the scan that reads the hot rows of a reaches a
    BroadcastHashJoin through no hash exchange on the key (at most a spread by a
    hash of the whole row, `sj_spread`)."""
    conn = inputs_built.conn
    for model in ("hk_explicit_inner", "hk_spread_never"):
        spread = "repartition(" in skew_models_built.sql[model]
        lines = _plan_lines(conn, strip_record(skew_models_built.sql[model]))
        hot_filters = [
            i for i, line in enumerate(lines)
            if _node(line).startswith("Filter (coalesce(") and re.search(r"coalesce\(\(?\w+#\d+L?( IN \(| = )0", line)
        ]
        streamed = []
        for i in hot_filters:
            chain = _ancestors(lines, i)
            join = next((a for a in chain if "Join" in a), None)
            if join is None:
                continue
            below_join = chain[: chain.index(join)]
            if join.startswith("BroadcastHashJoin") and not any("BroadcastExchange" in a for a in below_join):
                streamed.append(below_join)
        assert streamed, f"{model}: no hot-row scan streams into a BroadcastHashJoin:\n" + "\n".join(lines)
        for below in streamed:
            by_key = [a for a in below if "hashpartitioning" in a and "sj_spread" not in a]
            assert not by_key, f"{model}: hot rows hash-shuffled by the key: {below}"
            assert any("hashpartitioning(sj_spread" in a for a in below) == spread, f"{model}: spread {below}"
            assert not any("RoundRobinPartitioning" in a for a in below), f"{model}: a sorted round robin {below}"


def test_hot_branch_spreads_rows_of_single_file_input(skew_models_built: Built, inputs_built: DbtProject) -> None:
    """spread_left is one file (one input split). Without spreading, one task
    of the hot branch joins every hot row; with it, no task holds more than
    20% of them."""
    conn = inputs_built.conn
    splits = run_sql(
        conn,
        f"select count(distinct p) from (select spark_partition_id() as p from {SCHEMA}.spread_left) as s",
    )[0][0]
    assert splits == 1
    sql = skew_models_built.sql["hk_spread"]
    assert "spread by xxhash64 of the whole row and its input split over 10 partitions: its input has only 1 splits" in sql
    spread = partition_shares(conn, strip_record(sql), "p.k = 0")
    unspread = partition_shares(conn, strip_record(skew_models_built.sql["hk_spread_never"]), "p.k = 0")
    assert unspread[0] == 1.0, unspread
    assert spread[0] <= 0.20 and len(spread) >= 8, spread


def test_auto_detection_record_names_keys_and_shares(skew_models_built: Built, inputs_built: DbtProject) -> None:
    sql = skew_models_built.sql["hk_auto_left"]
    record = sql[: sql.index("*/")]
    conn = inputs_built.conn
    total = run_sql(conn, f"select count(*) from {SCHEMA}.typed_left")[0][0]
    counts = dict(run_sql(conn, f"select k_big, count(*) from {SCHEMA}.typed_left group by k_big"))
    # one read with Spark's sketch: typed_left has at most 32 keys, under the 1,000 it tracks, so its counts
    # are exact
    assert re.search(r"hot keys of a found at compile time \(sketched: one query read every row of a once and counted "
                     rf"its rows, .*?; [0-9.]+ s, {total} rows", record), record  # fmt: skip
    expected = sorted((k for k in counts if k is not None and counts[k] / total >= 0.08), key=lambda k: -counts[k])
    assert expected[:2] == [0, 7]
    for k in expected:
        assert f"{k} {100 * counts[k] / total:.1f}%" in record, (k, record)
    assert "hot branch for keys of a (" + "; ".join(str(k) for k in expected) + ")" in record


HOSTILE = [
    "it's", "back\\slash", "trailing\\", "\\' or 1=1 --", "--comment", "/*open", "close*/", "${var}",
    "{{ jinja }}", "new\nline", "tab\there", 'dq"x', "ünïcödé ✓ 日本", "", "x" * 3000,
]


def test_every_hostile_string_round_trips_as_one_literal(
    compile_inline: Callable[..., Any], inputs_built: DbtProject
) -> None:
    """Each hostile value, written as the package writes strings, equals exactly one row of hostile_keys
    (built from char() codes, not literals), with spark.sql.parser.escapedStringLiterals off (Spark's
    default) and on (backslashes in a literal kept as written: a backslash escape read another text)."""
    import json

    call = (
        "{%- set vals = " + json.dumps(HOSTILE) + " -%}select\n"
        "{%- for v in vals %}\n    (select count(*) from {{ ref('hostile_keys') }} as h where h.hkey = "
        "{{ skewjoin._sj_quote_string(v) }}) as c{{ loop.index0 }}{{ ',' if not loop.last }}{%- endfor %}"
    )
    sql = inline_compiled_sql(compile_inline(call))
    counts = run_sql(inputs_built.conn, sql)[0]
    assert list(counts) == [1] * len(HOSTILE), dict(zip(HOSTILE, counts, strict=False))
    with session_settings(inputs_built.conn, {"spark.sql.parser.escapedStringLiterals": "true"}):
        counts = run_sql(inputs_built.conn, sql)[0]
    assert list(counts) == [1] * len(HOSTILE), dict(zip(HOSTILE, counts, strict=False))


FOLD_LEFT = ("select id, case when id % 10 = 9 then null when id % 10 < 6 then 0 else id % 50 + 1 end as k, "
             "concat('p', id % 7) as payload from range(2000)")  # fmt: skip
# key 5 on 301 of b's 402 rows; key 0 once; a NULL key once
FOLD_RIGHT = ("select id % 100 as k, concat('r', id) as label from range(100) union all "
              "select 5 as k, concat('five', id) as label from range(300) union all "
              "select 0 as k, 'zero' as label union all select cast(null as bigint) as k, 'rnull' as label")  # fmt: skip


@pytest.mark.parametrize("join_type", ["inner", "left", "right", "full", "left semi", "left anti"])
def test_hot_keys_of_both_sides_in_one_branch_equal_the_plain_join(
    inputs_built: DbtProject, compile_inline: Callable[..., Any], join_type: str
) -> None:
    """Hot keys 'auto' on both sides: a's key 0 (1,200 rows) and b's key 5 (301 rows, within
    max_broadcast_rows) go through a's one branch, so neither side is read a third time; the rows are
    the plain join's, for every join type (NULL keys on both sides, duplicates of key 5 on b)."""
    semi = join_type in ("left semi", "left anti")
    columns = ["a.id", "a.k", "a.payload"] + ([] if semi else ["b.label"])
    call = (f'{{{{ skewjoin.skew_join("{FOLD_LEFT}", "{FOLD_RIGHT}", on=["k"], join_type="{join_type}", '
            f'columns={columns}, skew={{"hot_keys": {{"a": "auto", "b": "auto"}}, '
            '"hot_keys_options": {"min_share": 0.05}}) }}')  # fmt: skip
    sql = inline_compiled_sql(compile_inline(call))
    record = sql.split("*/")[0]
    if "left to AQE" not in record:
        assert "hot keys of b (5) joined in a's branch: b's 301 counted rows of them fit max_broadcast_rows" in record
        assert "hot branch for keys of a (0; 5)" in record and "hot branch for keys of b" not in record, record
    plain = (f"select {', '.join(columns)} from ({FOLD_LEFT}) as a {join_type} join ({FOLD_RIGHT}) as b "
             "on a.k = b.k")  # fmt: skip
    assert run_sql(inputs_built.conn, f"select count(*) from ({plain}) as t")[0][0] > 0
    assert_same_rows(inputs_built.conn, strip_record(sql), plain)

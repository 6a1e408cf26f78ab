"""skew_join with hot keys (Hive's skewed join, PRPD), on the Spark Thrift Server.

Every model in models/hot_keys is compared with the plain Spark join by the
`equals_plain_join` data test. These tests also check that hot rows are never
hash-shuffled by their key (they reach the join through a broadcast join,
possibly after an even round-robin spread), that the spread works on
single-file input, and what the decision record says.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from support import SCHEMA, inline_compiled_sql, partition_shares, strip_record

from skewjoin.pytest_plugin import DbtProject
from skewjoin.sql import run_sql

pytestmark = pytest.mark.spark


def test_hot_key_models_equal_the_plain_join(build: Callable[..., Any]) -> None:
    nodes = build("path:models/hot_keys", min_tests=34)
    models = {n[1] for n in nodes if n[0] == "model"}
    assert {"hk_hostile_declared", "hk_hostile_auto", "hk_both_sides_full", "hk_null_supplying_hot"} <= models


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


def test_hot_rows_are_never_hash_shuffled_by_key(build: Callable[..., Any], inputs_built: DbtProject) -> None:
    """In the physical plan, the scan that reads the hot rows of a reaches a
    BroadcastHashJoin through no hash exchange (at most a round-robin spread)."""
    build("hk_explicit_inner hk_spread")
    conn = inputs_built.conn
    for model, spread in (("hk_explicit_inner", True), ("hk_spread_never", False)):
        if model == "hk_spread_never":
            build(model)
        lines = _plan_lines(conn, strip_record(inputs_built.compiled_sql(model)))
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
            assert not any("hashpartitioning" in a for a in below), f"{model}: hot rows hash-shuffled: {below}"
            assert any("RoundRobinPartitioning" in a for a in below) == spread, f"{model}: spread {below}"


def test_hot_branch_spreads_rows_of_single_file_input(build: Callable[..., Any], inputs_built: DbtProject) -> None:
    """spread_left is one file (one input split). Without spreading, one task
    of the hot branch joins every hot row; with it, no task holds more than
    20% of them."""
    build("hk_spread hk_spread_never")
    conn = inputs_built.conn
    splits = run_sql(
        conn,
        f"select count(distinct p) from (select spark_partition_id() as p from {SCHEMA}.spread_left) as s",
    )[0][0]
    assert splits == 1
    sql = inputs_built.compiled_sql("hk_spread")
    assert "spread by xxhash64 of the whole row over 10 partitions: its input has only 1 splits" in sql
    spread = partition_shares(conn, strip_record(sql), "p.k = 0")
    unspread = partition_shares(conn, strip_record(inputs_built.compiled_sql("hk_spread_never")), "p.k = 0")
    assert unspread[0] == 1.0, unspread
    assert spread[0] <= 0.20 and len(spread) >= 8, spread


def test_auto_detection_record_names_keys_and_shares(build: Callable[..., Any], inputs_built: DbtProject) -> None:
    build("hk_auto_left")
    sql = inputs_built.compiled_sql("hk_auto_left")
    record = sql[: sql.index("*/")]
    conn = inputs_built.conn
    total = run_sql(conn, f"select count(*) from {SCHEMA}.typed_left")[0][0]
    counts = dict(run_sql(conn, f"select k_big, count(*) from {SCHEMA}.typed_left group by k_big"))
    assert re.search(rf"hot keys of a found at run time \(one aggregate query over every row, exact counts, [0-9.]+ s, {total} rows", record)
    expected = sorted((k for k in counts if k is not None and counts[k] / total >= 0.08), key=lambda k: -counts[k])
    assert expected[:2] == [0, 7]
    for k in expected:
        assert f"{k} {100 * counts[k] / total:.1f}%" in record, (k, record)
    assert "hot branch for keys of a (" + "; ".join(str(k) for k in expected) + ")" in record


def test_auto_with_no_key_above_threshold_is_the_plain_join(compile_inline: Callable[..., Any]) -> None:
    sql = inline_compiled_sql(
        compile_inline(
            "{{ skewjoin.skew_join(ref('typed_right'), ref('typed_left'), on=['rid'], join_type='left', "
            "columns=['a.rid'], skew={'hot_keys': 'auto', 'hot_keys_options': {'min_share': 0.5}}) }}".replace(
                "on=['rid']", "on=[['rid', 'id']]"
            )
        )
    )
    assert "none above the threshold" in sql
    assert "strategy: plain join" in sql
    assert "broadcast" not in strip_record(sql)


def test_hostile_keys_are_single_literals(build: Callable[..., Any], inputs_built: DbtProject) -> None:
    build("hk_hostile_declared")
    sql = strip_record(inputs_built.compiled_sql("hk_hostile_declared"))
    assert "'it\\'s'" in sql
    assert "'back\\\\slash'" in sql
    assert "'new\\nline'" in sql
    assert "'close*/'" in sql
    # the query keeps its shape: one statement, every literal closed
    assert ";" not in re.sub(r"'(?:[^'\\]|\\.)*'", "''", sql)


HOSTILE = [
    "it's", "back\\slash", "trailing\\", "\\' or 1=1 --", "--comment", "/*open", "close*/", "${var}",
    "{{ jinja }}", "new\nline", "tab\there", 'dq"x', "ünïcödé ✓ 日本", "", "x" * 3000,
]


def test_every_hostile_string_round_trips_as_one_literal(
    compile_inline: Callable[..., Any], inputs_built: DbtProject
) -> None:
    """Each hostile value, written by the package's literal escaping, equals
    exactly one row of hostile_keys (built from char() codes, not literals)."""
    import json

    call = (
        "{%- set vals = " + json.dumps(HOSTILE) + " -%}select\n"
        "{%- for v in vals %}\n    (select count(*) from {{ ref('hostile_keys') }} as h where h.hkey = "
        "{{ skewjoin._sj_quote_string(v) }}) as c{{ loop.index0 }}{{ ',' if not loop.last }}{%- endfor %}"
    )
    sql = inline_compiled_sql(compile_inline(call))
    counts = run_sql(inputs_built.conn, sql)[0]
    assert list(counts) == [1] * len(HOSTILE), dict(zip(HOSTILE, counts))

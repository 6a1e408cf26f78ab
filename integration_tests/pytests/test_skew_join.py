"""skew_join with explicit skew groups (HIVE-3286), on the Spark Thrift Server.

Every model in models/skew_join is compared with the plain Spark join of the
same inputs by the `equals_plain_join` data test (EXCEPT ALL both ways, so a
lost or duplicated row fails). These tests build them, check the seed's slot
layout, the spread of a hot key over the group's slots, the compile-time
errors, and the type rules against Spark's own analyzer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from support import SCHEMA, assert_clear_compile_error, error_text, inline_compiled_sql, partition_shares, strip_record

from skewjoin.spark_backend import run_sql
from skewjoin.testing.plugin import DbtProject

pytestmark = pytest.mark.spark


def test_skew_group_models_equal_the_plain_join(build: Callable[..., Any]) -> None:
    nodes = build("path:models/skew_join", min_tests=26)
    models = {n[1] for n in nodes if n[0] == "model"}
    assert {"sj_seed_three_groups", "sj_key_date", "sj_semi", "sj_anti", "sj_multi_key"} <= models


def test_seed_example_layout_in_decision_record(build: Callable[..., Any], inputs_built: DbtProject) -> None:
    build("sj_seed_three_groups")
    sql = inputs_built.compiled_sql("sj_seed_three_groups")
    record = sql[sql.index("/* skewjoin.skew_join decision record") : sql.index("*/")]
    # The seed: 20 reducers, groups of 10%, 20%, 40% -> #6-#7, #8-#11, #12-#19, rest #0-#5.
    assert "total slots 20" in record
    assert "rows in no group: slots #0-#5" in record
    assert re.search(r"group 1 .*driver a, 10(\.0)?% of 20 = 2 slots -> slots #6-#7, distribute random", record)
    assert re.search(r"group 2 .*driver b, 20(\.0)?% of 20 = 4 slots -> slots #8-#11, distribute expression", record)
    assert re.search(r"group 3 .*driver a, 40(\.0)?% of 20 = 8 slots -> slots #12-#19, distribute keys", record)
    # one slotting CTE per side, one arm per group: b rows of group 1 are
    # multicast to the group's two slots only, a rows of group 2 to its four
    a_slotted = sql[sql.index("a_slotted as (") : sql.index("b_grouped as (")]
    b_slotted = sql[sql.index("b_slotted as (") :]
    assert re.search(r"when 1 then array\(6 \+ pmod\(xxhash64\(", a_slotted)
    assert "when 2 then sequence(8, 11)" in a_slotted
    assert re.search(r"when 3 then array\(12 \+ pmod\(xxhash64\(a\.`key`\), 8\)\)", a_slotted)
    assert "else array(pmod(xxhash64(a.`key`), 6))" in a_slotted
    assert "when 1 then sequence(6, 7)" in b_slotted
    assert "when 2 then array(8 + pmod(xxhash64(upper(b.key)), 4))" in b_slotted
    assert re.search(r"when 3 then array\(12 \+ pmod\(xxhash64\(b\.`key`\), 8\)\)", b_slotted)
    # each side is read once: no CTE per group
    assert sql.count("from a_input as a") == 1 and sql.count("from b_input as b") == 1


def test_skew_group_spreads_the_hot_key(build: Callable[..., Any], inputs_built: DbtProject) -> None:
    """No join task of the salted group (30 of 40 slots) holds more than 20% of
    the hot key's rows; the plain join puts all of them (32,000 rows x 2
    matches) in one task. Slots are logical: Spark hashes (key, slot) onto its
    shuffle partitions, so 30 slots reach fewer than 30 distinct tasks."""
    build("sj_spread")
    conn = inputs_built.conn
    run_sql(conn, "set spark.sql.shuffle.partitions=40")
    sql = strip_record(inputs_built.compiled_sql("sj_spread"))
    skewed = partition_shares(conn, sql, "p.k = 0")
    plain = partition_shares(
        conn,
        f"select a.id, a.k, b.label from {SCHEMA}.spread_left as a join {SCHEMA}.spread_right as b on a.k = b.k",
        "p.k = 0",
    )
    assert plain[0] == 1.0, f"the plain join should put the hot key in one task, shares {plain[:3]}"
    assert len(skewed) >= 12, f"hot rows reached only {len(skewed)} tasks"
    assert skewed[0] <= 0.20, f"largest task holds {skewed[0]:.0%} of the hot rows: {skewed}"


def test_compiled_models_have_decision_records_and_no_nondeterminism(
    build: Callable[..., Any], inputs_built: DbtProject
) -> None:
    build("path:models/skew_join path:models/hot_keys", min_tests=20)
    compiled = list((inputs_built.project_dir / "target" / "compiled").rglob("*.sql"))
    checked = 0
    for path in compiled:
        if "schema.yml" in str(path) or ("/models/skew_join/" not in str(path) and "/models/hot_keys/" not in str(path)):
            continue
        sql = path.read_text()
        assert "/* skewjoin.skew_join decision record (model " in sql, path
        body = strip_record(sql)
        body = re.sub(r"'(?:[^'\\]|\\.)*'", "''", body)
        for fn in ("rand(", "randn(", "uuid(", "shuffle(", "current_timestamp", "monotonically_increasing_id"):
            assert fn not in body.lower(), f"{path.name} uses {fn}"
        checked += 1
    assert checked >= 20


def test_same_join_compiles_to_identical_salts(compile_inline: Callable[..., Any]) -> None:
    call = (
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
        "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}, {'when': 'b.k_int = 7', 'slots': 3}]}) }}"
    )
    first = inline_compiled_sql(compile_inline(call))
    second = inline_compiled_sql(compile_inline(call))
    assert first == second
    assert "pmod(xxhash64(a.id, a.k_int" in first


ERROR_CASES: list[tuple[str, str, str]] = [
    ("when_both_sides", "skew={'groups': [{'when': 'a.k_int = b.k_int', 'slots': 2}]}", "references both sides"),
    ("when_no_side", "skew={'groups': [{'when': '1 = 1', 'slots': 2}]}", "references no side"),
    ("when_non_key", "skew={'groups': [{'when': \"a.payload = 'x'\", 'slots': 2}]}", "which is not a join key"),
    ("when_nondeterministic", "skew={'groups': [{'when': 'a.k_int = 0 and rand() < 0.5', 'slots': 2}]}", "non-deterministic"),
    ("when_unknown_alias", "skew={'groups': [{'when': 'c.k_int = 0', 'slots': 2}]}", "unknown alias 'c'"),
    ("when_bare_column", "skew={'groups': [{'when': 'k_int = 0', 'slots': 2}]}", "without an alias"),
    ("when_statement_end", "skew={'groups': [{'when': 'a.k_int = 0; drop table x', 'slots': 2}]}", "may not end the statement"),
    ("percent_over_100", "skew={'groups': [{'when': 'a.k_int = 0', 'percent': 150}]}", "at most 100"),
    ("percents_add_over_100", "skew={'groups': [{'when': 'a.k_int = 0', 'percent': 60}, {'when': 'a.k_int = 1', 'percent': 50}]}", "over 100%"),
    ("group_no_slot", "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 0}]}", "at least one slot"),
    ("group_no_size", "skew={'groups': [{'when': 'a.k_int = 0'}]}", "needs a size"),
    ("groups_take_all_slots", "skew={'total_slots': 4, 'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}", "at least one slot must stay"),
    ("distribute_other_side", "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2, 'distribute': 'b.attr'}]}", "same side"),
    ("unknown_spec_key", "skew={'grups': []}", "unknown key 'grups'"),
    ("unknown_group_key", "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2, 'size': 3}]}", "unknown key 'size'"),
    ("bad_join_type", "join_type='cross', skew={'groups': []}", "unknown join type 'cross'"),
    ("left_join_multicasts_preserved", "join_type='left', skew={'groups': [{'when': 'b.k_int = 0', 'slots': 3}]}", "split only the preserved side"),
    ("full_join_random", "join_type='full', skew={'groups': [{'when': 'a.k_int = 0', 'slots': 3}]}", "distribute: 'keys'"),
    ("semi_selects_right", "join_type='left semi', columns=['a.id', 'b.rid']", "returns only the rows of a"),
    ("columns_unknown_alias", "columns=['x.id']", "uses the alias 'x'"),
    ("columns_unknown_column", "columns=['a.nope']", "a has no column 'nope'"),
    ("hot_key_arity", "on=['k_int', 'region'], skew={'hot_keys': [0]}", "wrong arity"),
    ("hot_key_type", "skew={'hot_keys': ['zero']}", "is not a valid int"),
    ("hot_key_side", "skew={'hot_keys': {'c': [0]}}", "is not a side"),
    ("hot_min_share", "skew={'hot_keys': 'auto', 'hot_keys_options': {'min_share': 2}}", "min_share is a fraction"),
    ("total_slots_bad", "skew={'total_slots': 1, 'groups': [{'when': 'a.k_int = 0', 'slots': 1}]}", "at least 2"),
]


@pytest.mark.parametrize(("name", "args", "expected"), ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_bad_input_is_a_clear_compile_error(
    compile_inline: Callable[..., Any], name: str, args: str, expected: str
) -> None:
    if not args.startswith("on="):
        args = "on=['k_int'], " + args
    call = "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), " + args + ") }}"
    assert_clear_compile_error(compile_inline(call, expect_failure=True), name, "skew_join", expected)


def test_unknown_key_column_names_the_side(compile_inline: Callable[..., Any]) -> None:
    result = compile_inline(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['nope']) }}", expect_failure=True
    )
    message = error_text(result)
    assert "argument `on`" in message and "'nope' is not a column of the left side (a)" in message, message


def test_demo_models_are_not_built_when_installed(inputs_built: DbtProject) -> None:
    """The package's demo models stay disabled in a project that installs it,
    unless that project opts in with the var skewjoin_build_demo."""

    def package_models(vars: dict[str, Any] | None) -> list[str]:
        result = inputs_built.run(["ls", "--resource-type", "model", "--output", "name"], vars=vars)
        return [str(n) for n in result.result if str(n).startswith("demo_")]  # type: ignore[union-attr]

    assert package_models(None) == []
    opted_in = package_models({"skewjoin_build_demo": True})
    assert "demo_orders" in opted_in and "demo_orders_by_group" in opted_in


PAIRS = [
    ("tinyint", "int"), ("smallint", "bigint"), ("int", "bigint"), ("int", "decimal(10,2)"),
    ("bigint", "decimal(18,4)"), ("decimal(10,2)", "decimal(18,4)"), ("decimal(38,0)", "decimal(38,10)"),
    ("int", "double"), ("int", "float"), ("float", "double"), ("decimal(10,2)", "double"),
    ("string", "int"), ("string", "bigint"), ("string", "double"), ("string", "boolean"),
    ("date", "timestamp"), ("string", "string"), ("date", "date"),
]
SAMPLE = {"string": "'1'", "date": "date'2020-01-01'", "timestamp": "timestamp'2020-01-01 00:00:00'", "boolean": "true"}


def _spark_compare_type(conn: Any, left: str, right: str) -> str:
    lv, rv = SAMPLE.get(left, "1"), SAMPLE.get(right, "1")
    plan = run_sql(
        conn,
        f"explain extended select * from (select cast({lv} as {left}) as x) as l "
        f"join (select cast({rv} as {right}) as y) as r on l.x = r.y",
    )[0][0]
    analyzed = plan.split("== Analyzed Logical Plan ==")[1].split("== Optimized")[0]
    cond = re.search(r"Join Inner, \((.*)\)\n", analyzed).group(1)  # type: ignore[union-attr]
    lhs, rhs = cond.split(" = ", 1)

    def outer_type(side: str, declared: str) -> str:
        m = re.match(r"(?:try_)?cast\((.*) as ([a-z]+(?:\(\d+,\d+\))?)\)$", side.strip())
        return m.group(2) if m else declared

    lt, rt = outer_type(lhs, left), outer_type(rhs, right)
    assert lt == rt, f"{left} vs {right}: sides compared as {lt} and {rt}"
    return lt


@pytest.mark.parametrize("ansi", [True, False])
def test_common_key_type_matches_spark(compile_inline: Callable[..., Any], inputs_built: DbtProject, ansi: bool) -> None:
    """The type the package computes a key's routing in is the one Spark's own
    equality compares the two keys in (read from Spark's analyzed plan)."""
    pairs_json = json.dumps(PAIRS)
    call = (
        "{%- set out = [] -%}{%- for p in " + pairs_json + " -%}"
        "{%- do out.append(skewjoin._sj_common_type(p[0], p[1], " + ("true" if ansi else "false") + ")) -%}"
        "{%- endfor -%}{{ tojson(out) }}"
    )
    ours = json.loads(inline_compiled_sql(compile_inline(call)))
    conn = inputs_built.conn
    run_sql(conn, f"set spark.sql.ansi.enabled={'true' if ansi else 'false'}")
    try:
        mismatches = []
        for (left, right), mine in zip(PAIRS, ours):
            if not ansi and "string" in (left, right) and "decimal" in left + right:
                continue
            theirs = _spark_compare_type(conn, left, right)
            if mine != theirs:
                mismatches.append((left, right, mine, theirs))
    finally:
        run_sql(conn, "set spark.sql.ansi.enabled=true")
    assert not mismatches, f"(left, right, ours, spark): {mismatches}"

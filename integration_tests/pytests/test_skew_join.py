"""skew_join with explicit skew groups (HIVE-3286), on the Spark Thrift Server.

Every model in models/skew_join is compared with the plain Spark join of the
same inputs by the `equals_plain_join` data test (a multiset difference both
ways, so a lost or duplicated row fails). These tests build them, check the spread of a
hot key over the group's slots, that a compile error reaches the user through
dbt, and the type rules against Spark's own analyzer. The slot layout, the
rounding, every compile-error case and the text of the compiled SQL are
checked without Spark by the render tier (tests/render).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import Built
from render.harness import RaisedCompilerError, Renderer, Table
from support import (
    PARTITIONS_AS_PLANNED,
    SCHEMA,
    assert_clear_compile_error,
    inline_compiled_sql,
    partition_shares,
    session_settings,
    strip_record,
)

from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark


def test_skew_group_models_equal_the_plain_join(skew_models_built: Built) -> None:
    tests = {n[1] for n in skew_models_built.nodes if n[0] == "test"}
    models = {n[1] for n in skew_models_built.nodes if n[0] == "model"}
    assert {"sj_seed_three_groups", "sj_key_date", "sj_semi", "sj_anti", "sj_multi_key"} <= models
    assert len([t for t in tests if any(m in t for m in models if m.startswith("sj_"))]) >= 26


def test_default_columns_take_a_free_name(skew_models_built: Built) -> None:
    """a has `region` and `b_region`: b's `region` is output as b_region_2, so
    Spark runs the query (b_region would fail with COLUMN_ALREADY_EXISTS), and
    the model's rows equal the plain join with those columns listed (its
    equals_plain_join data test, which the build ran and passed)."""
    name = "sj_default_columns_free_name"
    assert "b.region as b_region_2" in strip_record(skew_models_built.sql[name])
    ran = [n for n in skew_models_built.nodes if n[0] == "test" and name in n[1]]
    assert any("equals_plain_join" in n[1] for n in ran) and all(n[2] == "pass" for n in ran)


def test_skew_group_spreads_the_hot_key(skew_models_built: Built, inputs_built: DbtProject) -> None:
    """The salted group (30 of 40 slots) puts the hot key's rows (32,000 rows x 2
    matches) in 30 join tasks, one slot each, none holding more than 5% of
    them; the plain join puts all of them in one task. The model was compiled
    with the server's 200 shuffle partitions, and its slot values were chosen
    for them: numbered #10-#39, the 30 slots would share about 28 tasks."""
    conn = inputs_built.conn
    run_sql(conn, "set spark.sql.shuffle.partitions=200")
    sql = strip_record(skew_models_built.sql["sj_spread"])
    assert "key 0's 30 slots placed on 30 distinct shuffle partitions of 200" in skew_models_built.sql["sj_spread"]
    skewed = partition_shares(conn, sql, "p.k = 0")
    plain = partition_shares(
        conn,
        f"select a.id, a.k, b.label from {SCHEMA}.spread_left as a join {SCHEMA}.spread_right as b on a.k = b.k",
        "p.k = 0",
    )
    assert plain[0] == 1.0, f"the plain join should put the hot key in one task, shares {plain[:3]}"
    assert len(skewed) == 30, f"the hot key's 30 slots reached {len(skewed)} tasks"
    assert skewed[0] <= 0.05, f"largest task holds {skewed[0]:.1%} of the hot rows: {skewed}"


def test_placed_slots_reach_their_own_join_tasks(skew_models_built: Built, inputs_built: DbtProject) -> None:
    """In every model whose record places a group's slots, Spark's own join (broadcasts off, the 200
    partitions the slots were placed on) runs each slot of the first placed group in a task of its own:
    string, decimal and mixed int/bigint keys hash as Spark's partitioning hashes them.

    Only the placed slots' rows enter the join (a's rows of the group on those slots, b's rows on those
    slots: every row they meet), and AQE may coalesce only what holds no row (1-byte targets, no skew
    split): a non-empty partition always starts a task of its own, so two slots share a task exactly
    when they share one of the 200 partitions, and the join runs a task per slot instead of 200."""
    conn = inputs_built.conn
    settings = {"spark.sql.shuffle.partitions": "200", **PARTITIONS_AS_PLANNED}
    checked = []
    with session_settings(conn, settings):
        for name, sql in sorted(skew_models_built.sql.items()):
            # the models whose slotted join is the whole query (with hot keys it is one branch of a union)
            if not name.startswith("sj_") or "slots placed on" not in sql or "rest_joined as (" in sql:
                continue
            body = strip_record(sql)
            cut = body.rindex("\nfrom a_slotted as a\n")
            head = body[: body.rindex("\nselect\n", 0, cut)]
            placed = [int(v) for v in re.findall(r"then array\(([\d,\s]+)\)", body)[0].split(",")]
            # the first group with placed slots (a verified plan keeps its groups' numbers)
            group = int(re.search(r"group (\d+): key .*? slots placed on", sql).group(1))  # type: ignore[union-attr]
            slots = ", ".join(map(str, placed))
            join = re.sub(r"left (anti|semi) join", "inner join", body[cut:])  # the rows that meet, so a semi/anti join's too
            join = join.replace(
                "\nfrom a_slotted as a\n",
                f"\nfrom (select * from a_slotted where sj_group = {group} and sj_slot in ({slots})) as a\n",
                1,
            )
            join, n = re.subn(r"\bjoin b_slotted as b\n", f"join (select * from b_slotted where sj_slot in ({slots})) as b\n", join)
            assert n == 1, f"{name}: the probe found no join of b_slotted in {join[:400]}"
            probe = f"{head}\nselect a.sj_slot as sj_s, spark_partition_id() as sj_p{join}"
            ((slots_met, tasks),) = run_sql(
                conn, f"select size(collect_set(sj_s)), size(collect_set(sj_p)) from ({probe}) as t"
            )
            assert slots_met >= 1, f"{name}: no row of group {group} took a placed slot"
            assert slots_met == tasks, f"{name}: {slots_met} placed slots ran in {tasks} tasks"
            checked.append(name)
    assert {"sj_spread", "sj_key_string", "sj_key_decimal_mixed", "sj_key_bigint_vs_int", "sj_anti",
            "sj_auto_spread", "sj_verify_groups"} <= set(checked)


def test_auto_plans_from_the_counts_of_the_data(skew_models_built: Built, inputs_built: DbtProject) -> None:
    """skew_join: 'auto' prints the counts Spark has, and plans from them: in spread_left k = 0 holds
    32,000 of the 40,000 rows and spread_right has 2 rows of it, over the broadcast budget of 1, so a
    group driven by a gets round(32,000 / 40,000 x 40) = 32 slots and copies b's 2 rows 32 times; the
    slots are placed, and the hot key's rows reach 32 join tasks."""
    conn = inputs_built.conn
    ((left_total, left_hot),) = run_sql(conn, f"select count(*), count_if(k = 0) from {SCHEMA}.spread_left")
    ((right_hot,),) = run_sql(conn, f"select count_if(k = 0) from {SCHEMA}.spread_right")
    assert (left_total, left_hot, right_hot) == (40000, 32000, 2)
    record = skew_models_built.sql["sj_auto_spread"]
    assert "skew measured on a (sketched: one query read every row of a once" in record
    assert "40000 rows in 1 input splits, 0 with a NULL key; heaviest keys: 0 80.0%" in record
    assert ("auto: key 0 (a 32,000 rows (80.0%), b 2 rows (0.4%)): skew group driven by a, 32 slots, "
            "multicast 64 rows") in record  # fmt: skip
    assert '"groups": [{"when": "a.k = 0", "slots": 32, "distribute": "random"}], "total_slots": 40' in record
    run_sql(conn, "set spark.sql.shuffle.partitions=200")
    shares = partition_shares(conn, strip_record(record), "p.k = 0")
    assert len(shares) == 32 and shares[0] <= 0.05, shares
    # the inner model's counts are the typed inputs' counts
    ((n, hot, nulls),) = run_sql(
        conn, f"select count(*), count_if(k_int = 0), count_if(k_int is null) from {SCHEMA}.typed_left"
    )
    inner = skew_models_built.sql["sj_auto_inner"]
    assert f"{n} rows in 2 input splits, {nulls} with a NULL key" in inner
    assert f"auto: key 0 (a {hot:,} rows" in inner


def test_auto_reads_column_histograms(inputs_built: DbtProject, compile_inline: Callable[..., Any]) -> None:
    """Where a side is a table with an equi-height histogram of its key (ANALYZE TABLE ... FOR COLUMNS
    with spark.sql.statistics.histogram.enabled), 'auto' reads Spark's statistics instead of scanning it:
    spread_left's key 0 (32,000 of 40,000 rows) fills bins of its own. The plan is the scanned plan's,
    and the join equals the plain join."""
    conn = inputs_built.conn
    table = f"{SCHEMA}.auto_histogram_left"
    run_sql(conn, f"drop table if exists {table}")
    run_sql(conn, f"create table {table} using parquet as select * from {SCHEMA}.spread_left")
    run_sql(conn, "set spark.sql.statistics.histogram.enabled=true")
    try:
        run_sql(conn, f"analyze table {table} compute statistics for columns k")
    finally:
        run_sql(conn, "set spark.sql.statistics.histogram.enabled=false")
    call = (
        f"{{{{ skewjoin.skew_join('{table}', ref('spread_right'), on=['k'], columns=['a.id', 'a.k', 'b.label'], "
        "skew={'auto': {'max_broadcast_rows': 1, 'total_slots': 40}}) }}"
    )
    sql = inline_compiled_sql(compile_inline(call))
    assert "skew estimated on a from Spark's column statistics, no scan (a histogram of 254 bins" in sql, sql[:3000]
    m = re.search(r"auto: key 0 \(a ([0-9,]+) rows \(([0-9.]+)%\), b 2 rows", sql)
    assert m, sql[:3000]
    assert abs(int(m.group(1).replace(",", "")) - 32000) <= 200, m.group(0)
    assert '"groups": [{"when": "a.k = 0", "slots": 32, "distribute": "random"}]' in sql
    # one scan only, of b
    assert sql.count("skew measured on") == 1 and "skew measured on b" in sql
    plain = f"select a.id, a.k, b.label from {table} as a join {SCHEMA}.spread_right as b on a.k = b.k"
    assert assert_same_rows(conn, strip_record(sql), plain) == 32000 * 2 + 8000


def test_compiled_models_have_decision_records_and_no_nondeterminism(skew_models_built: Built) -> None:
    checked = 0
    for name, sql in skew_models_built.sql.items():
        if not name.startswith(("sj_", "hk_")):
            continue
        assert "/* skewjoin.skew_join decision record (model " + name + ")" in sql, name
        body = strip_record(sql)
        body = re.sub(r"'(?:[^'\\]|\\.)*'", "''", body)
        for fn in ("rand(", "randn(", "uuid(", "shuffle(", "current_timestamp", "monotonically_increasing_id"):
            assert fn not in body.lower(), f"{name} uses {fn}"
        checked += 1
    assert checked >= 20


def test_a_small_local_spark_gets_the_plain_join(skew_models_built: Built) -> None:
    """The test server is a local Spark with 2 cores: with the package's min_parallelism (4) the model is
    the plain join (its equality with the plain join is the model's data test), read from the real server."""
    sql = skew_models_built.sql["sj_small_local_spark"]
    assert re.search(r"skew plans declined: local Spark \(local\[[^]]+\]\) runs 2 tasks at once", sql), sql
    assert "hot keys of b not measured" in sql
    body = strip_record(sql)
    assert "sj_slot" not in body and "broadcast" not in body and "union all" not in body


def test_verify_counts_the_groups_on_spark(skew_models_built: Built) -> None:
    """Declared groups verified against spread_left on the server: key 0's group (32,000 of 40,000 rows) is
    kept with its 30 slots, key 8's (80 rows, under 1/40) dropped; a configuration of key 8 alone compiles
    to the plain join. Both models equal the plain join (their data tests)."""
    sql = skew_models_built.sql["sj_verify_groups"]
    assert "group 1 group_1 dropped: 0.2% of a's rows (80 of 40,000), under 2.5% (one slot's even share, " \
        "1/40 slots)" in sql, sql
    assert "group 2 group_2 verified: 80.0% of a's rows (32,000 of 40,000) >= 2.5%" in sql
    assert "skew groups: 1, total slots 40" in sql and "group 2 group_2: when 'a.k = 0', driver a, 30 slots" in sql
    assert "key 0's 30 slots placed on 30 distinct shuffle partitions" in sql
    assert not re.search(r"\bthen 1\b|\bwhen 1 then\b", strip_record(sql))
    stale = skew_models_built.sql["sj_verify_groups_stale"]
    assert "group 1 group_1 dropped: 0.2% of a's rows (80 of 40,000)" in stale
    assert "strategy: plain join (no skew groups left after verification and no hot keys)" in stale
    assert "sj_slot" not in strip_record(stale)


def test_verify_counts_hot_keys_then_groups_on_spark(skew_models_built: Built) -> None:
    """String keys in a left join on the server: hot key '0' (41 of 500 rows) kept, '10' (1 row) dropped; the
    group of '0' and '10' counted without the hot key's rows (1 row) and dropped. The model equals the plain
    left join (its data test)."""
    sql = skew_models_built.sql["sj_verify_hot_and_groups"]
    assert "hot key 0 of a verified: 8.2% of a's rows (41 of 500) >= 5%" in sql, sql
    assert "hot key 10 of a dropped: 0.2% of a's rows (1 of 500), under 5%" in sql
    # counted on the 459 rows the hot key leaves to the shuffle join
    assert "group 1 group_1 dropped: 0.2% of a's rows (1 of 459), under 5%" in sql
    assert "strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned" in sql
    body = strip_record(sql)
    assert "sj_slot" not in body
    assert "coalesce(rtrim(a.`key`) in ('0'), false)" in body and "in ('0', '10')" not in body


def test_a_compile_error_reaches_the_user_through_dbt(compile_inline: Callable[..., Any]) -> None:
    """End to end: the message of exceptions.raise_compiler_error is what
    `dbt compile` reports (every case: tests/render)."""
    call = (
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
        "skew={'groups': [{'when': 'a.k_int = b.k_int', 'slots': 2}]}) }}"
    )
    assert_clear_compile_error(
        compile_inline(call, expect_failure=True), "when_both_sides", "skew_join", "references both sides",
        "skew_join.groups[0].when",
    )


def test_demo_models_are_not_built_when_installed(inputs_built: DbtProject) -> None:
    """The package's demo models stay disabled in a project that installs it,
    unless that project opts in with the var skewjoin_build_demo."""

    def package_models(vars: dict[str, Any] | None) -> list[str]:
        result = inputs_built.run(["ls", "--resource-type", "model", "--output", "name"], vars=vars)
        return [str(n) for n in result.result if str(n).startswith("demo_")]  # type: ignore[union-attr]

    assert package_models(None) == []
    opted_in = package_models({"skewjoin_build_demo": True})
    assert "demo_orders" in opted_in and "demo_orders_by_group" in opted_in and "demo_orders_auto" in opted_in


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


def _ours(left: str, right: str, ansi: bool) -> str | None:
    """The type skew_join routes the keys in, from its decision record,
    rendered by the render tier's harness (the package's macros in dbt's Jinja
    environment; no dbt invocation needed for a rule that runs no query)."""
    renderer = Renderer(
        {"l": Table([("k", left)]), "r": Table([("k", right)])},
        conf={"spark.sql.ansi.enabled": "true" if ansi else "false"},
    )
    try:
        sql = renderer.render("{{ skewjoin.skew_join('l', 'r', on=['k']) }}")
    except RaisedCompilerError:
        return None
    match = re.search(r"compared as (.+?); skew specification", sql)
    return match.group(1) if match else left


@pytest.mark.parametrize("ansi", [True, False])
def test_common_key_type_matches_spark(inputs_built: DbtProject, ansi: bool) -> None:
    """The type the package computes a key's routing in is the one Spark's own
    equality compares the two keys in (read from Spark's analyzed plan)."""
    ours = [_ours(left, right, ansi) for left, right in PAIRS]
    conn = inputs_built.conn
    run_sql(conn, f"set spark.sql.ansi.enabled={'true' if ansi else 'false'}")
    try:
        mismatches = []
        for (left, right), mine in zip(PAIRS, ours, strict=True):
            if not ansi and "string" in (left, right) and "decimal" in left + right:
                continue
            theirs = _spark_compare_type(conn, left, right)
            if mine != theirs:
                mismatches.append((left, right, mine, theirs))
    finally:
        run_sql(conn, "set spark.sql.ansi.enabled=true")
    assert not mismatches, f"(left, right, ours, spark): {mismatches}"

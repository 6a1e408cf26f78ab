"""prune_predicate (HIVE-5119: join-driven pruning), on the Spark Thrift Server.

Every model in models/pruning is compared with the plain Spark join of the
same inputs by the `equals_plain_join` data test. These tests also read
Spark's plans: the partitioned fact is scanned with a literal partition
filter and only the kept partitions are listed; the IN list of a data column
reaches the Parquet scan's pushed filters; Spark's own dynamic partition
pruning is compared on the same queries. And: every value survives the trip
from the small table to a literal exactly, the decision record tells what was
collected and kept, and a refused join stops `dbt compile`. That parsing
runs no query is checked for every model by
test_star_join.py::test_parse_runs_no_query. Every bad input, the allowed join types and the fallbacks' text are
checked without Spark by the render tier (tests/render).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from conftest import BUILD_THREADS, SCHEMA, inline_compiled_sql, node_results
from render.harness import Renderer, Result, Table
from render.tables import tables as render_tables
from support import assert_clear_compile_error

from skewjoin.spark_backend import run_sql
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark

DATES_FEB = {"relation": "ref('prune_dates')", "filter": "'year = 2026 and month = 2'", "on": "['date_key']"}


# -- helpers ------------------------------------------------------------------------------


def _record(sql: str, macro: str = "prune_predicate") -> str:
    match = re.search(r"/\* skewjoin\." + macro + r" decision record.*?\*/", sql, flags=re.S)
    assert match, f"no decision record in:\n{sql[:2000]}"
    return match.group(0)


def _in_list(sql: str, column: str) -> str:
    """The literal list of `<column> in (...)`: each conjunct is one line."""
    prefix = f"{column} in ("
    lines = [re.sub(r"^and ", "", line.strip()) for line in sql.splitlines()]
    lines = [line for line in lines if line.startswith(prefix)]
    assert len(lines) == 1, f"expected one IN list on {column}, found {len(lines)} in:\n{sql}"
    line = lines[0]
    assert line.endswith(")"), line
    return line[len(prefix) : -1]


def _explain(conn: Any, sql: str, settings: dict[str, str] | None = None) -> str:
    """The physical plan of `explain extended`, under session settings (scan
    metadata not truncated; AQE off, so that dynamic pruning is planned, or
    dropped, when the query is planned rather than while it runs)."""
    settings = {"spark.sql.maxMetadataStringLength": "1000000", "spark.sql.adaptive.enabled": "false", **(settings or {})}
    saved = {}
    for key, value in settings.items():
        saved[key] = run_sql(conn, f"set {key}")[0][1]
        run_sql(conn, f"set {key}={value}")
    try:
        plan = str(run_sql(conn, "explain extended " + sql)[0][0])
    finally:
        for key, value in saved.items():
            run_sql(conn, f"set {key}={value}")
    assert "== Physical Plan ==" in plan, plan[:2000]
    return plan.split("== Physical Plan ==", 1)[1]


def _scan(plan: str, table: str) -> str:
    """The FileScan line of one table in a physical plan."""
    lines = [line for line in plan.splitlines() if "FileScan" in line and f"{SCHEMA}.{table}[" in line]
    assert len(lines) == 1, f"expected one scan of {table}, found {len(lines)}:\n{plan}"
    return lines[0]


def _paths_listed(scan: str) -> int | None:
    """How many partition directories a scan lists (None: the whole table's catalog index)."""
    match = re.search(r"InMemoryFileIndex\((\d+) paths\)", scan)
    return int(match.group(1)) if match else None


def _literal_filter(text: str, column: str) -> bool:
    """A filter on the column against literal values (Spark writes IN lists
    longer than 10 values as INSET)."""
    return re.search(column + r"#\d+ (IN \(|INSET )\d", text) is not None


def _field(scan: str, name: str) -> str:
    match = re.search(name + r": \[(.*?)\](?:, [A-Z]\w+:|$)", scan)
    assert match, f"no {name} in {scan}"
    return match.group(1)


def _call(big: str, alias: str, small: list[dict[str, str]], **kwargs: str) -> str:
    entries = ", ".join("{" + ", ".join(f"'{k}': {v}" for k, v in e.items()) + "}" for e in small)
    extra = "".join(f", {k}={v}" for k, v in kwargs.items())
    return f"{{{{ skewjoin.prune_predicate({big}, '{alias}', [{entries}]{extra}) }}}}"


@dataclass
class Built:
    """What `dbt build` of models/pruning ran, and each model's compiled SQL."""

    nodes: list[tuple[str, str, str]]
    sql: dict[str, str]


@pytest.fixture(scope="module")
def pruning_built(inputs_built: DbtProject) -> Built:
    """Build models/pruning with their data tests (all must pass) once."""
    result = inputs_built.run(["build", *BUILD_THREADS, "--select", "path:models/pruning"])
    nodes = node_results(result)
    failed = [n for n in nodes if n[2] not in ("success", "pass")]
    assert not failed, f"dbt nodes did not pass: {failed}"
    sql = {
        r.node.name: str(r.node.compiled_code)
        for r in result.result.results  # type: ignore[union-attr]
        if r.node.resource_type == "model"
    }
    return Built(nodes=nodes, sql=sql)


# -- results equal the plain join ---------------------------------------------------------


def test_pruning_models_equal_the_plain_join(pruning_built: Built) -> None:
    models = {n[1] for n in pruning_built.nodes if n[0] == "model"}
    assert {
        "pr_partition_dim_filter", "pr_cascade", "pr_flat_in_list", "pr_fallback_range", "pr_fallback_semi_join",
        "pr_empty", "pr_multi_key", "pr_right_join", "pr_semi_join", "pr_key_string_hostile", "pr_key_date",
        "pr_key_timestamp", "pr_key_decimal", "pr_key_int_vs_bigint", "pr_key_string_vs_int",
        "pr_key_date_vs_timestamp", "pr_star_join",
    } <= models  # fmt: skip
    tests = [n for n in pruning_built.nodes if n[0] == "test"]
    assert sum(1 for t in tests if t[1].startswith("equals_plain_join_pr_")) == 17


# -- partitions ---------------------------------------------------------------------------


def test_partitioned_fact_scans_only_the_kept_partitions(pruning_built: Built, inputs_built: DbtProject) -> None:
    conn = inputs_built.conn
    partitions = run_sql(conn, f"show partitions {SCHEMA}.prune_sales")
    assert len(partitions) == 61  # 60 days + the NULL (default) partition
    wanted = run_sql(
        conn,
        f"select count(distinct date_key) from {SCHEMA}.prune_dates where year = 2026 and month = 2",
    )[0][0]
    assert wanted == 28
    sql = pruning_built.sql["pr_partition_dim_filter"]
    record = _record(sql)
    assert "partitioned by date_key" in record
    assert "28 distinct key(s); 2 row(s) with a NULL key dropped (NULL never matches)" in record
    assert "f.date_key: IN list of 28 values (<= max_values 1000)" in record
    assert "partitions: 61 in total, 28 kept" in record
    assert re.search(r"key queries: \d+\.\d\d s", record)
    literals = _in_list(sql, "f.date_key")
    assert literals.count("cast('2026-02-") == 28
    scan = _scan(_explain(conn, sql), "prune_sales")
    assert _literal_filter(_field(scan, "PartitionFilters"), "date_key"), scan
    assert _paths_listed(scan) == 28, scan


def test_cascading_small_tables_intersect_their_keys(pruning_built: Built, inputs_built: DbtProject) -> None:
    conn = inputs_built.conn
    feb = run_sql(conn, f"select count(distinct date_key) from {SCHEMA}.prune_dates where month = 2")[0][0]
    holidays = run_sql(
        conn, f"select count(distinct date_key) from {SCHEMA}.prune_promos where promo_type = 'holiday'"
    )[0][0]
    both = run_sql(
        conn,
        f"select count(distinct d.date_key) from {SCHEMA}.prune_dates as d "
        f"inner join {SCHEMA}.prune_promos as p on d.date_key = p.date_key "
        f"where d.month = 2 and p.promo_type = 'holiday'",
    )[0][0]
    eu_stores = run_sql(
        conn, f"select count(distinct store_id) from {SCHEMA}.prune_stores where region = 'EU'"
    )[0][0]
    assert 0 < both < min(feb, holidays)
    sql = pruning_built.sql["pr_cascade"]
    record = _record(sql)
    assert f"small[0] prune_dates (inner join on f.date_key = date_key, filter: month = 2): {feb} distinct key(s)" in record
    assert f"small[1] prune_promos (inner join on f.date_key = date_key, filter: p.promo_type = 'holiday'): {holidays} distinct key(s)" in record
    assert f"intersection of small[0], small[1] (same big column): {both} key(s)" in record
    assert f"small[2] prune_stores (inner join on f.store_id = store_id, filter: region = 'EU'): {eu_stores} distinct key(s)" in record
    assert f"partitions: 61 in total, {both} kept" in record
    scan = _scan(_explain(conn, sql), "prune_sales")
    assert _paths_listed(scan) == both
    assert "In(store_id, [" in _field(scan, "PushedFilters")


def _key_queries(source: str, queries_read: dict[str, Table] | None = None) -> list[str]:
    """The key queries prune_predicate sends while it compiles `source`, rendered by the render tier's
    harness (the integration inputs' columns, and those of `queries_read`, no Spark): the queries the
    server then plans and runs."""
    inputs = render_tables("prune_sales_flat", "prune_dates", "prune_promos", "prune_stores", "typed_left")
    r = Renderer({**inputs, **(queries_read or {})})
    queries: list[str] = []
    r.spark.answer(r"with\s+sj_groups_0 as \(.*",
                   lambda m: queries.append(m.group(0)) or Result(("sj_kind", "sj_name", "sj_v0"), []))  # fmt: skip
    r.render(source)
    return queries


def test_the_key_query_reads_each_small_relation_once(inputs_built: DbtProject) -> None:
    """One scan of each small relation gives its key set, its NULL keys and the values the big column
    cannot hold (the rows grouped by key, one plan Spark reuses); the counts are those of plain SQL."""
    conn = inputs_built.conn
    cascade = _key_queries(
        "select 1 from x where {{ skewjoin.prune_predicate(ref('prune_sales_flat'), 'f', ["
        "{'relation': ref('prune_dates'), 'filter': 'month = 2', 'on': ['date_key']}, "
        "{'relation': ref('prune_promos'), 'alias': 'p', 'filter': \"p.promo_type = 'holiday'\", 'on': ['date_key']}, "
        "{'relation': ref('prune_stores'), 'filter': \"region = 'EU'\", 'on': ['store_id']}]) }}"
    )
    small = f"select rid, k_big from {SCHEMA}.typed_right union all select -1 as rid, 4294967303 as k_big"
    narrowed = _key_queries(
        "select 1 from x where {{ skewjoin.prune_predicate(ref('typed_left'), 'a', [{'relation': '" + small
        + "', 'on': [['k_int', 'k_big']]}]) }}",
        {small: Table([("rid", "bigint"), ("k_big", "bigint")])},
    )
    assert len(cascade) == 2 and len(narrowed) == 1, (cascade, narrowed)
    for query, sources in [(cascade[0], 2), (cascade[1], 1), (narrowed[0], 1)]:
        assert _explain(conn, query).count("FileScan") == sources, query

    stats = {name: int(value[2:]) for kind, name, value in run_sql(conn, cascade[0]) if kind == "stat"}
    dates = f"{SCHEMA}.prune_dates where month = 2"
    promos = f"{SCHEMA}.prune_promos where promo_type = 'holiday'"
    assert stats == {
        "distinct_0": run_sql(conn, f"select count(distinct date_key) from {dates}")[0][0],
        "nulls_0": run_sql(conn, f"select count(*) from {dates} and date_key is null")[0][0],
        "distinct_1": run_sql(conn, f"select count(distinct date_key) from {promos}")[0][0],
        "nulls_1": run_sql(conn, f"select count(*) from {promos} and date_key is null")[0][0],
        "kept": run_sql(conn, f"select count(*) from (select date_key from {dates} intersect "
                              f"select date_key from {promos}) as k where date_key is not null")[0][0],  # fmt: skip
    }
    assert stats["kept"] > 0 and stats["nulls_1"] > 0, stats
    unfit = {name: int(value[2:]) for kind, name, value in run_sql(conn, narrowed[0]) if kind == "stat"}
    big = f"(select k_big from {SCHEMA}.typed_right union all select 4294967303) as k"
    assert unfit == {
        "distinct_0": run_sql(conn, f"select count(distinct k_big) from {big} where k_big between -2147483648 and 2147483647")[0][0],
        "nulls_0": run_sql(conn, f"select count(*) from {big} where k_big is null")[0][0],
        "unfit_0": run_sql(conn, f"select count(distinct k_big) from {big} where k_big not between -2147483648 and 2147483647")[0][0],
        "kept": unfit["distinct_0"],
    }
    assert unfit["unfit_0"] >= 1, unfit


def test_empty_key_set_reads_nothing(pruning_built: Built, inputs_built: DbtProject) -> None:
    conn = inputs_built.conn
    sql = pruning_built.sql["pr_empty"]
    record = _record(sql)
    assert "the key set is empty" in record and "predicate false" in record
    assert "partitions: 61 in total, 0 kept" in record
    assert sql.rstrip().endswith("*/\nfalse")
    plan = _explain(conn, sql)
    assert "FileScan" not in plan and "LocalTableScan <empty>" in plan, plan
    assert run_sql(conn, f"select count(*) from {SCHEMA}.pr_empty")[0][0] == 0


# -- data columns, fallbacks, multi-column keys -------------------------------------------


def test_in_list_reaches_the_pushed_filters(pruning_built: Built, inputs_built: DbtProject) -> None:
    conn = inputs_built.conn
    eu = sorted(
        r[0] for r in run_sql(conn, f"select store_id from {SCHEMA}.prune_stores where region = 'EU' and store_id is not null")
    )
    sql = pruning_built.sql["pr_flat_in_list"]
    record = _record(sql)
    assert "not partitioned" in record
    assert f"f.store_id: IN list of {len(eu)} values" in record
    assert "1 row(s) with a NULL key dropped" in record
    scan = _scan(_explain(conn, sql), "prune_sales_flat")
    pushed = _field(scan, "PushedFilters")
    match = re.search(r"In\(store_id, \[([\d,]*)\]\)", pushed)
    assert match, pushed
    assert sorted(int(v) for v in match.group(1).split(",")) == eu


def test_above_max_values_falls_back_to_a_range(pruning_built: Built, inputs_built: DbtProject) -> None:
    conn = inputs_built.conn
    lo, hi, n = run_sql(
        conn,
        f"select cast(min(date_key) as string), cast(max(date_key) as string), count(distinct date_key) "
        f"from {SCHEMA}.prune_dates where month = 2 and is_weekend",
    )[0]
    assert n > 3
    sql = pruning_built.sql["pr_fallback_range"]
    record = _record(sql)
    assert f"f.date_key: {n} values, above max_values 3: fallback range" in record
    assert f"f.date_key between cast('{lo}' as date) and cast('{hi}' as date)" in sql
    pushed = _field(_scan(_explain(conn, sql), "prune_sales_flat"), "PushedFilters")
    assert f"GreaterThanOrEqual(date_key,{lo})" in pushed and f"LessThanOrEqual(date_key,{hi})" in pushed, pushed


def test_above_max_values_falls_back_to_a_semi_join(pruning_built: Built, inputs_built: DbtProject) -> None:
    n = run_sql(
        inputs_built.conn,
        f"select count(distinct date_key) from {SCHEMA}.prune_dates where month = 2 and is_weekend",
    )[0][0]
    sql = pruning_built.sql["pr_fallback_semi_join"]
    record = _record(sql)
    assert "above max_values 3: fallback semi_join" in record
    assert f"partitions: 61 in total, {n} hold keys of the semi join on partition column(s) date_key" in record
    assert re.search(r"f\.date_key in \(\s*select sj_keys\.sj_k0\s*from \(\s*select distinct", sql), sql
    assert " in (cast(" not in sql


def test_multi_column_keys_prune_each_column_and_check_tuples(pruning_built: Built, inputs_built: DbtProject) -> None:
    conn = inputs_built.conn
    pairs = run_sql(
        conn,
        f"select count(*), count(distinct date_key), count(distinct store_id) from (select distinct date_key, store_id "
        f"from {SCHEMA}.prune_promos where promo_type = 'holiday' and date_key is not null and store_id is not null)",
    )[0]
    in_fact = run_sql(
        conn,
        f"select count(distinct date_key) from {SCHEMA}.prune_promos where promo_type = 'holiday' and store_id is not null "
        f"and date_key in (select date_key from {SCHEMA}.prune_sales)",
    )[0][0]
    assert 0 < in_fact < pairs[1]  # some promotion days fall outside the fact's partitions
    sql = pruning_built.sql["pr_multi_key"]
    record = _record(sql)
    assert f"(f.date_key, f.store_id): IN list of {pairs[0]} tuples" in record
    assert f"one IN list per column ({pairs[1]}, {pairs[2]} values" in record
    assert _in_list(sql, "f.date_key").count("as date)") == pairs[1]
    assert _in_list(sql, "f.store_id").count("as int)") == pairs[2]
    tuples = _in_list(sql, "(f.date_key, f.store_id)")
    assert tuples.count("(cast(") == pairs[0]
    scan = _scan(_explain(conn, sql), "prune_sales")
    assert f"partitions: 61 in total, {in_fact} kept" in record
    assert _paths_listed(scan) == in_fact
    assert "In(store_id, [" in _field(scan, "PushedFilters")


# -- Spark's own dynamic partition pruning, on the same queries -------------------------


def test_compared_with_spark_dynamic_partition_pruning(
    pruning_built: Built, inputs_built: DbtProject, compile_inline: Callable[..., Any]
) -> None:
    """Where Spark's DPP gives up (a shuffle join with no broadcast to reuse, a
    data column, a two-column key on a non-partitioned table), the macro's
    literal predicate still prunes the scan."""
    conn = inputs_built.conn
    no_broadcast = {"spark.sql.autoBroadcastJoinThreshold": "-1"}
    dpp = "dynamicpruningexpression"
    bloom = "might_contain"  # Spark's runtime bloom filter, the other run-time pruning

    # 1. partition column, filtered dimension.
    query = (
        "select f.sale_id, d.is_weekend from {{ ref('prune_sales') }} as f "
        "inner join {{ ref('prune_dates') }} as d on f.date_key = d.date_key "
        "where d.year = 2026 and d.month = 2 and "
    )
    ours = inline_compiled_sql(compile_inline(query + _call("ref('prune_sales')", "f", [DATES_FEB])))
    plain = ours[: ours.index("/* skewjoin.prune_predicate")] + "true"
    fired = r"dynamicpruningexpression\(date_key#\d+ IN dynamicpruning#\d+\)"
    # With a broadcast to reuse, Spark's DPP fires on its own ...
    broadcast_scan = _scan(_explain(conn, plain), "prune_sales")
    assert re.search(fired, _field(broadcast_scan, "PartitionFilters")), broadcast_scan
    # ... but as a shuffle join it is dropped (no broadcast to reuse), and
    # every non-NULL partition is listed and read.
    shuffle_scan = _scan(_explain(conn, plain, no_broadcast), "prune_sales")
    assert not re.search(fired, shuffle_scan) and "dynamicpruningexpression(true)" in shuffle_scan, shuffle_scan
    assert _paths_listed(shuffle_scan) == 60
    # The macro's literal filter prunes at planning time, whatever the join.
    for settings in ({}, no_broadcast):
        ours_scan = _scan(_explain(conn, ours, settings), "prune_sales")
        assert _literal_filter(_field(ours_scan, "PartitionFilters"), "date_key"), ours_scan
        assert _paths_listed(ours_scan) == 28

    # 2. a data column of a non-partitioned table: no DPP, no pushed IN.
    query = (
        "select f.sale_id, s.region from {{ ref('prune_sales_flat') }} as f "
        "inner join {{ ref('prune_stores') }} as s on f.store_id = s.store_id where s.region = 'EU' and "
    )
    stores_eu = {"relation": "ref('prune_stores')", "filter": "\"region = 'EU'\"", "on": "['store_id']"}
    ours = inline_compiled_sql(compile_inline(query + _call("ref('prune_sales_flat')", "f", [stores_eu])))
    plain = ours[: ours.index("/* skewjoin.prune_predicate")] + "true"
    for settings in ({}, no_broadcast):
        plain_plan = _explain(conn, plain, settings)
        assert dpp not in plain_plan and bloom not in plain_plan
        plain_scan = _scan(plain_plan, "prune_sales_flat")
        assert "In(store_id" not in _field(plain_scan, "PushedFilters"), plain_scan
        ours_scan = _scan(_explain(conn, ours, settings), "prune_sales_flat")
        assert "In(store_id, [" in _field(ours_scan, "PushedFilters"), ours_scan

    # 3. a two-column key on the non-partitioned table.
    query = (
        "select f.sale_id, p.promo_type from {{ ref('prune_sales_flat') }} as f "
        "inner join {{ ref('prune_promos') }} as p on f.date_key = p.date_key and f.store_id = p.store_id "
        "where p.promo_type = 'holiday' and "
    )
    promos = {"relation": "ref('prune_promos')", "filter": "\"promo_type = 'holiday'\"", "on": "['date_key', 'store_id']"}
    ours = inline_compiled_sql(compile_inline(query + _call("ref('prune_sales_flat')", "f", [promos])))
    plain = ours[: ours.index("/* skewjoin.prune_predicate")] + "true"
    plain_plan = _explain(conn, plain, no_broadcast)
    assert dpp not in plain_plan and bloom not in plain_plan
    plain_pushed = _field(_scan(plain_plan, "prune_sales_flat"), "PushedFilters")
    assert "In(" not in plain_pushed, plain_pushed
    ours_pushed = _field(_scan(_explain(conn, ours, no_broadcast), "prune_sales_flat"), "PushedFilters")
    assert "In(date_key, [" in ours_pushed and "In(store_id, [" in ours_pushed, ours_pushed


# -- star_join prunes on its own --------------------------------------------------------


def test_star_join_prunes_the_fact_by_its_filtered_dimensions(pruning_built: Built, inputs_built: DbtProject) -> None:
    sql = pruning_built.sql["pr_star_join"]
    record = sql[sql.index("/* skewjoin.star_join decision record") : sql.index("*/")]
    assert "pruning: small[0] prune_dates (inner join on f.date_key = date_key, filter: d.year = 2026 and d.month = 2): 28 distinct key(s)" in record
    assert "pruning: partitions: 61 in total, 28 kept" in record
    assert "prune_stores" not in record.split("pruning:", 1)[1]  # a left-joined dimension never prunes the fact
    scan = _scan(_explain(inputs_built.conn, sql), "prune_sales")
    assert _literal_filter(_field(scan, "PartitionFilters"), "date_key"), scan
    assert _paths_listed(scan) == 28


# -- values round-trip exactly --------------------------------------------------------------


def _literal_values(conn: Any, literals: str) -> list[Any]:
    return [r[0] for r in run_sql(conn, f"select explode(array({literals}))")]


ROUND_TRIPS = [
    # model, big column, expected distinct keys of the filtered small side (SQL)
    ("pr_key_string_hostile", "a.hkey", f"select distinct hkey from {SCHEMA}.hostile_right where label not like '%-2' and hkey is not null"),
    ("pr_key_date", "a.k_date", f"select distinct k_date from {SCHEMA}.typed_right where region = 'EU' and k_date is not null"),
    ("pr_key_timestamp", "a.k_ts", f"select distinct k_ts from {SCHEMA}.typed_right where region = 'EU' and k_ts is not null"),
    ("pr_key_decimal", "a.k_dec", f"select distinct cast(k_dec2 as decimal(18, 4)) from {SCHEMA}.typed_right where region = 'EU' and k_dec2 is not null"),
    ("pr_key_date_vs_timestamp", "a.k_date", f"select distinct cast(k_ts as date) from {SCHEMA}.typed_right where region = 'EU' and k_ts = cast(cast(k_ts as date) as timestamp)"),
    ("pr_key_int_vs_bigint", "a.k_int", f"select distinct cast(k_big as int) from {SCHEMA}.typed_right where region = 'EU' and k_big is not null"),
]  # fmt: skip


@pytest.mark.parametrize(("model", "column", "expected_sql"), ROUND_TRIPS, ids=[c[0] for c in ROUND_TRIPS])
def test_key_values_round_trip_exactly(
    pruning_built: Built, inputs_built: DbtProject, model: str, column: str, expected_sql: str
) -> None:
    conn = inputs_built.conn
    sql = pruning_built.sql[model]
    values = _literal_values(conn, _in_list(sql, column))
    expected = [r[0] for r in run_sql(conn, expected_sql)]
    assert len(values) == len(set(values)) == len(expected)
    assert sorted(values) == sorted(expected)
    if model == "pr_key_string_hostile":
        assert {"it's", "back\\slash", "trailing\\", "\\' or 1=1 --", "${var}", "new\nline", "ünïcödé ✓ 日本"} <= set(values)
        assert "concat(chr(36), '{var}')" in sql  # Spark would substitute a literal ${var}
    if model == "pr_key_decimal":
        assert all(isinstance(v, Decimal) for v in values)
        assert "as decimal(18,4))" in sql


def test_values_the_big_column_cannot_hold_are_dropped(pruning_built: Built, inputs_built: DbtProject) -> None:
    sql = pruning_built.sql["pr_key_int_vs_bigint"]
    record = _record(sql)
    assert "1 value(s) the big column cannot hold dropped (they never match)" in record
    literals = _in_list(sql, "a.k_int")
    assert "4294967303" not in literals
    eu = {r[0] for r in run_sql(inputs_built.conn, f"select k_big from {SCHEMA}.typed_right where region = 'EU'")}
    assert 7 not in eu and "cast(7 as int)" not in literals  # what a wrapping cast would have added


def test_key_compared_in_a_wider_type_is_cast_not_pushed(pruning_built: Built, inputs_built: DbtProject) -> None:
    sql = pruning_built.sql["pr_key_string_vs_int"]
    assert "big column k_str (string) is compared as bigint by the join, which is not one-to-one" in _record(sql)
    assert "try_cast(a.k_str as bigint) in (cast(" in sql


def test_timestamps_keep_their_instant_across_a_daylight_saving_change(compile_inline: Callable[..., Any]) -> None:
    """01:30 happens twice in New York on 2026-11-01: the two keys stay two."""
    small = "select timestamp_seconds(col1) as ts from values (1793511000), (1793514600), (cast(null as bigint))"
    sql = inline_compiled_sql(
        compile_inline(
            "{% do run_query(\"set spark.sql.session.timeZone=America/New_York\") %}"
            "select * from (" + small + ") as t where "
            + _call(f'"{small}"', "t", [{"relation": f'"{small}"', "on": "['ts']"}])
            + "{% do run_query(\"set spark.sql.session.timeZone=UTC\") %}"
        )
    )
    literals = _in_list(sql, "t.ts")
    assert "cast('2026-11-01 01:30:00.000000-04:00' as timestamp)" in literals
    assert "cast('2026-11-01 01:30:00.000000-05:00' as timestamp)" in literals


# -- join types, errors, parse time -------------------------------------------------------


def test_a_refused_join_is_a_compile_error_through_dbt(compile_inline: Callable[..., Any]) -> None:
    """End to end: a join that preserves the big table stops `dbt compile`
    (every case: tests/render)."""
    call = "select 1 where " + _call("ref('prune_sales')", "f", [DATES_FEB], join_type="'left'")
    assert_clear_compile_error(
        compile_inline(call, expect_failure=True), "left_join", "prune_predicate",
        "refused: the join `big left join prune_dates` preserves the big table", "join_type",
    )  # fmt: skip

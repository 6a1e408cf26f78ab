"""star_join (Hive's map-join / star-join auto conversion), on the Spark Thrift Server.

Every model in models/star_join is compared with the plain star join written
out by hand in schema.yml (data test `equals_sql`). These tests read what the
macro decided (the hints and the decision record) and what Spark does with
it (the physical plan of EXPLAIN FORMATTED, captured here over PyHive):
a BroadcastHashJoin for exactly the dimensions chosen, a shuffle join for the
others. Sizes are measured here independently of the macro (the catalog's
statistics, the files on disk) and budgets set from them: an exact fit, one
byte over, Spark's own per-table threshold against the one budget. Then:
missing statistics, views, queries, paths, outer joins that must not be
broadcast, and parsing without queries. Bad input, forced broadcasts, size
factors and the budget arithmetic on given sizes are checked without Spark by
the render tier (tests/render).
"""

from __future__ import annotations

import json
import re
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from conftest import BUILD_THREADS, SCHEMA, inline_compiled_sql, node_results
from support import strip_record

from skewjoin.dbt_runner import run_dbt
from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark

DIM_TABLES = ["star_stores", "star_dates", "star_customers", "star_promos", "star_products"]
JOIN_NODES = ("BroadcastHashJoin", "SortMergeJoin", "ShuffledHashJoin", "BroadcastNestedLoopJoin", "CartesianProduct")

# The four small dimensions of the budget tests, as star_join arguments and as plain SQL joins.
SMALL_DIMS = {
    "s": ("star_stores", "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id']}",
          "inner join {t} as s on f.store_id = s.store_id"),
    "c": ("star_customers", "{'relation': ref('star_customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left'}",
          "left join {t} as c on f.customer_id = c.customer_id"),
    "d": ("star_dates", "{'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']]}",
          "inner join {t} as d on f.sold_date = d.date_key"),
    "pr": ("star_promos", "{'relation': ref('star_promos'), 'alias': 'pr', 'on': ['promo_code', 'store_id'], 'join_type': 'left'}",
           "left join {t} as pr on f.promo_code = pr.promo_code and f.store_id = pr.store_id"),
}  # fmt: skip
SMALL_COLUMNS = ["f.sale_id", "s.store_name", "c.segment", "d.day_name", "pr.discount_pct"]


# -- helpers ------------------------------------------------------------------------------


def _record(sql: str) -> str:
    match = re.search(r"/\* skewjoin\.star_join decision record.*?\*/", sql, flags=re.S)
    assert match, f"no decision record in:\n{sql[:2000]}"
    return match.group(0)


def _verdicts(sql: str) -> dict[str, str]:
    """alias -> the decision record's line for that dimension."""
    lines = re.findall(r"^\s*dimension (\w+) \((.*)$", _record(sql), flags=re.M)
    return {alias: rest for alias, rest in lines}


def _hints(sql: str) -> dict[str, set[str]]:
    """hint name -> aliases, from the query's `/*+ ... */`."""
    body = strip_record(sql)
    match = re.search(r"/\*\+(.*?)\*/", body, flags=re.S)
    if not match:
        return {}
    return {
        name.lower(): {a.strip() for a in args.split(",")}
        for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", match.group(1))
    }


def _broadcast(sql: str) -> set[str]:
    return _hints(sql).get("broadcast", set())


def _explain(conn: Any, sql: str, threshold: int | None = -1) -> str:
    """EXPLAIN FORMATTED of `sql` under a given spark.sql.autoBroadcastJoinThreshold
    (-1: only hints broadcast; None: the session's own); the setting is restored."""
    saved = run_sql(conn, "set spark.sql.autoBroadcastJoinThreshold")[0][1]
    if threshold is not None:
        run_sql(conn, f"set spark.sql.autoBroadcastJoinThreshold={threshold}")
    try:
        plan = str(run_sql(conn, "explain formatted " + strip_record(sql))[0][0])
    finally:
        run_sql(conn, f"set spark.sql.autoBroadcastJoinThreshold={saved}")
    assert "== Physical Plan ==" in plan, plan[:2000]
    return plan


def _join_strategies(plan: str) -> dict[str, list[str]]:
    """For every scanned table or path, the joins whose right (build or
    streamed dimension) side scans it: {'star_stores': ['BroadcastHashJoin Inner BuildRight']}.

    Reads the tree of EXPLAIN FORMATTED: each node is `<prefix><name> (<id>)`
    with three characters of prefix per level; a join's children are its left
    (`:-`) and right (`+-`) inputs."""
    text = plan.split("== Physical Plan ==", 1)[1].strip("\n")
    tree, _, details = text.partition("\n\n")
    nodes = []
    for line in tree.splitlines():
        m = re.match(r"^([ :+\-|]*)(\S.*?) \((\d+)\)$", line)
        assert m, f"unexpected plan line {line!r}"
        nodes.append((len(m.group(1)) // 3, m.group(2), int(m.group(3))))
    scans: dict[int, str] = {}
    for block in details.split("\n\n"):
        head = re.match(r"\((\d+)\) Scan \w+ ?(\S*)", block.strip())
        if not head:
            continue
        name = head.group(2)
        location = re.search(r"Location: \w+ \[([^\]]+)\]", block)
        if name:
            scans[int(head.group(1))] = name.split(".")[-1]
        elif location:
            scans[int(head.group(1))] = "path:" + urlparse(location.group(1).split(",")[0]).path.rstrip("/")
    found: dict[str, list[str]] = {}
    for i, (depth, name, _) in enumerate(nodes):
        if not name.startswith(JOIN_NODES):
            continue
        children = []
        for j in range(i + 1, len(nodes)):
            if nodes[j][0] <= depth:
                break
            if nodes[j][0] == depth + 1:
                children.append(j)
        assert len(children) == 2, f"join {name} has children {children}"
        right = children[1]
        for j in range(right, len(nodes)):
            if j > right and nodes[j][0] <= depth + 1:
                break
            if nodes[j][2] in scans:
                found.setdefault(scans[nodes[j][2]], []).append(name)
    return found


def _strategy(found: dict[str, list[str]], table: str) -> str:
    joins = found.get(table, [])
    assert len(joins) == 1, f"expected one join with {table} on its right side, found {joins} in {found}"
    return joins[0]


def _assert_plan(
    conn: Any, sql: str, broadcast: dict[str, str], shuffled: dict[str, str], threshold: int | None = -1
) -> str:
    """`broadcast`/`shuffled`: alias -> table (or path key) the alias scans."""
    found = _join_strategies(_explain(conn, sql, threshold))
    for alias, table in broadcast.items():
        assert _strategy(found, table).startswith("BroadcastHashJoin"), (alias, found)
    for alias, table in shuffled.items():
        assert _strategy(found, table).startswith("SortMergeJoin"), (alias, found)
    return str(found)


def _describe(conn: Any, table: str) -> dict[str, str]:
    rows = run_sql(conn, f"describe table extended {SCHEMA}.{table}")
    return {str(r[0]).strip(): str(r[1]).strip() for r in rows}


def _catalog_bytes(conn: Any, table: str) -> int | None:
    match = re.match(r"(\d+) bytes", _describe(conn, table).get("Statistics", ""))
    return int(match.group(1)) if match else None


def _location(conn: Any, table: str) -> Path:
    return Path(urlparse(_describe(conn, table)["Location"]).path)


def _files_bytes(conn: Any, table: str) -> tuple[int, int]:
    """(number, total size) of the data files on disk (the server runs on this machine)."""
    files = [p for p in _location(conn, table).iterdir() if p.is_file() and p.name.startswith("part-")]
    return len(files), sum(p.stat().st_size for p in files)


def _star_call(dims: list[str], **kwargs: str) -> str:
    extra = "".join(f", {k}={v}" for k, v in kwargs.items())
    return "{{ skewjoin.star_join(ref('star_sales'), [" + ", ".join(dims) + "]" + extra + ") }}"


def _small_call(budget: int) -> str:
    return _star_call([SMALL_DIMS[a][1] for a in SMALL_DIMS], columns=repr(SMALL_COLUMNS), broadcast_budget=str(budget))


def _small_plain_join() -> str:
    joins = "\n".join(j.format(t=f"{SCHEMA}.{t}") for t, _, j in SMALL_DIMS.values())
    return f"select {', '.join(SMALL_COLUMNS)}\nfrom {SCHEMA}.star_sales as f\n{joins}"


@dataclass
class Built:
    """What `dbt build` of models/star_join ran, each model's compiled SQL, and
    the sizes measured before it."""

    nodes: list[tuple[str, str, str]]
    sql: dict[str, str]
    tests_sql: dict[str, str]
    sizes: dict[str, int]
    var_budget: int


def _compiled(result: Any) -> tuple[dict[str, str], dict[str, str]]:
    models, tests = {}, {}
    for r in result.result.results:
        target = models if r.node.resource_type == "model" else tests
        target[r.node.name] = str(r.node.compiled_code)
    return models, tests


@pytest.fixture(scope="module")
def sizes(inputs_built: DbtProject) -> dict[str, int]:
    """Each dimension's size as the catalog states it, measured before any star join ran."""
    out = {}
    for table in DIM_TABLES:
        size = _catalog_bytes(inputs_built.conn, table)
        assert size is not None and size > 0, f"{table} has no statistics"
        out[table] = size
    return out


@pytest.fixture(scope="module")
def star_built(inputs_built: DbtProject, sizes: dict[str, int]) -> Built:
    """Build models/star_join with their data tests (all must pass): the var
    budget model with the var set to the exact sum of its two smallest
    dimensions, the others without it."""
    assert _catalog_bytes(inputs_built.conn, "star_channels") is None
    assert _catalog_bytes(inputs_built.conn, "star_warehouses") is None
    nodes: list[tuple[str, str, str]] = []
    result = inputs_built.run(["build", *BUILD_THREADS, "--select", "path:models/star_join", "--exclude", "sj_star_var_budget"])
    nodes += node_results(result)
    models, tests = _compiled(result)
    var_dims = sorted(sizes[t] for t in ("star_customers", "star_stores", "star_promos", "star_dates"))
    var_budget = var_dims[0] + var_dims[1]
    result = inputs_built.run(
        ["build", *BUILD_THREADS, "--select", "sj_star_var_budget"], vars={"skewjoin_broadcast_budget": var_budget}
    )
    nodes += node_results(result)
    more_models, more_tests = _compiled(result)
    models.update(more_models)
    tests.update(more_tests)
    failed = [n for n in nodes if n[2] not in ("success", "pass")]
    assert not failed, f"dbt nodes did not pass: {failed}"
    return Built(nodes=nodes, sql=models, tests_sql=tests, sizes=sizes, var_budget=var_budget)


# -- results equal the plain join ---------------------------------------------------------


STAR_MODELS = {
    "sj_star_default", "sj_star_budget_config", "sj_star_var_budget", "sj_star_right_small", "sj_star_full",
    "sj_star_semi_anti", "sj_star_role_playing", "sj_star_unknown_sizes", "sj_star_analyze", "sj_star_path",
}  # fmt: skip


def test_star_models_equal_the_plain_join(star_built: Built) -> None:
    models = {n[1] for n in star_built.nodes if n[0] == "model"}
    assert models == STAR_MODELS
    tests = {n[1] for n in star_built.nodes if n[0] == "test"}
    # one test per model: its rows equal the plain star join's, and it has at least min_rows (one statement)
    assert tests == {m + "_equals_plain_join" for m in STAR_MODELS}


def test_the_oracle_catches_a_lost_and_a_duplicated_row(star_built: Built, inputs_built: DbtProject) -> None:
    """The data test is not vacuous: on a model missing one row and holding
    another twice, it returns both differences."""
    test_sql = star_built.tests_sql["sj_star_default_equals_plain_join"]
    model = f"{SCHEMA}.sj_star_default"
    assert f"select * from {model}" in test_sql
    lost, doubled = run_sql(inputs_built.conn, f"select min(sale_id), max(sale_id) from {model}")[0]
    broken = (
        f"select * from (select * from {model} where sale_id <> {lost} "
        f"union all select * from {model} where sale_id = {doubled}) as broken"
    )
    rows = run_sql(inputs_built.conn, test_sql.replace(f"select * from {model}", broken))
    differences = {(r[0], json.loads(r[1])["sale_id"]) for r in rows}
    assert ("extra in the model", doubled) in differences
    assert ("missing from the model", lost) in differences
    assert {r[0] for r in rows} == {"extra in the model", "missing from the model"}
    assert run_sql(inputs_built.conn, test_sql) == []
    # and not vacuous on an empty model (both sides empty would have no difference): the row guard
    empty = run_sql(inputs_built.conn, test_sql.replace(f"select * from {model}", f"select * from {model} where false"))
    assert ("the model has fewer than 2000 rows", "0") in {(r[0], r[1]) for r in empty}


# -- the budget ---------------------------------------------------------------------------


def test_default_budget_broadcasts_every_dimension_that_fits(star_built: Built, inputs_built: DbtProject) -> None:
    sql = star_built.sql["sj_star_default"]
    record = _record(sql)
    assert "broadcast budget 10485760 bytes (10.0 MiB) from default" in record
    verdicts = _verdicts(sql)
    assert set(verdicts) == {"s", "d", "c", "pr", "p"}
    for alias, table in {"s": "star_stores", "d": "star_dates", "c": "star_customers", "pr": "star_promos",
                         "p": "star_products"}.items():  # fmt: skip
        size = star_built.sizes[table]
        assert f"{size} bytes" in verdicts[alias] and "from catalog statistics (parquet)" in verdicts[alias]
        assert "-> broadcast (fits: broadcast total" in verdicts[alias]
    assert "upper bound: the filter is not estimated" in verdicts["d"]
    assert _broadcast(sql) == {"s", "d", "c", "pr", "p"}
    assert "merge" not in _hints(sql)
    broadcast = {
        "s": "star_stores",
        "d": "star_dates",
        "c": "star_customers",
        "pr": "star_promos",
        "p": "star_products",
    }
    _assert_plan(inputs_built.conn, sql, broadcast=broadcast, shuffled={})


def test_budget_from_config_shuffles_what_does_not_fit(star_built: Built, inputs_built: DbtProject) -> None:
    sql = star_built.sql["sj_star_budget_config"]
    record = _record(sql)
    assert "broadcast budget 102400 bytes (100.0 KiB) from config star_join.broadcast_budget" in record
    products = star_built.sizes["star_products"]
    assert products > 102400
    small = sum(star_built.sizes[t] for t in ("star_stores", "star_dates", "star_customers", "star_promos"))
    assert small <= 102400
    verdicts = _verdicts(sql)
    assert (
        f"-> shuffle (over budget: broadcast total would be {small} + {products} = {small + products} > 102400)"
        in verdicts["p"]
    )
    assert _broadcast(sql) == {"s", "d", "c", "pr"}
    assert _hints(sql)["merge"] == {"p"}
    # broadcast joins first (the filtering ones, then left joins), then the shuffle join
    assert "join order: s, d, c, pr, p (broadcast joins first" in record
    broadcast = {"s": "star_stores", "d": "star_dates", "c": "star_customers", "pr": "star_promos"}
    _assert_plan(inputs_built.conn, sql, broadcast=broadcast, shuffled={"p": "star_products"})
    # under Spark's own threshold (10 MiB) products would be broadcast too; the merge hint keeps the budget
    _assert_plan(inputs_built.conn, sql, broadcast=broadcast, shuffled={"p": "star_products"}, threshold=None)


def test_budget_from_project_var(star_built: Built, inputs_built: DbtProject) -> None:
    sql = star_built.sql["sj_star_var_budget"]
    record = _record(sql)
    assert f"broadcast budget {star_built.var_budget} bytes" in record
    assert "from var skewjoin_broadcast_budget" in record
    by_size = sorted(["c", "s", "pr", "d"], key=lambda a: star_built.sizes[SMALL_DIMS[a][0]])
    assert _broadcast(sql) == set(by_size[:2])
    assert _hints(sql)["merge"] == set(by_size[2:])
    _assert_plan(
        inputs_built.conn, sql,
        broadcast={a: SMALL_DIMS[a][0] for a in by_size[:2]},
        shuffled={a: SMALL_DIMS[a][0] for a in by_size[2:]},
    )  # fmt: skip


@pytest.mark.parametrize("over", [0, 1], ids=["exact_fit", "one_byte_over"])
def test_budget_exact_fit_and_one_byte_over(
    over: int, sizes: dict[str, int], compile_inline: Callable[..., Any], inputs_built: DbtProject
) -> None:
    """The budget is the sum of the three smallest dimensions (exact fit: all
    three are broadcast), or one byte less (the third no longer fits)."""
    by_size = sorted(SMALL_DIMS, key=lambda a: sizes[SMALL_DIMS[a][0]])
    three = sum(sizes[SMALL_DIMS[a][0]] for a in by_size[:3])
    budget = three - over
    sql = inline_compiled_sql(compile_inline(_small_call(budget)))
    chosen = set(by_size[:3]) if over == 0 else set(by_size[:2])
    assert _broadcast(sql) == chosen
    assert _hints(sql)["merge"] == set(SMALL_DIMS) - chosen
    verdicts = _verdicts(sql)
    third = by_size[2]
    if over == 0:
        assert f"-> broadcast (fits: broadcast total {three} <= budget {budget})" in verdicts[third]
    else:
        assert "-> shuffle (over budget: broadcast total would be " in verdicts[third]
        assert f"= {three} > {budget})" in verdicts[third]
    _assert_plan(
        inputs_built.conn, sql,
        broadcast={a: SMALL_DIMS[a][0] for a in chosen},
        shuffled={a: SMALL_DIMS[a][0] for a in set(SMALL_DIMS) - chosen},
    )  # fmt: skip
    assert assert_same_rows(inputs_built.conn, strip_record(sql), _small_plain_join()) > 1000


def test_spark_threshold_alone_broadcasts_every_dimension_but_the_budget_does_not(
    sizes: dict[str, int], compile_inline: Callable[..., Any], inputs_built: DbtProject
) -> None:
    """Spark compares each table with its threshold on its own; Hive's rule
    compares the sum of all broadcasts with one budget. With the threshold
    one byte above the largest of four small dimensions, the plain join
    broadcasts all four (their sum far above the threshold); star_join with
    the same number as its budget broadcasts only what fits together."""
    small = {a: sizes[SMALL_DIMS[a][0]] for a in SMALL_DIMS}
    limit = max(small.values()) + 1
    assert sum(small.values()) > 2 * limit
    plain = _join_strategies(_explain(inputs_built.conn, _small_plain_join(), threshold=limit))
    for alias in SMALL_DIMS:
        assert _strategy(plain, SMALL_DIMS[alias][0]).startswith("BroadcastHashJoin"), plain
    sql = inline_compiled_sql(compile_inline(_small_call(limit)))
    chosen = _broadcast(sql)
    assert 0 < len(chosen) < len(SMALL_DIMS)
    assert sum(small[a] for a in chosen) <= limit
    for alias in set(SMALL_DIMS) - chosen:
        assert sum(small[a] for a in chosen) + small[alias] > limit
    # the same threshold in the session: the merge hints keep the others out of memory
    _assert_plan(
        inputs_built.conn, sql,
        broadcast={a: SMALL_DIMS[a][0] for a in chosen},
        shuffled={a: SMALL_DIMS[a][0] for a in set(SMALL_DIMS) - chosen},
        threshold=limit,
    )  # fmt: skip


# -- where sizes come from ----------------------------------------------------------------


def test_missing_statistics_views_and_queries(star_built: Built, inputs_built: DbtProject) -> None:
    sql = star_built.sql["sj_star_unknown_sizes"]
    verdicts = _verdicts(sql)
    files, channel_bytes = _files_bytes(inputs_built.conn, "star_channels")
    assert f"{channel_bytes} bytes" in verdicts["ch"]
    assert (
        f"from the sum of its {files} file(s) read through _metadata (no catalog statistics; parquet table"
        in verdicts["ch"]
    )
    assert "-> broadcast" in verdicts["ch"]
    assert "size unknown (a view has no statistics" in verdicts["sr"]
    assert "-> shuffle (size unknown, and a dimension of unknown size is never broadcast)" in verdicts["sr"]
    customers = star_built.sizes["star_customers"]
    assert f"{customers} bytes" in verdicts["c"] and "upper bound: the size of" in verdicts["c"]
    assert "-> broadcast" in verdicts["c"]
    assert (
        "size unknown (a query other than `select <columns> from <table> [where ...]` is not estimated"
        in verdicts["pc"]
    )
    assert "-> shuffle (size unknown" in verdicts["pc"]
    assert _broadcast(sql) == {"ch", "c"} and _hints(sql)["merge"] == {"sr", "pc"}
    _assert_plan(
        inputs_built.conn, sql,
        broadcast={"ch": "star_channels", "c": "star_customers"},
        shuffled={"sr": "star_stores", "pc": "star_promos"},
    )  # fmt: skip


def test_analyze_stores_statistics_first(star_built: Built, inputs_built: DbtProject) -> None:
    verdicts = _verdicts(star_built.sql["sj_star_analyze"])
    stored = _catalog_bytes(inputs_built.conn, "star_warehouses")
    assert stored is not None, "ANALYZE TABLE did not store statistics"
    assert f"{stored} bytes" in verdicts["w"]
    assert (
        "from catalog statistics after ANALYZE TABLE ... COMPUTE STATISTICS NOSCAN (there were none) (parquet)"
        in verdicts["w"]
    )
    assert stored == _files_bytes(inputs_built.conn, "star_warehouses")[1]


def test_path_based_dimensions_are_measured_from_their_files(star_built: Built, inputs_built: DbtProject) -> None:
    sql = star_built.sql["sj_star_path"]
    verdicts = _verdicts(sql)
    files, customers = _files_bytes(inputs_built.conn, "star_customers")
    assert f"{customers} bytes" in verdicts["c"]
    assert f"from the sum of its {files} file(s) read through _metadata (path-based parquet)" in verdicts["c"]
    assert f"x size factor 2 (dims[0].size_factor) = {2 * customers} bytes" in verdicts["c"]
    _, stores = _files_bytes(inputs_built.conn, "star_stores")
    assert f"{stores} bytes" in verdicts["s"] and "upper bound: the size of parquet.`" in verdicts["s"]
    assert _broadcast(sql) == {"c", "s"}
    _assert_plan(
        inputs_built.conn, sql,
        broadcast={"c": "path:" + str(_location(inputs_built.conn, "star_customers")),
                   "s": "path:" + str(_location(inputs_built.conn, "star_stores"))},
        shuffled={},
    )  # fmt: skip


def test_path_fact_with_a_filtered_path_dimension(compile_inline: Callable[..., Any], inputs_built: DbtProject) -> None:
    """A fact given as a path, joined to a filtered path dimension (the
    filter also prunes the fact, by default): equal to the plain join."""
    conn = inputs_built.conn
    sales, dates = (_describe(conn, t)["Location"] for t in ("star_sales", "star_dates"))
    call = (
        "{{ skewjoin.star_join('parquet.`" + sales + "`', [{'relation': 'parquet.`" + dates + "`', 'alias': 'd', "
        "'on': [['sold_date', 'date_key']], 'filter': 'd.month = 2'}], columns=['f.sale_id', 'd.day_name']) }}"
    )
    sql = inline_compiled_sql(compile_inline(call))
    assert _broadcast(sql) == {"d"}
    assert f"dimension d (parquet.`{dates}`, inner join on f.sold_date = d.date_key, filter: d.month = 2)" in _record(
        sql
    )
    plain = (
        f"select f.sale_id, d.day_name from {SCHEMA}.star_sales as f "
        f"inner join {SCHEMA}.star_dates as d on f.sold_date = d.date_key where d.month = 2"
    )
    assert assert_same_rows(conn, strip_record(sql), plain) > 500


# -- outer joins and join types -----------------------------------------------------------


def test_small_preserved_side_of_an_outer_join_is_not_broadcast(star_built: Built, inputs_built: DbtProject) -> None:
    """`sales right join stores` is `stores left join sales`: stores is the
    preserved side and small, and still may not be broadcast."""
    sql = star_built.sql["sj_star_right_small"]
    verdicts = _verdicts(sql)
    assert star_built.sizes["star_stores"] < 10485760
    assert "-> shuffle (cannot be broadcast: a right join preserves s (all its rows are returned)" in verdicts["s"]
    assert "join order: d, s, c (as given, because s is right- or full-joined" in _record(sql)
    assert _broadcast(sql) == {"d", "c"}
    found = _assert_plan(
        inputs_built.conn, sql,
        broadcast={"d": "star_dates", "c": "star_customers"}, shuffled={"s": "star_stores"},
    )  # fmt: skip
    assert "SortMergeJoin RightOuter" in found
    # even when Spark's own threshold is on: the merge hint holds
    _assert_plan(
        inputs_built.conn, sql,
        broadcast={"d": "star_dates", "c": "star_customers"}, shuffled={"s": "star_stores"}, threshold=None,
    )  # fmt: skip


def test_full_outer_join_is_never_broadcast(star_built: Built, inputs_built: DbtProject) -> None:
    sql = star_built.sql["sj_star_full"]
    verdicts = _verdicts(sql)
    assert "-> shuffle (cannot be broadcast: a full outer join preserves both sides" in verdicts["c"]
    assert "-> broadcast" in verdicts["pr"]
    assert "sales.customer_id = c.customer_id" in strip_record(sql)
    found = _assert_plan(inputs_built.conn, sql, broadcast={"pr": "star_promos"}, shuffled={"c": "star_customers"})
    assert "SortMergeJoin FullOuter" in found


def test_semi_and_anti_joins_are_broadcast(star_built: Built, inputs_built: DbtProject) -> None:
    sql = star_built.sql["sj_star_semi_anti"]
    assert _broadcast(sql) == {"d", "pr", "s"}
    found = _assert_plan(
        inputs_built.conn, sql,
        broadcast={"d": "star_dates", "pr": "star_promos", "s": "star_stores"}, shuffled={},
    )  # fmt: skip
    assert "BroadcastHashJoin LeftSemi BuildRight" in found and "BroadcastHashJoin LeftAnti BuildRight" in found
    assert "dimension d (skewjoin_it.star_dates, left semi join on f.sold_date = d.date_key, filter:" in _record(sql)


def test_role_playing_dimension_renames_clashing_columns(star_built: Built) -> None:
    sql = star_built.sql["sj_star_role_playing"]
    assert (
        "output columns renamed to avoid duplicate names: d_ship.year -> d_ship_year, "
        "d_ship.month -> d_ship_month, d_ship.day_name -> d_ship_day_name"
    ) in _record(sql)


# -- parsing ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def isolated_target(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "target"


def test_parse_runs_no_query(inputs_built: DbtProject, isolated_target: Path) -> None:
    """`dbt parse` renders every model with execute false: with no server at
    the port, any query a macro ran (star_join, prune_predicate, skew_join)
    would fail the parse."""
    result = run_dbt(
        ["parse", "--no-partial-parse", "--target-path", str(isolated_target)],
        project_dir=inputs_built.project_dir,
        profiles_dir=inputs_built.profiles_dir,
        target=inputs_built.target,
        env={"SKEWJOIN_THRIFT_PORT": str(_free_port()), "SKEWJOIN_THRIFT_HOST": "127.0.0.1"},
    )
    assert result.success
    names = {n.name for n in result.result.nodes.values()}  # type: ignore[union-attr]
    assert STAR_MODELS <= names
    assert {"pr_cascade", "pr_multi_key", "pr_star_join", "sj_seed_three_groups", "hk_hostile_auto"} <= names

"""The prune cache (pruning as a pre-hook), on the Spark Thrift Server.

- nine of the models/pruning with var skewjoin_prune_cache: true (their
  folder's pre_hook is `skewjoin.prune_key_sets()`). When they are rendered the cache does not
  hold this run's key sets yet, so each predicate is a semi join against the
  cache, read when the query runs; the pre_hooks compute the key sets first,
  four models at once. Every model equals the plain join (their data tests),
  and Spark prunes the fact's partitions by the cached keys at run time.
- A named run whose key sets `dbt run-operation skewjoin.prune_key_sets`
  computed first (the orchestrator's pre-step): literal IN lists read from
  the cache while rendering, the same as without the cache, and the fact scan
  lists only the kept partitions.
- A fresh project that installs the package (the user's form): on-run-start
  computes one key set once, two models read it while rendering; `dbt compile`
  computes nothing.
- A cached predicate whose key set was never computed stops its query with
  the way out, instead of reading an empty set.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import BUILD_THREADS, SCHEMA, Built, built_from, inline_compiled_sql
from dbt.cli.main import dbtRunner
from test_pruning import _explain, _field, _in_list, _paths_listed, _record, _scan

from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject, SparkThrift

pytestmark = pytest.mark.spark

# The pruning models whose cached key sets go through a different path: two groups and an intersection, an
# empty set, a non-partitioned fact, a two-column key, and the text form of hostile strings, timestamps,
# decimals and a timestamp narrowed to a date column; and star_join. (The other eight differ from these
# only in what the plain, uncached predicate does, which test_pruning.py checks.)
MODELS = [
    "pr_cascade", "pr_empty", "pr_fallback_range", "pr_multi_key", "pr_key_string_hostile", "pr_key_timestamp",
    "pr_key_decimal", "pr_key_date_vs_timestamp", "pr_star_join",
]  # fmt: skip
FEB = f"select count(distinct date_key) from {SCHEMA}.prune_dates where year = 2026 and month = 2"
# The named run of the orchestrator's form: its key sets computed by `dbt run-operation skewjoin.prune_key_sets`,
# read by the commands run with these vars (the same vars for each: dbt parses the project once for them)
ORCHESTRATED = "it-orchestrated"
RUN_VARS = {"skewjoin_prune_cache_run": ORCHESTRATED, "skewjoin_prune_cache": True}


@pytest.fixture(scope="module")
def cache_built(inputs_built: DbtProject) -> Built:
    """models/pruning built with the prune cache on and their data tests, the key sets computed by each
    model's pre_hook; the cache table made first, as on-run-start would (the pre_hooks run four at once)."""
    inputs_built.run(["run-operation", "skewjoin.prune_key_sets"])
    built = built_from(inputs_built.run(["build", *BUILD_THREADS, "--select", *MODELS],
                                        vars={"skewjoin_prune_cache": True}))  # fmt: skip
    failed = [n for n in built.nodes if n[2] not in ("success", "pass")]
    assert not failed, f"dbt nodes did not pass: {failed}"
    return built


def test_the_pre_hook_form_equals_the_plain_join(cache_built: Built) -> None:
    assert {n[1] for n in cache_built.nodes if n[0] == "model"} == set(MODELS)
    tests = [n[1] for n in cache_built.nodes if n[0] == "test"]
    assert sum(1 for t in tests if t.startswith("equals_plain_join_pr_")) == len(MODELS)
    deferred = 0
    for name in MODELS:
        sql = cache_built.sql[name]
        if "no key is collected while rendering" in sql:
            assert "raise_error(concat('skewjoin." in sql and "where sj_check.sj_done = 0" in sql, name
            deferred += 1
        else:
            # another model's pre_hook computed the same key set before this one was rendered: read once
            assert re.search(r"run \S+: (\d+) of \1 key set\(s\) complete", sql), name
            assert "read from the prune cache" in sql and "raise_error(" not in sql, name
    assert deferred >= 1


def test_the_cached_keys_prune_partitions_when_the_query_runs(cache_built: Built, inputs_built: DbtProject) -> None:
    sql = cache_built.sql["pr_star_join"]
    record = _record(sql, "star_join")
    assert "partitions: 61 in total; the key set on partition column(s) date_key is read from the prune cache" in record
    # planned with AQE on, Spark's default (AQE off, the semi join is also pushed into the dimension's
    # side and the broadcast Spark would prune by is not reused, so it drops the pruning)
    plan = _explain(inputs_built.conn, sql, {"spark.sql.adaptive.enabled": "true"})
    scan = [line for line in plan.splitlines() if "FileScan" in line and f"{SCHEMA}.prune_sales[" in line][0]
    assert "dynamicpruningexpression(date_key#" in _field(scan, "PartitionFilters"), scan


def test_a_named_run_gives_literal_predicates_read_from_the_cache(
    cache_built: Built, inputs_built: DbtProject, compile_inline: Callable[..., Any]
) -> None:
    run = ORCHESTRATED
    key_sets = [
        {"relation": f"{SCHEMA}.prune_dates", "filter": "year = 2026 and month = 2", "keys": ["date_key"]},
        {"relation": f"{SCHEMA}.prune_dates", "alias": "d", "filter": "d.year = 2026 and d.month = 2",
         "keys": ["date_key"]},
    ]  # fmt: skip
    inputs_built.run(["run-operation", "skewjoin.prune_key_sets", "--args", repr({"key_sets": key_sets})],
                     vars=RUN_VARS)  # fmt: skip
    conn = inputs_built.conn
    feb = run_sql(conn, FEB)[0][0]
    call = (
        "select * from {{ ref('prune_sales') }} as f where {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', "
        "[{'relation': ref('prune_dates'), 'filter': 'year = 2026 and month = 2', 'on': ['date_key']}], cache=true) }}"
    )
    sql = inline_compiled_sql(compile_inline(call, vars=RUN_VARS))
    record = _record(sql)
    assert f"run {run}: 1 of 1 key set(s) complete" in record
    assert f"{feb} distinct key(s) (key set " in record
    assert ", read from the prune cache); 2 row(s) with a NULL key" in record
    assert f"partitions: 61 in total, {feb} kept by the literal predicate" in record
    plain = inline_compiled_sql(compile_inline(call.replace(", cache=true", "")))
    assert _in_list(sql, "f.date_key") == _in_list(plain, "f.date_key")
    scan = _scan(_explain(conn, sql), "prune_sales")
    assert _paths_listed(scan) == feb, scan
    assert_same_rows(conn, sql, plain)
    # star_join's dimension (alias d) was computed by the same run-operation
    star = inputs_built.run(["build", "--select", "pr_star_join"], vars=RUN_VARS)
    star_sql = built_from(star).sql["pr_star_join"]
    assert f"run {run}: 1 of 1 key set(s) complete" in star_sql and "IN list of" in star_sql


def test_a_key_set_never_computed_stops_the_query(inputs_built: DbtProject, compile_inline: Callable[..., Any]) -> None:
    # a key set no run-operation and no model of the run computes (the named run's vars: one parse of the
    # project for every command with them)
    call = (
        "select count(*) from {{ ref('prune_sales') }} as f where {{ skewjoin.prune_predicate(ref('prune_sales'), "
        "'f', [{'relation': ref('prune_dates'), 'filter': 'year = 2026', 'on': ['date_key']}], cache=true) }}"
    )
    sql = inline_compiled_sql(compile_inline(call, vars=RUN_VARS))
    with pytest.raises(Exception) as raised:
        run_sql(inputs_built.conn, sql)
    message = str(raised.value)
    expected = r"the key set [0-9a-f]{12} of small\[0\] prune_dates is not in the prune cache"
    assert re.search(expected, message), message[:2000]
    assert "pre_hook=\"{{ skewjoin.prune_key_sets() }}\" in the model's config, or on-run-start" in message


# -- a fresh project that installs the package ------------------------------------------------------------------

FRESH_SCHEMA = SCHEMA + "_prune_fresh"


def _fresh_project(root: Path, repo: Path) -> Path:
    project = root / "shop"
    (project / "models").mkdir(parents=True)
    (project / "dbt_project.yml").write_text(
        "name: shop\nversion: '1.0.0'\nconfig-version: 2\nprofile: shop\n"
        "on-run-start:\n"
        "  - \"{{ skewjoin.prune_key_sets([{'relation': source('raw', 'prune_dates'), "
        "'filter': 'year = 2026 and month = 2', 'on': ['date_key']}]) }}\"\n"
        "  - \"{{ skewjoin.prune_key_sets(var('late_key_sets', [])) }}\"\n"
        "vars:\n  skewjoin_prune_cache: true\n"
        "models:\n  shop:\n    +materialized: table\n"
    )
    (project / "packages.yml").write_text(f"packages:\n  - local: {repo}\n")
    (project / "profiles.yml").write_text(
        "shop:\n  target: dev\n  outputs:\n    dev:\n      type: spark\n      method: thrift\n"
        "      host: \"{{ env_var('SKEWJOIN_THRIFT_HOST', '127.0.0.1') }}\"\n"
        "      port: \"{{ env_var('SKEWJOIN_THRIFT_PORT') | as_number }}\"\n"
        f"      schema: {FRESH_SCHEMA}\n      threads: 2\n      connect_retries: 3\n      poll_interval: 1\n"
    )
    (project / "models" / "sources.yml").write_text(
        f"version: 2\nsources:\n  - name: raw\n    schema: {SCHEMA}\n    tables:\n"
        "      - name: prune_sales\n      - name: prune_dates\n"
    )
    where = (
        "where d.year = 2026 and d.month = 2\n  and {{ skewjoin.prune_predicate(source('raw', 'prune_sales'), 'f', "
        "[{'relation': source('raw', 'prune_dates'), 'filter': 'year = 2026 and month = 2', 'on': ['date_key']}]) }}\n"
    )
    join = (
        "from {{ source('raw', 'prune_sales') }} as f\n"
        "join {{ source('raw', 'prune_dates') }} as d on f.date_key = d.date_key\n"
    )
    (project / "models" / "feb_sales.sql").write_text("select f.sale_id, f.date_key, f.amount\n" + join + where)
    (project / "models" / "feb_revenue.sql").write_text(
        "select f.date_key, sum(f.amount) as revenue\n" + join + where + "group by f.date_key\n"
    )
    # a small relation the run builds (a month chosen by a var), and a model pruned by it from the cache
    late = "{{ config(enabled=var('late_models', false)) }}\n"
    (project / "models" / "month_days.sql").write_text(
        late + "select date_key from {{ source('raw', 'prune_dates') }} "
        "where year = 2026 and month = {{ var('month', 2) }}\n"
    )
    (project / "models" / "month_sales.sql").write_text(
        late.replace("var('late_models', false)", "var('late_models', false), pre_hook=\"{{ skewjoin.prune_key_sets() }}\"")
        + "select f.sale_id, f.date_key, f.amount from {{ source('raw', 'prune_sales') }} as f\n"
        "where {{ skewjoin.prune_predicate(source('raw', 'prune_sales'), 'f', "
        "[{'relation': ref('month_days'), 'on': ['date_key']}]) }}\n"
    )
    return project


@pytest.fixture(scope="module")
def fresh_project(inputs_built: DbtProject, tmp_path_factory: pytest.TempPathFactory,
                  spark_thrift: SparkThrift) -> Iterator[Callable[..., Any]]:  # fmt: skip
    project = _fresh_project(tmp_path_factory.mktemp("fresh"), inputs_built.repo_root)
    env = {"SKEWJOIN_THRIFT_PORT": str(spark_thrift.port), "SKEWJOIN_THRIFT_HOST": spark_thrift.host}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)

    def dbt(*args: str) -> Any:
        paths = [] if args[0] == "deps" else ["--target-path", str(project / "target")]
        result = dbtRunner().invoke([*args, "--project-dir", str(project), "--profiles-dir", str(project),
                                     "--log-path", str(project / "logs"), *paths])  # fmt: skip
        assert result.success, f"dbt {' '.join(args)} failed: {result.exception}"
        return result

    dbt("deps")
    try:
        yield dbt
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        run_sql(inputs_built.conn, f"drop schema if exists {FRESH_SCHEMA} cascade")


def test_on_run_start_computes_a_key_set_once_for_every_model(
    fresh_project: Callable[..., Any], inputs_built: DbtProject
) -> None:
    result = fresh_project("run")
    nodes = {r.node.name: r for r in result.result.results if r.node.resource_type == "model"}
    assert set(nodes) == {"feb_sales", "feb_revenue"}
    conn = inputs_built.conn
    feb = run_sql(conn, FEB)[0][0]
    for name, r in nodes.items():
        sql = str(r.node.compiled_code)
        record = _record(sql)
        assert ": 1 of 1 key set(s) complete" in record, name
        assert f"{feb} distinct key(s) (key set " in record and "read from the prune cache" in record, name
        assert _in_list(sql, "f.date_key").count("cast('2026-02-") == feb, name
    rows = run_sql(conn, f"select count(*) from {FRESH_SCHEMA}.skewjoin_prune_cache where sj_kind = 'done'")[0][0]
    assert rows == 1, "one key set, computed once"
    plain = (
        f"select f.sale_id, f.date_key, f.amount from {SCHEMA}.prune_sales as f join {SCHEMA}.prune_dates as d "
        "on f.date_key = d.date_key where d.year = 2026 and d.month = 2"
    )
    assert assert_same_rows(conn, f"select * from {FRESH_SCHEMA}.feb_sales", plain) > 0


def test_on_run_start_leaves_a_relation_the_run_builds_to_the_models_hook(
    fresh_project: Callable[..., Any], inputs_built: DbtProject
) -> None:
    """on-run-start lists a key set of month_days, a model the same run rebuilds (for another month): it read
    the rows of the last run's month_days, and month_sales's pre_hook then found the key set complete for this
    run, so month_sales kept last month's keys and lost this month's rows. The hook now leaves it to the
    pre_hook, which computes it once month_days is built."""
    conn = inputs_built.conn
    late = f"[{{relation: {FRESH_SCHEMA}.month_days, keys: [date_key]}}]"
    select = ["--select", "month_days", "month_sales"]
    fresh_project("run", *select, "--vars", "{late_models: true, month: 2}")
    result = fresh_project("run", *select, "--vars", f"{{late_models: true, month: 3, late_key_sets: {late}}}")
    assert {r.node.name for r in result.result.results if r.node.resource_type == "model"} == {"month_days", "month_sales"}
    plain = (
        f"select f.sale_id, f.date_key, f.amount from {SCHEMA}.prune_sales as f "
        f"where f.date_key in (select date_key from {SCHEMA}.prune_dates where year = 2026 and month = 3)"
    )
    assert assert_same_rows(conn, f"select * from {FRESH_SCHEMA}.month_sales", plain) > 0


def test_compile_computes_no_key_set(fresh_project: Callable[..., Any], inputs_built: DbtProject) -> None:
    before = run_sql(inputs_built.conn, f"select count(*) from {FRESH_SCHEMA}.skewjoin_prune_cache")[0][0]
    result = fresh_project("compile", "--select", "feb_sales")
    sql = [str(r.node.compiled_code) for r in result.result.results if r.node.resource_type == "model"][0]
    assert "no key is collected while rendering" in sql
    assert not re.search(r"from \S*prune_dates as sj_small\s+where \(year = 2026", sql), "no key query of prune_dates"
    after = run_sql(inputs_built.conn, f"select count(*) from {FRESH_SCHEMA}.skewjoin_prune_cache")[0][0]
    assert after == before

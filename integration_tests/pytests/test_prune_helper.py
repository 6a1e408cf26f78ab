"""`skewjoin prune` on the Thrift server: the command, through dbt, on the integration project.

The command renders `prune_predicate` and runs `prune_key_sets` through dbt
(no rule of its own), so these tests check what a user gets from it: the
report and the JSON document carry the macro's decision record and
predicate; the predicate, as the only filter on the big table, gives the rows
of the plain join; `--cache-run` writes the key sets (hostile strings
included) that models then read as literal predicates; a bad request stops
with the macro's error and exit 2.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from support import SCHEMA, inline_compiled_sql

from skewjoin.cli import main
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject, vars_target_path

pytestmark = pytest.mark.spark

S = SCHEMA
SUFFIX = f"{os.getpid()}"
CACHE = f"{S}.pr_helper_cache_{SUFFIX}"
DATES = "{'relation': ref('prune_dates'), 'filter': 'year = 2026 and month = 2', 'on': ['date_key']}"
STORES = "{'relation': ref('prune_stores'), 'filter': \"region = 'EU'\", 'on': ['store_id']}"


@pytest.fixture(scope="module")
def project(inputs_built: DbtProject) -> Iterator[DbtProject]:
    """The built integration project, with the Thrift server's address in the environment for the command."""
    saved = {k: os.environ.get(k) for k in inputs_built.env}
    os.environ.update(inputs_built.env)
    yield inputs_built
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="module")
def spec_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("prune") / "prune.yml"
    path.write_text(
        f"""\
- name: feb_sales
  big: {S}.prune_sales
  big_alias: f
  small:
    - relation: {S}.prune_dates
      filter: year = 2026 and month = 2
      on: [date_key]
    - {{relation: {S}.prune_stores, filter: "region = 'EU'", on: [store_id]}}
- name: hostile
  big: {S}.hostile_left
  big_alias: a
  small:
    - relation: |
        select hkey from {S}.hostile_right
        where label not like '%-2'
      alias: h
      on: [hkey]
"""
    )
    return path


def prune(project: DbtProject, *args: str) -> Result:
    where = ["--project-dir", str(project.project_dir), "--profiles-dir", str(project.profiles_dir),
             "--target", project.target]  # fmt: skip
    # With --cache-run the command runs dbt with the cache's vars: in the target path DbtProject.run
    # gives those vars, so that dbt keeps the partial parse of the commands without vars and the
    # project's commands with the same vars parse no more
    env = None
    if "--cache-run" in args:
        cache_vars = {"skewjoin_prune_cache": True, "skewjoin_prune_cache_run": args[args.index("--cache-run") + 1]}
        if "--cache-table" in args:
            cache_vars["skewjoin_prune_cache_table"] = args[args.index("--cache-table") + 1]
        env = {"DBT_TARGET_PATH": vars_target_path(cache_vars)}
    return CliRunner(env=env).invoke(main, ["prune", *where, "-q", *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def document(project: DbtProject, spec_file: Path) -> dict[str, Any]:
    """The command's JSON document for the spec file, without the cache."""
    result = prune(project, "--spec", str(spec_file), "--json")
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


def test_report_and_json_show_the_macro_record_and_predicate(
    project: DbtProject, spec_file: Path, document: dict[str, Any]
) -> None:
    report = prune(project, "--spec", str(spec_file))
    assert report.exit_code == 0, report.output
    out = report.stdout
    assert f"== feb_sales: prune {S}.prune_sales as f" in out and f"== hostile: prune {S}.hostile_left as a" in out
    assert "skewjoin.prune_predicate decision record (model inline_query)" in out
    assert "28 distinct key(s); 2 row(s) with a NULL key dropped" in out
    assert "partitions: 61 in total, 28 kept" in out
    assert "more characters; --full or --json for all)" in out

    feb, hostile = document["requests"]
    assert document["cache"] is None and feb["name"] == "feb_sales" and feb["small"][0]["on"] == ["date_key"]
    assert feb["compiled"].endswith(feb["predicate"]) and feb["predicate"].startswith("(\n    f.date_key in (")
    assert "\n        and f.store_id in (cast(0 as int), cast(12 as int)," in out
    assert "concat(chr(36), '{var}')" in hostile["predicate"]


def test_the_predicate_reads_the_rows_of_the_plain_join(project: DbtProject, document: dict[str, Any]) -> None:
    feb, hostile = (r["predicate"] for r in document["requests"])
    feb_join = (
        f"select f.*, d.month, s.region from {S}.prune_sales as f "
        f"join {S}.prune_dates as d on f.date_key = d.date_key "
        f"join {S}.prune_stores as s on f.store_id = s.store_id "
        "where d.year = 2026 and d.month = 2 and s.region = 'EU' and ({})"
    )
    assert assert_same_rows(project.conn, feb_join.format(feb), feb_join.format("true")) > 0
    hostile_join = (
        f"select a.*, h.label from {S}.hostile_left as a join {S}.hostile_right as h on a.hkey = h.hkey "
        "where h.label not like '%-2' and ({})"
    )
    assert assert_same_rows(project.conn, hostile_join.format(hostile), hostile_join.format("true")) > 0


def test_cache_run_writes_the_key_sets_the_models_read(
    project: DbtProject, spec_file: Path, document: dict[str, Any]
) -> None:
    """The orchestrator's form: `skewjoin prune --cache-run` before dbt, then prune_predicate under
    that run renders the literal predicate from the cache, the one it renders without it."""
    run = f"helper-then-dbt:{SUFFIX}"
    args = ["--spec", str(spec_file), "--json", "--cache-run", run, "--cache-table", CACHE]
    cached_run = json.loads(prune(project, *args).stdout)
    record = cached_run["cache"]["record"]
    assert cached_run["cache"]["run"] == run and any(f"cache {CACHE}, run {run}" in line for line in record)
    assert sum(line.endswith(": computed") for line in record) == 3
    feb = cached_run["requests"][0]
    assert feb["predicate"] == document["requests"][0]["predicate"]  # the literal predicate, as without the cache
    assert f"prune cache {CACHE}, run {run}: 2 of 2 key set(s) complete" in feb["record"]
    assert sum("read from the prune cache" in line for line in feb["record"]) == 2

    again = json.loads(prune(project, *args).stdout)["cache"]["record"]
    assert sum(line.endswith(": already in the cache for this run") for line in again) == 3

    # a model of the project, run with that cache run, reads the same key sets: the same literal predicate
    call = f"{{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES}, {STORES}]) }}}}"
    cache_vars = {"skewjoin_prune_cache": True, "skewjoin_prune_cache_run": run, "skewjoin_prune_cache_table": CACHE}
    cached = inline_compiled_sql(project.run(["compile", "--inline", call], vars=cache_vars))
    assert cached.endswith(feb["predicate"]) and "2 of 2 key set(s) complete" in cached

    keys = project.conn.cursor()
    keys.execute(f"select to_json(sj_values) from {CACHE} where sj_run = '{run}' and sj_kind = 'key'")
    stored = {value for (text,) in keys.fetchall() for value in json.loads(text)}
    keys.close()
    assert {"it's", "${var}", "new\nline", "ünïcödé ✓ 日本", "back\\slash"} <= stored
    assert {"2026-02-01", "2026-02-28"} <= stored


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("small: [{relation: %s.prune_dates, on: [date_kye]}]", "argument `small[0].on`"),
        ("small: [{relation: %s.prune_dates, on: [date_key]}]\n  join_type: left", "argument `join_type`"),
    ],
    ids=["unknown_column", "join_keeps_every_big_row"],
)
def test_a_bad_request_stops_with_the_macro_error(
    project: DbtProject, tmp_path: Path, request_text: str, expected: str
) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text(f"- name: typo\n  big: {S}.prune_sales\n  big_alias: f\n  " + request_text % S + "\n")
    result = prune(project, "--spec", str(bad))
    assert result.exit_code == 2, result.output
    assert "request 'typo': " in result.stderr and "skewjoin.prune_predicate in model 'inline_query'" in result.stderr
    assert expected in result.stderr and "Right form" in result.stderr

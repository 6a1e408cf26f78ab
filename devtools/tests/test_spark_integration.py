"""The one Spark test of the launcher: a real Spark Thrift Server driven through the `skewjoin-dev` command.

Starts a server with `python -m skewjoin_devtools spark-thrift start` (the code path of the
console script) into a temp dir, queries it through PyHive, checks the pytest
fixtures and the dbt runner against it, stops it by its PID and checks the
process is gone. No mocks: if this passes, Spark, PyHive and dbt-spark work here.
"""

from __future__ import annotations

import json
import multiprocessing.resource_tracker  # noqa: F401 - see note below
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from skewjoin.errors import DbtRunError, SparkSqlError
from skewjoin.spark_backend import connect, run_sql
from skewjoin_devtools.multisets import compare_multisets
from skewjoin_devtools.pytest_plugin import DbtProject, SparkThrift
from skewjoin_devtools.thrift_server import pid_alive, port_open

pytestmark = pytest.mark.spark

# Note: the `pytester` fixture removes, at teardown, every module imported during
# the test. dbt's spawn-context locks unregister themselves from
# multiprocessing's resource tracker at exit; if that module was dropped and is
# re-imported, a fresh tracker prints "KeyError: '/mp-...'" tracebacks. Importing
# it above, before pytester takes its snapshot, keeps the one tracker.


def _skewjoin(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skewjoin_devtools", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_thrift_server_lifecycle_via_cli(tmp_path: Path, pytester: pytest.Pytester) -> None:
    workdir = tmp_path / "thrift"
    started = _skewjoin(
        "spark-thrift", "start", "--dir", str(workdir), "--conf", "spark.sql.shuffle.partitions=4"
    )  # fmt: skip
    assert started.returncode == 0, started.stdout + started.stderr
    address, pid_field = started.stdout.split()
    host, port_text = address.split(":")
    port, pid = int(port_text), int(pid_field.removeprefix("pid="))
    assert host == "127.0.0.1"
    assert json.loads((workdir / "thrift.json").read_text())["pid"] == pid
    assert (workdir / "metastore_db").is_dir(), "Derby metastore must live in the server dir"
    try:
        _check_queries(host, port)
        status = _skewjoin("spark-thrift", "status", "--dir", str(workdir))
        assert status.returncode == 0, status.stdout
        assert status.stdout.strip() == f"running 127.0.0.1:{port} pid={pid}"
        _check_pytest_fixtures(pytester, port)
        _check_dbt_project(tmp_path / "repo", SparkThrift(host=host, port=port))
    finally:
        stopped = _skewjoin("spark-thrift", "stop", "--dir", str(workdir), timeout=120)
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    assert stopped.stdout.strip() == f"stopped pid={pid}"
    assert not pid_alive(pid), f"pid {pid} still running after stop"
    assert not port_open(host, port)
    assert not (workdir / "thrift.json").exists()
    status = _skewjoin("spark-thrift", "status", "--dir", str(workdir))
    assert status.returncode == 1
    again = _skewjoin("spark-thrift", "stop", "--dir", str(workdir))
    assert again.returncode == 0, "stop must be safe to call twice"


LEFT_VIEW = "create temporary view l as select * from values (1, 'a'), (1, 'b'), (2, 'c'), (null, 'n') as l(k, lv)"
RIGHT_VIEW = "create temporary view r as select * from values (1, 10), (1, 11), (3, 30), (null, 0) as r(k, rv)"
MATCHES = [(1, "a", 10), (1, "a", 11), (1, "b", 10), (1, "b", 11)]


def _check_queries(host: str, port: int) -> None:
    conn = connect(host, port)
    try:
        assert run_sql(conn, "select 1") == [(1,)]
        assert run_sql(conn, "set spark.sql.shuffle.partitions") == [("spark.sql.shuffle.partitions", "4")]
        assert run_sql(conn, LEFT_VIEW) == []
        assert run_sql(conn, RIGHT_VIEW) == []
        # duplicates multiply, NULL keys never match, the outer join keeps them once
        inner = run_sql(conn, "select l.k, lv, rv from l join r on l.k = r.k")
        assert compare_multisets(inner, MATCHES).equal
        left = run_sql(conn, "select l.k, lv, rv from l left join r on l.k = r.k")
        diff = compare_multisets(left, [*MATCHES, (2, "c", None), (None, "n", None)])
        assert diff.equal, str(diff)
        assert not compare_multisets(left, MATCHES).equal
        with pytest.raises(SparkSqlError, match="TABLE_OR_VIEW_NOT_FOUND"):
            run_sql(conn, "select * from no_such_table")
        assert run_sql(conn, "select 2") == [(2,)], "connection must survive a failed statement"
    finally:
        conn.close()


def _check_pytest_fixtures(pytester: pytest.Pytester, port: int) -> None:
    """The plugin's fixtures, in a separate pytest run that reuses this server."""
    pytester.makepyfile(
        textwrap.dedent(
            """
            import pytest

            @pytest.mark.spark
            def test_fixtures(spark_thrift, spark_conn, spark_sql):
                assert spark_thrift.server is None  # reused, not started
                assert spark_sql("select 40 + 2") == [(42,)]
                assert spark_sql("create temporary view v as select id from range(3)") == []
                rows = spark_sql("select a.id, b.id from v a join v b on a.id = b.id")
                assert sorted(rows) == [(0, 0), (1, 1), (2, 2)]
            """
        )
    )
    args = ("-p", "skewjoin_devtools.pytest_plugin", "--skewjoin-thrift-port", str(port), "-p", "no:cacheprovider")
    result = pytester.runpytest_subprocess(*args)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"*using the Spark Thrift Server on 127.0.0.1:{port}*"])


def _check_dbt_project(repo: Path, thrift: SparkThrift) -> None:
    """DbtProject (what the dbt_project fixture yields) on a tiny stand-in for the repo."""
    _write(
        repo / "dbt_project.yml",
        "name: 'skewjoin'\nversion: '0.1.0'\nconfig-version: 2\nmacro-paths: ['macros']\nmodel-paths: []\n",
    )
    _write(
        repo / "macros" / "numbers.sql",
        "{% macro numbers(n) %}select id, id % 3 as k from range({{ n }}){% endmacro %}\n",
    )
    it = repo / "integration_tests"
    _write(
        it / "dbt_project.yml",
        "name: 'skewjoin_pytest_it'\nversion: '0.1.0'\nconfig-version: 2\nprofile: 'skewjoin_pytest_it'\n"
        "models:\n  skewjoin_pytest_it:\n    +materialized: table\n",
    )
    _write(it / "packages.yml", "packages:\n  - local: ../\n")
    _write(
        it / "profiles.yml",
        textwrap.dedent(
            """
            skewjoin_pytest_it:
              target: thrift
              outputs:
                thrift:
                  type: spark
                  method: thrift
                  host: "{{ env_var('SKEWJOIN_THRIFT_HOST', '127.0.0.1') }}"
                  port: "{{ env_var('SKEWJOIN_THRIFT_PORT') | as_number }}"
                  schema: skewjoin_pytest
                  threads: 1
            """
        ),
    )
    _write(it / "models" / "numbers_model.sql", "{{ skewjoin.numbers(var('n', 5)) }}\n")
    _write(it / "models" / "broken_model.sql", "select * from no_such_table_anywhere\n")

    project = DbtProject(repo_root=repo, thrift=thrift)
    try:
        project.run(["run", "--select", "numbers_model"], vars={"n": 7})
        assert (it / "dbt_packages" / "skewjoin").exists(), "dbt deps must run before the first command"
        assert "from range(7)" in project.compiled_sql("numbers_model")
        assert project.assert_model_equals("skewjoin_pytest.numbers_model", "select id, id % 3 from range(7)") == 7
        with pytest.raises(AssertionError, match=r"missing \(in expected, not in actual\): 1 rows"):
            project.assert_model_equals(
                "select * from skewjoin_pytest.numbers_model", "select id, id % 3 from range(8)"
            )
        with pytest.raises(DbtRunError, match="broken_model") as info:
            project.run(["run", "--select", "broken_model"])
        assert any("broken_model" in name for name, _ in info.value.failures)
        result = project.run(["run", "--select", "broken_model"], expect_failure=True)
        assert result.success is False
    finally:
        project.close()


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)

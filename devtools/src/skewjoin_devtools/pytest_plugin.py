"""pytest fixtures for testing skewjoin on a real Spark.

Opt-in: load them with ``-p skewjoin_devtools.pytest_plugin`` on the command line or
in ``addopts``, or with ``pytest_plugins = ["skewjoin_devtools.pytest_plugin"]`` in the
test tree's root ``conftest.py``.

Fixtures:

- ``spark_thrift`` (session): a Spark Thrift Server, started in a temp dir and
  stopped at the end of the session -- or an already-running one when
  ``--skewjoin-thrift-port PORT`` (or env ``SKEWJOIN_THRIFT_PORT``) is given.
  Has ``.host``, ``.port`` and ``.connect()``.
- ``spark_conn`` (session): a PyHive connection to it.
- ``spark_sql``: ``spark_sql("select ...") -> list[tuple]``.
- ``dbt_project`` (session): the nested dbt project ``<repo>/integration_tests``
  run against that server (``run``, ``compiled_sql``, ``assert_model_equals``).
- ``inputs_built`` (session): ``dbt_project`` once its input seeds and tables
  (``tag:inputs``) are built, once for the whole session, whichever test tree asks.

Mark tests that need Spark with ``@pytest.mark.spark``. The plugin marks every
test that uses ``spark_thrift`` (directly or through ``dbt_project``) ``thrift``.

It imports nothing heavy (PySpark, dbt) at module level: a test run that
needs neither pays nothing for them.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from skewjoin.literals import is_query_text
from skewjoin.spark_backend import Row, connect, run_sql
from skewjoin_devtools.multisets import assert_same_rows

if TYPE_CHECKING:
    from dbt.cli.main import dbtRunnerResult
    from pyhive.hive import Connection

    from skewjoin_devtools.thrift_server import ThriftServer

logger = logging.getLogger(__name__)

PORT_ENV = "SKEWJOIN_THRIFT_PORT"
HOST_ENV = "SKEWJOIN_THRIFT_HOST"
REPO_ENV = "SKEWJOIN_REPO"
INPUTS_BUILT_ENV = "SKEWJOIN_INPUTS_BUILT"
DEFAULT_HOST = "127.0.0.1"
PACKAGE_NAME = "skewjoin"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("skewjoin", "skewjoin: Spark Thrift Server and dbt fixtures")
    group.addoption(
        "--skewjoin-thrift-port",
        type=int,
        default=None,
        metavar="PORT",
        help=(
            f"Use the Spark Thrift Server already listening on 127.0.0.1:PORT instead of "
            f"starting one (env {PORT_ENV}). Start one with `skewjoin-dev spark-thrift start`."
        ),
    )
    group.addoption(
        "--skewjoin-thrift-conf",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="Extra Spark config for the Thrift Server the session starts (repeatable).",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "spark: needs Java 17 and a local Spark (uses the spark_thrift fixture; ~30 s to start)",
    )
    config.addinivalue_line(
        "markers",
        "thrift: uses the spark_thrift fixture, directly or through another (set by this plugin)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses the Thrift server ``thrift``, so that ``-m "spark and
    not thrift"`` selects the tests that run their own local Spark, and the two sets
    can run side by side."""
    for item in items:
        if "spark_thrift" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.thrift)


# -- spark_thrift -----------------------------------------------------------------------


@dataclass
class SparkThrift:
    """Where the session's Spark Thrift Server listens; ``server`` is None when reused."""

    host: str
    port: int
    server: ThriftServer | None = None

    def connect(self, **kwargs: Any) -> Connection:
        """A new PyHive connection (the caller closes it)."""
        return connect(self.host, self.port, **kwargs)


def _requested_port(config: pytest.Config) -> int | None:
    port: int | None = config.getoption("skewjoin_thrift_port")
    if port is None and os.environ.get(PORT_ENV):
        try:
            port = int(os.environ[PORT_ENV])
        except ValueError as exc:
            raise pytest.UsageError(f"{PORT_ENV} must be a port number, got {os.environ[PORT_ENV]!r}") from exc
    return port


def _report(config: pytest.Config, message: str) -> None:
    """Progress on the terminal even while output is captured (startup takes ~30 s)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    capture = config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None:
        if capture is not None:
            with capture.global_and_fixture_disabled():
                _write_line(reporter, f"[skewjoin] {message}")
        else:
            _write_line(reporter, f"[skewjoin] {message}")
    logger.info(message)


def _write_line(reporter: Any, line: str) -> None:
    # With -q the progress dots leave the cursor mid-line; start a fresh one.
    if getattr(getattr(reporter, "_tw", None), "width_of_current_line", 0):
        reporter.write("\n")
    reporter.write_line(line)


@pytest.fixture(scope="session")
def spark_thrift(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SparkThrift]:
    """The session's Spark Thrift Server (started here unless a port was given)."""
    config = request.config
    port = _requested_port(config)
    if port is not None:
        host = os.environ.get(HOST_ENV, DEFAULT_HOST)
        from skewjoin_devtools.thrift_server import port_open

        if not port_open(host, port):
            raise pytest.UsageError(
                f"nothing listens on {host}:{port} (from --skewjoin-thrift-port or {PORT_ENV}); "
                f"start a server with `skewjoin-dev spark-thrift start --port {port}`, or drop the option "
                f"and unset {PORT_ENV} to let the tests start their own"
            )
        _report(config, f"using the Spark Thrift Server on {host}:{port}")
        yield SparkThrift(host=host, port=port)
        return

    from skewjoin.spark_backend import parse_conf
    from skewjoin_devtools.thrift_server import ThriftServer

    try:
        conf = parse_conf(config.getoption("skewjoin_thrift_conf"))
    except ValueError as exc:
        raise pytest.UsageError(f"--skewjoin-thrift-conf: {exc}") from exc
    workdir = tmp_path_factory.mktemp("spark_thrift")
    server = ThriftServer(workdir, conf=conf)
    _report(config, f"starting a Spark Thrift Server in {workdir} (~30 s)")
    try:
        server.start()
        assert server.port is not None
        _report(config, f"Spark Thrift Server ready on {server.host}:{server.port} (pid {server.pid})")
        yield SparkThrift(host=server.host, port=server.port, server=server)
    finally:
        server.stop()
        _report(config, f"Spark Thrift Server stopped (log: {server.log_file})")


@pytest.fixture(scope="session")
def spark_conn(spark_thrift: SparkThrift) -> Iterator[Connection]:
    """One PyHive connection shared by the session."""
    conn = spark_thrift.connect()
    try:
        yield conn
    finally:
        conn.close()


@pytest.fixture
def spark_sql(spark_conn: Connection) -> Callable[[str], list[Row]]:
    """``spark_sql(sql) -> list[tuple]`` on the session connection ([] for DDL)."""

    def _run(sql: str) -> list[Row]:
        return run_sql(spark_conn, sql)

    return _run


# -- dbt_project ------------------------------------------------------------------------


def _is_skewjoin_project(directory: Path) -> bool:
    project_file = directory / "dbt_project.yml"
    if not project_file.is_file():
        return False
    import yaml

    try:
        data = yaml.safe_load(project_file.read_text())
    except (OSError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and data.get("name") == PACKAGE_NAME


def find_repo_root(start: Path) -> Path:
    """The skewjoin repository: ``$SKEWJOIN_REPO``, else the first directory from *start*
    upwards whose ``dbt_project.yml`` says ``name: 'skewjoin'``."""
    if os.environ.get(REPO_ENV):
        root = Path(os.environ[REPO_ENV]).resolve()
        if not _is_skewjoin_project(root):
            raise pytest.UsageError(f"{REPO_ENV}={root} has no dbt_project.yml with name: '{PACKAGE_NAME}'")
        return root
    start = Path(start).resolve()
    for directory in (start, *start.parents):
        if _is_skewjoin_project(directory):
            return directory
    raise pytest.UsageError(
        f"cannot find the skewjoin repository above {start}: no dbt_project.yml with "
        f"name: '{PACKAGE_NAME}'. Run pytest inside the repository or set {REPO_ENV}."
    )


_WRITING_COMMANDS = frozenset({"build", "run", "seed", "snapshot"})


def written_relations(result: dbtRunnerResult) -> list[str]:
    """The tables a dbt command wrote: ``relation_name`` of its successful model, seed and snapshot nodes."""
    relations = []
    for node_result in getattr(result.result, "results", None) or []:
        node = getattr(node_result, "node", None)
        raw_status = getattr(node_result, "status", "")
        status = str(getattr(raw_status, "value", raw_status)).lower()
        resource = str(getattr(getattr(node, "resource_type", ""), "value", "")).lower()
        relation = getattr(node, "relation_name", None)
        if status == "success" and resource in ("model", "seed", "snapshot") and relation:
            if str(getattr(getattr(node, "config", None), "materialized", "")) != "ephemeral":
                relations.append(str(relation))
    return relations


def vars_target_path(vars: dict[str, Any], base: str | None = None) -> str:
    """A target path of its own for the commands run with *vars*: ``<base>/vars-<hash>``
    (*base*: ``$DBT_TARGET_PATH``, else dbt's ``target``, relative to the project).

    dbt keeps one partial-parse file per target path and throws it away when the
    vars (or the profile) differ from the last command's: a command with vars, then
    one without, parsed the whole project twice (3-10 s of dbt's Python each, a
    dozen times a session). With a target path per set of vars, each set parses in
    full once and the commands without vars keep theirs.
    """
    digest = hashlib.sha1(json.dumps(vars, sort_keys=True, default=str).encode()).hexdigest()[:12]
    return str(Path(base or os.environ.get("DBT_TARGET_PATH") or "target") / f"vars-{digest}")


_DBT_THREAD: ThreadPoolExecutor | None = None


def _dbt_thread() -> ThreadPoolExecutor:
    """The one thread every dbt command of the tests runs on. dbt's adapter walks the
    calling thread's stack for each of its behavior flags (``inspect.stack()``, which
    reads every frame's source); under pytest and hypothesis that stack is deep, and
    the walk was a fifth of a ``dbt compile --inline`` in the property suite."""
    global _DBT_THREAD
    if _DBT_THREAD is None:
        _DBT_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dbt")
    return _DBT_THREAD


@dataclass
class DbtProject:
    """The nested dbt project ``<repo>/integration_tests`` bound to a Spark Thrift Server."""

    repo_root: Path
    thrift: SparkThrift
    target: str = "thrift"
    _deps_done: bool = field(default=False, repr=False)
    _conn: Connection | None = field(default=None, repr=False)
    # parsed manifests by the JSON of the vars they were parsed with
    _manifests: dict[str, Any] = field(default_factory=dict, repr=False)
    # where the last command wrote (None: $DBT_TARGET_PATH, else dbt's `target`)
    _last_target_path: str | None = field(default=None, repr=False)

    @property
    def project_dir(self) -> Path:
        return self.repo_root / "integration_tests"

    @property
    def profiles_dir(self) -> Path:
        return self.project_dir

    @property
    def env(self) -> dict[str, str]:
        return {PORT_ENV: str(self.thrift.port), HOST_ENV: self.thrift.host}

    def deps(self) -> None:
        """``dbt deps`` (once per session; :meth:`run` calls it before the first command),
        unless the package is already installed as a link to this repository: then
        another process may be reading it, and reinstalling would pull it away."""
        if not self._deps_done:
            installed = self.project_dir / "dbt_packages" / PACKAGE_NAME
            if not (installed.is_symlink() and installed.resolve() == self.repo_root.resolve()):
                self._invoke(["deps"], None, False)
            self._deps_done = True

    def run(self, args: list[str], vars: dict[str, Any] | None = None, expect_failure: bool = False) -> dbtRunnerResult:
        """``dbt <args>`` on the Thrift target; raises DbtRunError on failure unless expected."""
        if args[:1] != ["deps"]:
            self.deps()
        manifest = None
        if args[:1] == ["compile"] and "--populate-cache" not in args:
            # A compile reads the relations it needs on demand; listing the whole
            # schema first (dbt's cache) was 40% of a `compile --inline` here.
            args = [args[0], "--no-populate-cache", *args[1:]]
            if "--inline" in args:
                # The project's files do not change between inline compiles: parse
                # it once per set of vars and hand dbt the manifest (0.5 s -> 0.25 s
                # a compile here). Vars are part of what dbt parses: a compile with
                # other vars than the last command's made dbt parse the whole
                # project again, twice when the next command went back (3-10 s).
                manifest = self._parsed_manifest(vars)
        if manifest is None:
            self._manifests.clear()  # any other command parses again, and may write
        result = self._invoke(args, vars, expect_failure, manifest)
        if args[:1] and args[0] in _WRITING_COMMANDS:
            self.refresh(written_relations(result))
        return result

    def refresh(self, relations: list[str]) -> None:
        """``REFRESH TABLE`` each relation on the shared connection, if it is open.

        Every Thrift connection is its own Spark session with its own cache of
        table file listings: once dbt (another session) rewrites a table the
        shared connection has read, that connection would still look for the
        old files and fail with FILE_NOT_EXIST.
        """
        if self._conn is None:
            return
        for relation in relations:
            run_sql(self._conn, f"refresh table {relation}")

    def _parsed_manifest(self, vars: dict[str, Any] | None = None) -> Any:
        """The project's manifest from ``dbt parse`` with *vars*, parsed once per set of
        vars until another command runs."""
        key = json.dumps(vars or {}, sort_keys=True, default=str)
        manifest = self._manifests.get(key)
        if manifest is None:
            manifest = self._manifests[key] = self._invoke(["parse"], vars, False).result
        # a failed inline compile leaves its node behind, and dbt would refuse the
        # next one as a second node of the same name
        for unique_id in [u for u in manifest.nodes if u.startswith("sql_operation.")]:
            del manifest.nodes[unique_id]
        return manifest

    def _invoke(
        self, args: list[str], vars: dict[str, Any] | None, expect_failure: bool, manifest: Any = None
    ) -> dbtRunnerResult:
        from skewjoin.dbt_runner import run_dbt

        if vars and args[:1] != ["deps"] and "--target-path" not in args:
            args = [*args, "--target-path", vars_target_path(vars)]
        if args[:1] != ["deps"]:
            given = args[args.index("--target-path") + 1] if "--target-path" in args else None
            self._last_target_path = given
        future = _dbt_thread().submit(
            run_dbt,
            args,
            project_dir=self.project_dir,
            profiles_dir=self.profiles_dir,
            target=self.target,
            vars=vars,
            env=self.env,
            expect_failure=expect_failure,
            manifest=manifest,
            # no manifest.json, semantic_manifest.json or run_results.json: the tests read
            # dbt's result objects, and writing the 2 MB manifest after every command was
            # half the client's CPU of an inline compile (0.35 s -> 0.16 s here)
            flags=["--no-write-json"],
        )
        return future.result()

    def compiled_sql(self, model: str) -> str:
        """The compiled SQL of *model* from the last compile/run (in its target path:
        a command with vars writes to :func:`vars_target_path`)."""
        from skewjoin.dbt_runner import compiled_sql

        target_path = self._last_target_path or os.environ.get("DBT_TARGET_PATH") or "target"
        return compiled_sql(self.project_dir, model, target_path)

    @property
    def conn(self) -> Connection:
        if self._conn is None:
            self._conn = self.thrift.connect()
        return self._conn

    def assert_model_equals(self, relation_or_sql: object, oracle_sql: str) -> int:
        """Assert a relation (``schema.table``) or a query returns the oracle's multiset of rows.

        Returns the row count; raises AssertionError with the row diff otherwise.
        """
        text = str(relation_or_sql)
        actual_sql = text if is_query_text(text) else f"select * from {text}"
        return assert_same_rows(self.conn, actual_sql, oracle_sql)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


@pytest.fixture(scope="session")
def dbt_project(request: pytest.FixtureRequest, spark_thrift: SparkThrift) -> Iterator[DbtProject]:
    """The integration_tests dbt project, run in-process against ``spark_thrift``."""
    root = find_repo_root(Path(str(request.config.rootpath)))
    project = DbtProject(repo_root=root, thrift=spark_thrift)
    if not project.project_dir.is_dir():
        raise pytest.UsageError(f"{project.project_dir} does not exist")
    try:
        yield project
    finally:
        project.close()


@pytest.fixture(scope="session")
def inputs_built(dbt_project: DbtProject) -> DbtProject:
    """The input seeds and tables (``tag:inputs``) built once for the whole session:
    one build for every test tree of the session (the helpers' tests on the integration
    inputs and the integration tests), instead of one per tree or per test.

    With ``SKEWJOIN_INPUTS_BUILT=1`` the runner has built them on this server already
    (``scripts/test.sh`` does, once, for the pytest sessions it runs side by side: two
    sessions rebuilding the same tables at once would pull their files away from each
    other's queries)."""
    if os.environ.get(INPUTS_BUILT_ENV) != "1":
        dbt_project.run(["build", "--threads", "4", "--select", "tag:inputs", "--indirect-selection", "cautious"])
    return dbt_project

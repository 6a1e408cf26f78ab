"""Where Spark SQL runs: a local PySpark session, or a Spark Thrift Server through PyHive.

Both backends have one small interface, :class:`SparkBackend`: run a statement
and get its rows as tuples (optionally tagged with a marker that Spark keeps in
its event log), read and change a session setting, report progress, close.
A statement Spark rejects raises :class:`~skewjoin.errors.SparkSqlError` with
Spark's message; a backend that cannot start raises
:class:`~skewjoin.errors.SparkStartError` or
:class:`~skewjoin.errors.SparkConnectError`.

- :class:`LocalSession` starts a Spark application of its own in this process:
  Derby and the log4j configuration in a scratch directory, Spark's own log at
  ERROR (WARN with ``-vv``: the tools report their progress themselves), and a
  plain message with the Java hint when the JVM does not start.
- :class:`ThriftConnection` talks to a running Spark Thrift Server
  (:func:`connect` and :func:`run_sql` are the plain PyHive functions under it,
  used by the Thrift server lifecycle and the pytest fixtures too).
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from skewjoin.errors import OptionError, SparkConnectError, SparkSqlError, SparkStartError, first_lines

if TYPE_CHECKING:
    from pyhive.hive import Connection
    from pyspark.sql import SparkSession

logger = logging.getLogger(__name__)

Row = tuple[Any, ...]

JAVA_HINT = "(Java 17 is required: apt-get install -y openjdk-17-jre-headless)"
SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions"

__all__ = [
    "JAVA_HINT",
    "LocalSession",
    "Row",
    "SparkBackend",
    "SparkSqlError",
    "ThriftConnection",
    "connect",
    "driver_java_options",
    "first_lines",
    "parse_conf",
    "run_sql",
    "shuffle_partitions",
    "start_session",
]


class SparkBackend(Protocol):
    """Runs Spark SQL; :class:`LocalSession` and :class:`ThriftConnection` implement it."""

    #: ``"local"`` or ``"thrift"``
    kind: str
    #: what a message names it, e.g. ``local Spark (local[2])``
    description: str

    def sql(self, text: str, *, marker: str | None = None, label: str = "") -> list[Row]:
        """Run one statement; its rows as tuples (``[]`` for none).

        *marker* tags the statement's jobs so Spark's event log can tell them
        apart (the job group of a local session; a leading comment on a Thrift
        server, which makes the statement text the job description).
        """
        ...

    def get_conf(self, key: str) -> str | None:
        """A session setting, None when unset."""
        ...

    def set_conf(self, key: str, value: str | None) -> None:
        """Set a session setting; None puts back its default."""
        ...

    def progress(self) -> str:
        """What runs right now (``stage 3: 5/8 tasks``), '' when unknown."""
        ...

    def close(self) -> None: ...


def shuffle_partitions(backend: SparkBackend) -> int | None:
    """The backend's ``spark.sql.shuffle.partitions``, None when not a whole number."""
    value = (backend.get_conf(SHUFFLE_PARTITIONS) or "").strip()
    return int(value) if value.isdigit() else None


# -- a local session ---------------------------------------------------------------------


def driver_java_options(scratch: Path) -> str:
    """JVM options that keep Derby's files and Spark's log configuration in *scratch*."""
    level = "warn" if logging.getLogger("skewjoin").getEffectiveLevel() <= logging.DEBUG else "error"
    config = scratch / "log4j2.properties"
    config.write_text(
        f"rootLogger.level = {level}\n"
        "rootLogger.appenderRef.stderr.ref = console\n"
        "appender.console.type = Console\n"
        "appender.console.name = console\n"
        "appender.console.target = SYSTEM_ERR\n"
        "appender.console.layout.type = PatternLayout\n"
        "appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex\n"
    )
    return f"-Dderby.system.home={scratch} -Dlog4j2.configurationFile={config}"


#: where local Spark sessions listen: this machine only
LOOPBACK = "127.0.0.1"


def start_session(settings: Mapping[str, str], app_name: str | None = None) -> SparkSession:
    """A SparkSession with *settings*; :class:`SparkStartError` (the JVM's first lines
    and the Java hint) when it does not start."""
    from pyspark.sql import SparkSession

    # the JVM PySpark launches picks its address before any setting is read: loopback, unless set otherwise
    os.environ.setdefault("SPARK_LOCAL_IP", LOOPBACK)
    builder = SparkSession.builder
    if app_name:
        builder = builder.appName(app_name)
    for key, value in settings.items():
        builder = builder.config(key, value)
    try:
        spark = builder.getOrCreate()
    except Exception as exc:  # PySpark raises several kinds when the JVM does not start
        raise SparkStartError(f"could not start a local Spark: {first_lines(str(exc), 2)} {JAVA_HINT}") from exc
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def _quiet_pyspark_error_log() -> None:
    """PySpark logs every failed SQL statement as a JSON stack trace; the backend reports it itself."""
    try:
        from pyspark.logger import PySparkLogger

        for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
            PySparkLogger.getLogger(name).setLevel(logging.CRITICAL)
    except ImportError:  # PySpark < 4
        pass


class LocalSession:
    """A Spark application of its own in this process (PySpark); :meth:`close` stops it.

    *settings* are Spark settings on top of :meth:`defaults`;
    ``spark.driver.extraJavaOptions`` defaults to :func:`driver_java_options`
    of a scratch directory that :meth:`close` removes. Refuses to start when
    this process already runs a Spark session: ``getOrCreate`` would hand that
    one over, with its settings, and :meth:`close` would stop it.
    """

    kind = "local"

    @staticmethod
    def defaults(scratch: Path) -> dict[str, str]:
        """What *settings* override: two cores, no UI, an in-memory catalog, the warehouse in *scratch*,
        the driver on the loopback address only (not reachable from the network)."""
        return {
            "spark.master": "local[2]",
            "spark.driver.bindAddress": LOOPBACK,
            "spark.driver.host": LOOPBACK,
            "spark.ui.enabled": "false",
            "spark.ui.showConsoleProgress": "false",
            "spark.sql.catalogImplementation": "in-memory",
            "spark.sql.warehouse.dir": str(scratch / "warehouse"),
        }

    def __init__(self, settings: Mapping[str, str], app_name: str = "skewjoin", scratch_prefix: str = "skewjoin-"):
        from pyspark.sql import SparkSession

        if SparkSession.getActiveSession() is not None:
            raise SparkStartError(
                "a Spark session is already running in this process; skewjoin needs a Spark application of its own"
            )
        self._scratch = tempfile.TemporaryDirectory(prefix=scratch_prefix)
        self.scratch = Path(self._scratch.name)
        self.settings = {**self.defaults(self.scratch), **settings}
        self.settings.setdefault("spark.driver.extraJavaOptions", driver_java_options(self.scratch))
        self.description = f"local Spark ({self.settings['spark.master']})"
        try:
            self.spark: SparkSession = start_session(self.settings, app_name=app_name)
        except SparkStartError:
            self._scratch.cleanup()
            raise
        _quiet_pyspark_error_log()
        self._closed = False

    def sql(self, text: str, *, marker: str | None = None, label: str = "") -> list[Row]:
        from pyspark.errors import PySparkException

        logger.debug("sql: %s", text)
        context = self.spark.sparkContext
        if marker is not None:
            context.setJobGroup(marker, f"{marker} {label}".strip())
        try:
            return [tuple(row) for row in self.spark.sql(text).collect()]
        except PySparkException as exc:
            raise SparkSqlError(str(exc), text) from exc
        finally:
            if marker is not None:
                context.setLocalProperty("spark.jobGroup.id", None)  # type: ignore[arg-type]
                context.setLocalProperty("spark.job.description", None)  # type: ignore[arg-type]

    def get_conf(self, key: str) -> str | None:
        value = self.spark.conf.get(key, None)
        return None if value is None else str(value)

    def set_conf(self, key: str, value: str | None) -> None:
        if value is None:
            self.spark.conf.unset(key)
        else:
            self.spark.conf.set(key, value)

    def progress(self) -> str:
        tracker = self.spark.sparkContext.statusTracker()
        parts = []
        for stage_id in sorted(tracker.getActiveStageIds()):
            info = tracker.getStageInfo(stage_id)
            if info is not None:
                parts.append(f"stage {stage_id}: {info.numCompletedTasks}/{info.numTasks} tasks")
        return ", ".join(parts)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.spark.stop()
        finally:
            self._scratch.cleanup()


# -- a Spark Thrift Server ---------------------------------------------------------------


def connect(host: str, port: int, **kwargs: Any) -> Connection:
    """A PyHive connection to a HiveServer2/Spark Thrift Server (no auth, as started here).

    Extra keyword arguments go to :func:`pyhive.hive.connect` (``username``,
    ``auth``, ``configuration``, ...).
    """
    from pyhive import hive

    logger.debug("connecting to %s:%s", host, port)
    return hive.connect(host=host, port=int(port), **kwargs)


def _spark_message(exc: Exception) -> str:
    """Spark's own error text from a PyHive error (which wraps a whole Thrift response)."""
    response = exc.args[0] if exc.args else None
    status = getattr(response, "status", None)
    message = getattr(status, "errorMessage", None)
    return str(message) if message else str(exc)


def run_sql(conn: Connection, sql: str) -> list[Row]:
    """Execute one statement on a PyHive connection; its rows as tuples, or ``[]`` when it returns none.

    Raises :class:`~skewjoin.errors.SparkSqlError` with Spark's message when the statement fails.
    """
    from pyhive.exc import OperationalError

    cursor = conn.cursor()
    try:
        logger.debug("sql: %s", sql)
        try:
            cursor.execute(sql)
            if cursor.description is None:
                return []
            return [tuple(row) for row in cursor.fetchall()]
        except OperationalError as exc:
            raise SparkSqlError(_spark_message(exc), sql) from exc
    finally:
        cursor.close()


class ThriftConnection:
    """A running Spark Thrift Server reached through PyHive (one connection, one Spark session)."""

    kind = "thrift"

    def __init__(self, host: str, port: int, **kwargs: Any) -> None:
        self.host, self.port = host, int(port)
        self.description = f"Spark Thrift Server {host}:{port}"
        try:
            self.conn = connect(host, self.port, **kwargs)
        except Exception as exc:  # PyHive raises thrift transport errors of several kinds
            raise SparkConnectError(
                f"cannot connect to the Spark Thrift Server on {host}:{port}: {first_lines(str(exc), 1)}; "
                "is a Spark Thrift Server running there (e.g. `$SPARK_HOME/sbin/start-thriftserver.sh`)?"
            ) from exc

    def sql(self, text: str, *, marker: str | None = None, label: str = "") -> list[Row]:
        if marker is not None:
            # the server makes the statement text the job description: the marker leads it
            text = f"/* {f'{marker} {label}'.strip()} */\n{text}"
        return run_sql(self.conn, text)

    def get_conf(self, key: str) -> str | None:
        rows = self.sql(f"set {key}")
        value = str(rows[0][1]) if rows and len(rows[0]) > 1 and rows[0][1] is not None else None
        return None if value in (None, "<undefined>") else value

    def set_conf(self, key: str, value: str | None) -> None:
        self.sql(f"reset {key}" if value is None else f"set {key}={value}")

    def progress(self) -> str:
        return ""

    def close(self) -> None:
        self.conn.close()


# -- settings ----------------------------------------------------------------------------


def parse_conf(items: Iterable[str]) -> dict[str, str]:
    """Spark settings from ``KEY=VALUE`` strings (the value may hold ``=``; the last of a key wins).

    Raises :class:`~skewjoin.errors.OptionError` (a ValueError) naming the first item that is not ``KEY=VALUE``.
    """
    conf: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"expected KEY=VALUE, got {item!r}")
        conf[key.strip()] = value
    return conf

"""Where the benchmark's SQL runs: one local Spark application, or a Spark Thrift Server.

Both backends run plain SQL, change session settings between scenarios and
tag each measured query with a marker that the event log keeps:

- :class:`LocalBackend` starts its own PySpark session (event log on,
  uncompressed, not rolling, in the run directory) and tags a query by
  setting the job group (``spark.jobGroup.id``) to the marker.
- :class:`ThriftBackend` talks to a running Spark Thrift Server through
  PyHive; the server sets the job description to the statement text, so the
  statement starts with the marker as a comment. Its event log is read only
  when the caller says where the server writes it (``--event-log DIR``).
"""

from __future__ import annotations

import logging
import os
import platform
import tempfile
from pathlib import Path
from typing import Any, Protocol

from skewjoin.local_spark import driver_java_options, first_lines, start_session

logger = logging.getLogger(__name__)

Row = tuple[Any, ...]


class BenchError(RuntimeError):
    """The benchmark cannot go on; the message says why and what to do."""


class Backend(Protocol):
    description: str
    kind: str

    def sql(self, text: str) -> list[Row]: ...

    def set_conf(self, key: str, value: str | None) -> None:
        """Set a session setting; None puts back its default."""

    def run_marked(self, text: str, marker: str, label: str) -> list[Row]: ...

    def app_id(self) -> str | None: ...

    def spark_version(self) -> str: ...

    def event_log_dir(self) -> Path | None: ...

    def close(self) -> None: ...


# -- local ------------------------------------------------------------------------------


def local_settings(
    run_dir: Path,
    *,
    master: str,
    driver_memory: str,
    shuffle_partitions: int,
    cluster_cores: int,
    read: str = "splits",
    extra: dict[str, str] | None = None,
) -> dict[str, str]:
    """The Spark settings of the benchmark's local application.

    *read* ``"splits"`` models a cluster: ``spark.default.parallelism`` is
    *cluster_cores* (AQE coalesces toward it; the hot-keys spread weighs the
    input splits against it) and every input file is one split
    (``maxPartitionBytes`` = ``openCostInBytes`` = 1 GiB: Spark packs no two
    files into one split and cuts no file), so a fact of N files is read by N
    tasks as a cluster reads a large table. ``"local"`` keeps local Spark's
    own defaults (parallelism = the machine's cores; small files packed into
    about one split a core): what a user on this machine gets.
    """
    settings = {
        "spark.master": master,
        "spark.app.name": "skewjoin bench",
        "spark.driver.memory": driver_memory,
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.catalogImplementation": "in-memory",
        "spark.sql.warehouse.dir": str(run_dir / "warehouse"),
        "spark.eventLog.enabled": "true",
        "spark.eventLog.dir": str(run_dir / "eventlog"),
        "spark.eventLog.compress": "false",
        "spark.eventLog.rolling.enabled": "false",
        "spark.sql.shuffle.partitions": str(shuffle_partitions),
    }
    if read == "splits":
        # AQE coalesces shuffle partitions down to the cluster's default parallelism
        # (parallelismFirst); model a cluster of `cluster_cores` cores, not local[2]
        settings["spark.default.parallelism"] = str(cluster_cores)
        settings["spark.sql.files.maxPartitionBytes"] = str(1 << 30)
        settings["spark.sql.files.openCostInBytes"] = str(1 << 30)
    elif read != "local":
        raise ValueError(f"read is 'splits' or 'local', got {read!r}")
    settings.update(extra or {})
    return settings


class LocalBackend:
    """A local Spark application of its own (PySpark), with its event log in *run_dir*/eventlog."""

    kind = "local"

    def __init__(self, run_dir: Path, settings: dict[str, str]) -> None:
        from pyspark.sql import SparkSession

        if SparkSession.getActiveSession() is not None:
            raise BenchError(
                "a Spark session is already running in this process; the benchmark needs its own "
                "application (its event log and settings)"
            )
        self.run_dir = run_dir
        self.settings = dict(settings)
        (run_dir / "eventlog").mkdir(parents=True, exist_ok=True)
        self._scratch = tempfile.TemporaryDirectory(prefix="skewjoin-bench-")
        self.settings.setdefault("spark.driver.extraJavaOptions", driver_java_options(Path(self._scratch.name)))
        self.description = f"local Spark ({self.settings.get('spark.master')})"
        try:
            self.spark = start_session(self.settings, BenchError)
        except BenchError:
            self._scratch.cleanup()
            raise
        conf = self.spark.sparkContext.getConf()
        if conf.get("spark.eventLog.enabled") != "true":
            raise BenchError("the Spark session has no event log (spark.eventLog.enabled is not true)")
        self._closed = False


    def sql(self, text: str) -> list[Row]:
        from pyspark.errors import PySparkException

        logger.debug("sql: %s", text)
        try:
            return [tuple(row) for row in self.spark.sql(text).collect()]
        except PySparkException as exc:
            raise BenchError(f"Spark refused a query: {first_lines(str(exc))}\n-- sql:\n{text[:2000]}") from exc

    def set_conf(self, key: str, value: str | None) -> None:
        if value is None:
            self.spark.conf.unset(key)
        else:
            self.spark.conf.set(key, value)

    def run_marked(self, text: str, marker: str, label: str) -> list[Row]:
        sc = self.spark.sparkContext
        sc.setJobGroup(marker, f"{marker} {label}")
        try:
            return self.sql(text)
        finally:
            sc.setLocalProperty("spark.jobGroup.id", None)  # type: ignore[arg-type]
            sc.setLocalProperty("spark.job.description", None)  # type: ignore[arg-type]

    def app_id(self) -> str | None:
        return str(self.spark.sparkContext.applicationId)

    def spark_version(self) -> str:
        return str(self.spark.version)

    def event_log_dir(self) -> Path | None:
        return self.run_dir / "eventlog"

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self.spark.stop()
        finally:
            self._scratch.cleanup()


# -- Thrift -----------------------------------------------------------------------------


class ThriftBackend:
    """A running Spark Thrift Server (PyHive); *event_log* is where that server writes its event log."""

    kind = "thrift"

    def __init__(self, address: str, event_log: Path | None = None) -> None:
        from skewjoin.sql import connect

        host, sep, port = address.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise BenchError(f"--thrift expects HOST:PORT, e.g. 127.0.0.1:10000; got {address!r}")
        self.host, self.port = host, int(port)
        self.description = f"Spark Thrift Server {host}:{port}"
        self._event_log = event_log
        try:
            self.conn = connect(host, int(port))
        except Exception as exc:  # thrift transport errors of several kinds
            raise BenchError(
                f"cannot connect to the Spark Thrift Server on {host}:{port}: {first_lines(str(exc), 1)}; "
                "start one with `skewjoin spark-thrift start`"
            ) from exc

    def sql(self, text: str) -> list[Row]:
        from skewjoin.sql import SparkSqlError, run_sql

        try:
            return run_sql(self.conn, text)
        except SparkSqlError as exc:
            raise BenchError(
                f"Spark refused a query: {first_lines(exc.spark_message)}\n-- sql:\n{text[:2000]}"
            ) from exc

    def set_conf(self, key: str, value: str | None) -> None:
        if value is None:
            self.sql(f"reset {key}")
        else:
            self.sql(f"set {key}={value}")

    def run_marked(self, text: str, marker: str, label: str) -> list[Row]:
        # the server makes the statement text the job description: the marker leads it
        return self.sql(f"/* {marker} {label} */\n{text}")

    def _setting(self, key: str) -> str | None:
        rows = self.sql(f"set {key}")
        value = str(rows[0][1]) if rows and len(rows[0]) > 1 else None
        return None if value in (None, "<undefined>") else value

    def app_id(self) -> str | None:
        return self._setting("spark.app.id")

    def spark_version(self) -> str:
        rows = self.sql("select version()")
        return str(rows[0][0]).split()[0] if rows else "?"

    def event_log_dir(self) -> Path | None:
        return self._event_log

    def close(self) -> None:
        self.conn.close()


def machine() -> dict[str, Any]:
    """What ran the benchmark: cores, memory, OS, Python (the driver's machine for --thrift)."""
    memory_gb: float | None = None
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        page_size = os.sysconf("SC_PAGE_SIZE")
        memory_gb = round(pages * page_size / 2**30, 1)
    except (ValueError, OSError, AttributeError):
        pass
    return {
        "cores": os.cpu_count(),
        "memory_gb": memory_gb,
        "os": f"{platform.system()} {platform.release()}",
        "cpu": platform.processor() or platform.machine(),
        "python": platform.python_version(),
    }

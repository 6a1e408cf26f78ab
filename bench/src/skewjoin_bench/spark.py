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

Both are backends of :mod:`skewjoin.spark_backend` (a
:class:`~skewjoin.spark_backend.LocalSession`, a
:class:`~skewjoin.spark_backend.ThriftConnection`) that also say where their
event log is; a statement Spark rejects raises
:class:`~skewjoin.errors.SparkSqlError`.
"""

from __future__ import annotations

import logging
import os
import platform
from pathlib import Path
from typing import Any, Protocol

from skewjoin.errors import SkewjoinError
from skewjoin.spark_backend import LocalSession, SparkBackend, ThriftConnection

logger = logging.getLogger(__name__)


class BenchError(SkewjoinError):
    """The benchmark cannot go on; the message says why and what to do."""


class Backend(SparkBackend, Protocol):
    def event_log_dir(self) -> Path | None:
        """Where this backend's Spark writes its event log, None when unknown."""
        ...


def spark_version(backend: SparkBackend) -> str:
    """The version of the Spark that runs the queries, e.g. ``4.0.1``."""
    rows = backend.sql("select version()")
    return str(rows[0][0]).split()[0] if rows else "?"


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

    The cluster model also writes shuffles with the sort-based writer (one
    file per map task) rather than the bypass writer (one file per map task
    and reduce partition, concatenated): 64 map tasks x 200 partitions are
    12,800 files a shuffle, whose creation on this machine's filesystem cost
    about 30 ms a map task, a cost a cluster's local disks do not have and
    which is the same for every plan (the inner-join scenario at 1,000,000
    rows: 102 s -> 58 s of measured runs, dbt compile 47 s -> 29 s).
    Partitioning, and so every plan and result, is unchanged.
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
        settings["spark.shuffle.sort.bypassMergeThreshold"] = "0"
    elif read != "local":
        raise ValueError(f"read is 'splits' or 'local', got {read!r}")
    settings.update(extra or {})
    return settings


class LocalBackend(LocalSession):
    """A local Spark application of its own (PySpark), with its event log in *run_dir*/eventlog."""

    def __init__(self, run_dir: Path, settings: dict[str, str]) -> None:
        self.run_dir = run_dir
        (run_dir / "eventlog").mkdir(parents=True, exist_ok=True)
        super().__init__(settings, app_name="skewjoin bench", scratch_prefix="skewjoin-bench-")
        if self.spark.sparkContext.getConf().get("spark.eventLog.enabled") != "true":
            self.close()
            raise BenchError("the Spark session has no event log (spark.eventLog.enabled is not true)")

    def event_log_dir(self) -> Path | None:
        return self.run_dir / "eventlog"


# -- Thrift -----------------------------------------------------------------------------


class ThriftBackend(ThriftConnection):
    """A running Spark Thrift Server (PyHive); *event_log* is where that server writes its event log."""

    def __init__(self, host: str, port: int, event_log: Path | None = None) -> None:
        super().__init__(host, port)
        self._event_log = event_log

    def event_log_dir(self) -> Path | None:
        return self._event_log


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

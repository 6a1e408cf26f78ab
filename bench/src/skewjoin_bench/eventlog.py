"""Read Spark's event log (JSON lines) and measure one benchmark run in it.

Spark writes the log when ``spark.eventLog.enabled=true``; the benchmark
needs it uncompressed and in one file (``spark.eventLog.compress=false``,
``spark.eventLog.rolling.enabled=false``; Spark 4 rolls and compresses by
default). Events used:

- ``SparkListenerJobStart``: the job's stages (with their parents) and its
  properties. A run is found by its marker in ``spark.jobGroup.id`` or
  ``spark.job.description`` (a local run sets the job group; over a Thrift
  server the statement text, which starts with the marker, becomes the
  description). ``spark.sql.execution.id`` links the job to its SQL plan.
- ``SparkListenerTaskEnd``: launch and finish times, the task metrics
  (shuffle read/write bytes and records, spill, input) and the SQL metric
  updates (``Accumulables``).
- ``SparkListenerJobEnd``, ``SparkListenerStageCompleted``.
- ``SparkListenerSQLExecutionStart`` / ``SparkListenerSQLAdaptiveExecutionUpdate``
  (the physical plan; with AQE, the last update is the final plan) and
  ``SparkListenerDriverAccumUpdates``: which exchange shuffled which rows.

:meth:`EventLog.run` turns the events of one run into :class:`RunMetrics`.
"""

from __future__ import annotations

import json
import logging
import re
import statistics
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skewjoin_bench.schedule import Order, StageTasks, makespans

logger = logging.getLogger(__name__)

DEFAULT_SLOTS: tuple[int, ...] = (2, 16, 64, 256)

_SQL_EVENT = "org.apache.spark.sql.execution.ui."


class EventLogError(RuntimeError):
    """The event log is missing, unreadable, or holds nothing for a run."""


@dataclass
class TaskRecord:
    stage_id: int
    stage_attempt: int
    task_id: int
    index: int
    launch_ms: int
    finish_ms: int
    successful: bool
    run_ms: int = 0
    cpu_ns: int = 0
    shuffle_read_bytes: int = 0
    shuffle_read_records: int = 0
    shuffle_write_bytes: int = 0
    shuffle_write_records: int = 0
    memory_spilled: int = 0
    disk_spilled: int = 0
    input_bytes: int = 0
    input_records: int = 0

    @property
    def duration_s(self) -> float:
        return max(self.finish_ms - self.launch_ms, 0) / 1000.0


@dataclass
class StageInfo:
    stage_id: int
    name: str = ""
    num_tasks: int = 0
    parent_ids: tuple[int, ...] = ()
    tasks: list[TaskRecord] = field(default_factory=list)
    completed: bool = False


@dataclass
class JobRecord:
    job_id: int
    submission_ms: int
    stage_ids: tuple[int, ...]
    properties: dict[str, str]
    end_ms: int | None = None
    succeeded: bool | None = None

    @property
    def group(self) -> str:
        return self.properties.get("spark.jobGroup.id") or ""

    @property
    def description(self) -> str:
        return self.properties.get("spark.job.description") or ""

    @property
    def execution_id(self) -> int | None:
        value = self.properties.get("spark.sql.execution.id")
        return int(value) if value is not None and str(value).lstrip("-").isdigit() else None

    def matches(self, marker: str) -> bool:
        return marker in self.group or marker in self.description


@dataclass
class PlanNode:
    name: str
    text: str
    metrics: dict[str, int]
    children: list[PlanNode]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlanNode:
        metrics: dict[str, int] = {}
        for m in data.get("metrics") or []:
            metrics.setdefault(str(m.get("name")), int(m.get("accumulatorId")))
        return cls(
            name=str(data.get("nodeName", "")),
            text=str(data.get("simpleString", "")),
            metrics=metrics,
            children=[cls.from_json(c) for c in data.get("children") or []],
        )

    def walk(self) -> Iterator[PlanNode]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass
class Execution:
    execution_id: int
    description: str = ""
    plan: PlanNode | None = None


@dataclass
class ExchangeStats:
    """One shuffle exchange of a run's final physical plan."""

    partitioning: str  # hash | roundrobin | range | single | other
    text: str
    records: int | None
    bytes: int | None
    tables: list[str]  # tables scanned below it (before any other exchange)

    def as_dict(self) -> dict[str, Any]:
        return {
            "partitioning": self.partitioning,
            "text": self.text,
            "records": self.records,
            "bytes": self.bytes,
            "tables": self.tables,
        }


@dataclass
class BroadcastStats:
    """One broadcast exchange: the rows and bytes of the relation every task holds in memory."""

    rows: int | None
    bytes: int | None
    tables: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "bytes": self.bytes, "tables": self.tables}


@dataclass
class ScanStats:
    table: str
    rows: int | None
    files: int | None
    partitions: int | None

    def as_dict(self) -> dict[str, Any]:
        return {"table": self.table, "rows": self.rows, "files": self.files, "partitions": self.partitions}


@dataclass
class StageSummary:
    stage_id: int
    name: str
    tasks: int
    total_s: float
    max_s: float
    median_s: float
    shuffle_read_bytes: int
    shuffle_write_bytes: int
    shuffle_write_records: int
    spill_bytes: int
    input_records: int
    parents: list[int]

    @property
    def max_over_median(self) -> float:
        return max_over_median(self.max_s, self.median_s)

    def as_dict(self) -> dict[str, Any]:
        return {
            "stage_id": self.stage_id,
            "name": self.name,
            "tasks": self.tasks,
            "total_s": round(self.total_s, 3),
            "max_s": round(self.max_s, 3),
            "median_s": round(self.median_s, 4),
            "max_over_median": _round(self.max_over_median, 2),
            "shuffle_read_bytes": self.shuffle_read_bytes,
            "shuffle_write_bytes": self.shuffle_write_bytes,
            "shuffle_write_records": self.shuffle_write_records,
            "spill_bytes": self.spill_bytes,
            "input_records": self.input_records,
            "parents": self.parents,
        }


def max_over_median(longest: float, median: float) -> float:
    """A stage's balance: its longest task over its median one (inf when the median took no time)."""
    return longest / median if median > 0 else float("inf") if longest > 0 else 1.0


def _round(value: float, digits: int) -> float | None:
    return None if value != value or value in (float("inf"), float("-inf")) else round(value, digits)


def _round_or_none(value: float | None) -> float | None:
    return None if value is None else _round(value, 2)


@dataclass
class RunMetrics:
    """What the event log says about one run (one marked query)."""

    marker: str
    jobs: int
    span_s: float
    tasks: int
    failed_tasks: int
    total_task_s: float
    cpu_s: float
    shuffle_write_bytes: int
    shuffle_read_bytes: int
    shuffle_write_records: int
    memory_spilled: int
    disk_spilled: int
    input_bytes: int
    input_records: int
    stages: list[StageSummary]
    join_stage: StageSummary | None
    join_stage_durations: list[float]
    makespan_s: dict[int, float]
    schedule_order: str
    exchanges: list[ExchangeStats]
    scans: list[ScanStats]
    broadcasts: list[BroadcastStats] = field(default_factory=list)
    #: join nodes of the final (adaptive) plan that AQE split as skewed (``SortMergeJoin(skew=true)``)
    skew_split_joins: int = 0
    #: tasks of the join stage that scan input (a union's broadcast branch), left out of the balance
    join_scan_tasks: int = 0
    #: shuffle rows read by the join's tasks, in the order of ``join_stage_durations`` (longest task first)
    join_stage_rows: list[int] = field(default_factory=list)

    @property
    def join_median_s(self) -> float | None:
        """The median task of the join, over ``join_stage_durations`` (not a union's scanning tasks)."""
        return statistics.median(self.join_stage_durations) if self.join_stage_durations else None

    @property
    def join_max_over_median(self) -> float | None:
        """The join's balance: its longest task over its median one, over the tasks that
        read shuffle blocks (``join_stage_durations``), not a union's scanning tasks."""
        median = self.join_median_s
        return None if median is None else max_over_median(self.join_stage_durations[0], median)

    @property
    def join_median_rows(self) -> float | None:
        """The shuffle rows the join's median task read, over ``join_stage_rows``."""
        return statistics.median(self.join_stage_rows) if self.join_stage_rows else None

    @property
    def join_rows_max_over_median(self) -> float | None:
        """The join's balance in rows: the most shuffle rows a task read over the median task's.
        Deterministic where task times on a few shared cores are not."""
        median = self.join_median_rows
        return None if median is None else max_over_median(max(self.join_stage_rows), median)

    @property
    def join_longest_rows_over_median(self) -> float | None:
        """The rows the longest join task read over the median task's: near 1, the longest
        task is long for a reason other than its rows."""
        median = self.join_median_rows
        return None if median is None else max_over_median(self.join_stage_rows[0], median)

    @property
    def spill_bytes(self) -> int:
        return self.memory_spilled + self.disk_spilled

    def hash_shuffled_records(self, table: str) -> int | None:
        """Rows of *table* that went through a hash-partitioning exchange (None: unknown)."""
        found = [e for e in self.exchanges if e.partitioning == "hash" and _table_matches(table, e.tables)]
        if not self.exchanges:
            return None
        if any(e.records is None for e in found):
            return None
        return sum(e.records or 0 for e in found)

    def scanned(self, table: str) -> list[ScanStats]:
        return [s for s in self.scans if _table_matches(table, [s.table])]

    def as_dict(self) -> dict[str, Any]:
        return {
            "marker": self.marker,
            "jobs": self.jobs,
            "span_s": round(self.span_s, 3),
            "tasks": self.tasks,
            "failed_tasks": self.failed_tasks,
            "total_task_s": round(self.total_task_s, 3),
            "cpu_s": round(self.cpu_s, 3),
            "shuffle_write_bytes": self.shuffle_write_bytes,
            "shuffle_read_bytes": self.shuffle_read_bytes,
            "shuffle_write_records": self.shuffle_write_records,
            "memory_spilled": self.memory_spilled,
            "disk_spilled": self.disk_spilled,
            "input_bytes": self.input_bytes,
            "input_records": self.input_records,
            "join_stage": self.join_stage.as_dict() if self.join_stage else None,
            "join_stage_durations_s": [round(d, 4) for d in self.join_stage_durations],
            "join_scan_tasks": self.join_scan_tasks,
            "join_max_over_median": _round_or_none(self.join_max_over_median),
            "join_stage_rows": self.join_stage_rows,
            "join_rows_max_over_median": _round_or_none(self.join_rows_max_over_median),
            "join_longest_rows_over_median": _round_or_none(self.join_longest_rows_over_median),
            "makespan_s": {str(p): round(v, 3) for p, v in self.makespan_s.items()},
            "schedule_order": self.schedule_order,
            "stages": [s.as_dict() for s in self.stages],
            "exchanges": [e.as_dict() for e in self.exchanges],
            "scans": [s.as_dict() for s in self.scans],
            "broadcasts": [b.as_dict() for b in self.broadcasts],
            "skew_split_joins": self.skew_split_joins,
        }


def _table_matches(table: str, tables: Iterable[str]) -> bool:
    wanted = table.lower().replace("`", "")
    return any(t == wanted or t.endswith("." + wanted) for t in (x.lower().replace("`", "") for x in tables))


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        try:
            return int(float(value))
        except (TypeError, ValueError):
            return 0


def _partitioning(text: str) -> str:
    t = text.lower()
    if "hashpartitioning" in t:
        return "hash"
    if "roundrobinpartitioning" in t:
        return "roundrobin"
    if "rangepartitioning" in t:
        return "range"
    if "singlepartition" in t:
        return "single"
    return "other"


_SCAN = re.compile(r"^Scan \S+ (.+)$")


class EventLog:
    """The parsed events of one Spark application (or a part of its log)."""

    def __init__(self) -> None:
        self.jobs: dict[int, JobRecord] = {}
        self.stages: dict[int, StageInfo] = {}
        self.executions: dict[int, Execution] = {}
        self.accumulators: dict[int, int] = {}
        self.events = 0
        self.bad_lines = 0

    # -- reading ------------------------------------------------------------------------

    @classmethod
    def read(cls, path: Path) -> EventLog:
        """Parse an event log file (a trailing partial line, as in a log still being written, is skipped)."""
        log = cls()
        try:
            with open(path, encoding="utf-8") as handle:
                for line in handle:
                    line = line.strip()
                    if not line:
                        continue
                    try:
                        event = json.loads(line)
                    except json.JSONDecodeError:
                        log.bad_lines += 1
                        continue
                    log.feed(event)
        except OSError as exc:
            raise EventLogError(f"cannot read the event log {path}: {exc}") from exc
        if log.bad_lines:
            logger.debug("%s: %d unreadable lines skipped", path, log.bad_lines)
        return log

    @classmethod
    def from_events(cls, events: Iterable[dict[str, Any]]) -> EventLog:
        log = cls()
        for event in events:
            log.feed(event)
        return log

    def _stage(self, stage_id: int) -> StageInfo:
        if stage_id not in self.stages:
            self.stages[stage_id] = StageInfo(stage_id)
        return self.stages[stage_id]

    def _stage_info(self, info: dict[str, Any]) -> None:
        stage = self._stage(_int(info.get("Stage ID")))
        stage.name = str(info.get("Stage Name") or stage.name)
        stage.num_tasks = _int(info.get("Number of Tasks")) or stage.num_tasks
        parents = info.get("Parent IDs")
        if parents is not None:
            stage.parent_ids = tuple(_int(p) for p in parents)

    def feed(self, event: dict[str, Any]) -> None:
        self.events += 1
        kind = str(event.get("Event", ""))
        if kind == "SparkListenerTaskEnd":
            self._task_end(event)
        elif kind == "SparkListenerJobStart":
            for info in event.get("Stage Infos") or []:
                self._stage_info(info)
            job = JobRecord(
                job_id=_int(event.get("Job ID")),
                submission_ms=_int(event.get("Submission Time")),
                stage_ids=tuple(_int(s) for s in event.get("Stage IDs") or []),
                properties={str(k): str(v) for k, v in (event.get("Properties") or {}).items()},
            )
            self.jobs[job.job_id] = job
        elif kind == "SparkListenerJobEnd":
            job_end = self.jobs.get(_int(event.get("Job ID")))
            if job_end is not None:
                job_end.end_ms = _int(event.get("Completion Time"))
                result = event.get("Job Result") or {}
                job_end.succeeded = str(result.get("Result", "")) == "JobSucceeded"
        elif kind in ("SparkListenerStageSubmitted", "SparkListenerStageCompleted"):
            info = event.get("Stage Info") or {}
            self._stage_info(info)
            if kind == "SparkListenerStageCompleted":
                self._stage(_int(info.get("Stage ID"))).completed = True
        elif kind.startswith(_SQL_EVENT):
            self._sql_event(kind[len(_SQL_EVENT) :], event)

    def _task_end(self, event: dict[str, Any]) -> None:
        info = event.get("Task Info") or {}
        metrics = event.get("Task Metrics") or {}
        reason = str((event.get("Task End Reason") or {}).get("Reason", ""))
        successful = reason == "Success" and not info.get("Failed") and not info.get("Killed")
        read = metrics.get("Shuffle Read Metrics") or {}
        write = metrics.get("Shuffle Write Metrics") or {}
        inputs = metrics.get("Input Metrics") or {}
        task = TaskRecord(
            stage_id=_int(event.get("Stage ID")),
            stage_attempt=_int(event.get("Stage Attempt ID")),
            task_id=_int(info.get("Task ID")),
            index=_int(info.get("Index")),
            launch_ms=_int(info.get("Launch Time")),
            finish_ms=_int(info.get("Finish Time")),
            successful=successful,
            run_ms=_int(metrics.get("Executor Run Time")),
            cpu_ns=_int(metrics.get("Executor CPU Time")),
            shuffle_read_bytes=_int(read.get("Remote Bytes Read")) + _int(read.get("Local Bytes Read")),
            shuffle_read_records=_int(read.get("Total Records Read")),
            shuffle_write_bytes=_int(write.get("Shuffle Bytes Written")),
            shuffle_write_records=_int(write.get("Shuffle Records Written")),
            memory_spilled=_int(metrics.get("Memory Bytes Spilled")),
            disk_spilled=_int(metrics.get("Disk Bytes Spilled")),
            input_bytes=_int(inputs.get("Bytes Read")),
            input_records=_int(inputs.get("Records Read")),
        )
        self._stage(task.stage_id).tasks.append(task)
        if successful:
            for acc in info.get("Accumulables") or []:
                if acc.get("Metadata") == "sql" and "Update" in acc:
                    acc_id = _int(acc.get("ID"))
                    self.accumulators[acc_id] = self.accumulators.get(acc_id, 0) + _int(acc.get("Update"))

    def _sql_event(self, kind: str, event: dict[str, Any]) -> None:
        if kind == "SparkListenerDriverAccumUpdates":
            for pair in event.get("accumUpdates") or []:
                if isinstance(pair, (list, tuple)) and len(pair) == 2:
                    acc_id = _int(pair[0])
                    self.accumulators[acc_id] = self.accumulators.get(acc_id, 0) + _int(pair[1])
            return
        if kind not in ("SparkListenerSQLExecutionStart", "SparkListenerSQLAdaptiveExecutionUpdate"):
            return
        execution_id = _int(event.get("executionId"))
        execution = self.executions.setdefault(execution_id, Execution(execution_id))
        if kind == "SparkListenerSQLExecutionStart":
            execution.description = str(event.get("description") or "")
        plan = event.get("sparkPlanInfo")
        if isinstance(plan, dict):
            execution.plan = PlanNode.from_json(plan)

    # -- one run ------------------------------------------------------------------------

    def jobs_for(self, marker: str) -> list[JobRecord]:
        return sorted((j for j in self.jobs.values() if j.matches(marker)), key=lambda j: j.job_id)

    def _ran(self, stage_id: int) -> bool:
        stage = self.stages.get(stage_id)
        return stage is not None and bool(stage.tasks)

    def _ran_parents(self, stage_id: int, seen: set[int] | None = None) -> set[int]:
        """The stages that ran which *stage_id* depends on, looking through skipped stages."""
        seen = set() if seen is None else seen
        out: set[int] = set()
        for parent in self.stages.get(stage_id, StageInfo(stage_id)).parent_ids:
            if parent in seen:
                continue
            seen.add(parent)
            if self._ran(parent):
                out.add(parent)
            else:
                out |= self._ran_parents(parent, seen)
        return out

    def schedule_input(self, jobs: Sequence[JobRecord]) -> list[StageTasks]:
        """The run's stages for :func:`~skewjoin_bench.schedule.makespan`.

        A stage waits for its parent stages (shuffle dependencies, through
        skipped stages) and for every stage of the run's jobs that had
        finished when its own job was submitted: the driver waited for those
        (a broadcast, or AQE materializing a query stage before planning the
        next one).
        """
        first_job: dict[int, JobRecord] = {}
        for job in sorted(jobs, key=lambda j: j.job_id):
            for sid in job.stage_ids:
                if self._ran(sid) and sid not in first_job:
                    first_job[sid] = job
        result = []
        for sid, job in sorted(first_job.items()):
            parents = self._ran_parents(sid)
            for other in jobs:
                if other.end_ms is not None and other.end_ms <= job.submission_ms and other.job_id != job.job_id:
                    parents |= {s for s, j in first_job.items() if j.job_id == other.job_id}
            parents.discard(sid)
            durations = tuple(
                t.duration_s for t in sorted(self.stages[sid].tasks, key=lambda t: (t.launch_ms, t.task_id))
                if t.successful
            )  # fmt: skip
            result.append(StageTasks(sid, durations, frozenset(parents), (job.job_id, sid)))
        return result

    def _final_plans(self, jobs: Sequence[JobRecord]) -> list[PlanNode]:
        ids = sorted({j.execution_id for j in jobs if j.execution_id is not None})
        return [p for p in (self.executions.get(i, Execution(i)).plan for i in ids) if p is not None]

    def _metric(self, node: PlanNode, *names: str) -> int | None:
        for name in names:
            if name in node.metrics:
                return self.accumulators.get(node.metrics[name], 0)
        return None

    def _exchanges_and_scans(
        self, plans: Sequence[PlanNode]
    ) -> tuple[list[ExchangeStats], list[ScanStats], list[BroadcastStats]]:
        exchanges: list[ExchangeStats] = []
        scans: list[ScanStats] = []
        broadcasts: list[BroadcastStats] = []

        def tables_below(node: PlanNode) -> list[str]:
            found: list[str] = []
            for child in node.children:
                if child.name in ("Exchange", "ReusedExchange", "BroadcastExchange"):
                    continue
                m = _SCAN.match(child.name)
                if m:
                    found.append(m.group(1).strip())
                found.extend(tables_below(child))
            return found

        seen_exchanges: set[int] = set()
        seen_scans: set[int] = set()
        seen_broadcasts: set[int] = set()
        for plan in plans:
            for node in plan.walk():
                if node.name == "BroadcastExchange":
                    key = node.metrics.get("data size", id(node))
                    if key not in seen_broadcasts:
                        seen_broadcasts.add(key)
                        broadcasts.append(
                            BroadcastStats(
                                rows=self._metric(node, "number of output rows"),
                                bytes=self._metric(node, "data size"),
                                tables=sorted(set(tables_below(node))),
                            )
                        )
                if node.name == "Exchange":
                    key = node.metrics.get("shuffle records written", id(node))
                    if key in seen_exchanges:
                        continue
                    seen_exchanges.add(key)
                    exchanges.append(
                        ExchangeStats(
                            partitioning=_partitioning(node.text),
                            text=node.text,
                            records=self._metric(node, "shuffle records written"),
                            bytes=self._metric(node, "shuffle bytes written"),
                            tables=sorted(set(tables_below(node))),
                        )
                    )
                m = _SCAN.match(node.name)
                if m:
                    key = node.metrics.get("number of output rows", id(node))
                    if key in seen_scans:
                        continue
                    seen_scans.add(key)
                    scans.append(
                        ScanStats(
                            table=m.group(1).strip(),
                            rows=self._metric(node, "number of output rows"),
                            files=self._metric(node, "number of files read"),
                            partitions=self._metric(node, "number of partitions read"),
                        )
                    )
        return exchanges, scans, broadcasts

    def run(
        self,
        marker: str,
        slots: Sequence[int] = DEFAULT_SLOTS,
        order: Order = "longest-first",
    ) -> RunMetrics:
        """The metrics of the run whose jobs carry *marker* (see the module doc)."""
        jobs = self.jobs_for(marker)
        if not jobs:
            raise EventLogError(f"no job in the event log carries the marker {marker!r}")
        return self.measure(jobs, marker, slots, order)

    def jobs_between(self, start_ms: int, end_ms: int, exclude: str = "skewjoin-bench/") -> list[JobRecord]:
        """The jobs submitted from *start_ms* to *end_ms* (inclusive) whose group and description do not
        contain *exclude*: the queries something else ran in that time, e.g. a model's compile-time queries
        while dbt compiled it (dbt's jobs carry no benchmark marker)."""

        def marked(job: JobRecord) -> bool:
            return bool(exclude) and (exclude in job.group or exclude in job.description)

        found = (j for j in self.jobs.values() if start_ms <= j.submission_ms <= end_ms and not marked(j))
        return sorted(found, key=lambda j: j.job_id)

    def window(
        self,
        start_ms: int,
        end_ms: int,
        label: str,
        slots: Sequence[int] = DEFAULT_SLOTS,
        order: Order = "longest-first",
    ) -> RunMetrics | None:
        """The metrics of the jobs of :meth:`jobs_between` (None when there were none)."""
        jobs = self.jobs_between(start_ms, end_ms)
        return self.measure(jobs, label, slots, order) if jobs else None

    def measure(
        self,
        jobs: Sequence[JobRecord],
        marker: str,
        slots: Sequence[int] = DEFAULT_SLOTS,
        order: Order = "longest-first",
    ) -> RunMetrics:
        """The metrics of *jobs* as one run: the projection schedules them as the driver ran them (a job
        waits for every job that had ended when it was submitted)."""
        stage_ids = sorted({sid for j in jobs for sid in j.stage_ids if self._ran(sid)})
        tasks = [t for sid in stage_ids for t in self.stages[sid].tasks]
        ok = [t for t in tasks if t.successful]
        schedule_input = self.schedule_input(jobs)
        parents_of = {s.stage_id: sorted(s.parents) for s in schedule_input}
        summaries = []
        for sid in stage_ids:
            stage_tasks = [t for t in self.stages[sid].tasks if t.successful]
            durations = [t.duration_s for t in stage_tasks]
            summaries.append(
                StageSummary(
                    stage_id=sid,
                    name=self.stages[sid].name,
                    tasks=len(stage_tasks),
                    total_s=sum(durations),
                    max_s=max(durations, default=0.0),
                    median_s=statistics.median(durations) if durations else 0.0,
                    shuffle_read_bytes=sum(t.shuffle_read_bytes for t in stage_tasks),
                    shuffle_write_bytes=sum(t.shuffle_write_bytes for t in stage_tasks),
                    shuffle_write_records=sum(t.shuffle_write_records for t in stage_tasks),
                    spill_bytes=sum(t.memory_spilled + t.disk_spilled for t in stage_tasks),
                    input_records=sum(t.input_records for t in stage_tasks),
                    parents=parents_of.get(sid, []),
                )
            )
        join = join_stage(summaries)
        join_tasks = [t for t in self.stages[join.stage_id].tasks if t.successful] if join else []
        # A hot-key plan unions its broadcast branch (tasks that scan the fact) with the shuffle join (tasks
        # that read shuffle blocks): one stage, two kinds of task. The balance is the shuffle join's.
        readers = [t for t in join_tasks if t.input_records == 0]
        scan_tasks = len(join_tasks) - len(readers)
        if join and join.shuffle_read_bytes > 0 and readers and scan_tasks:
            join_tasks = readers
        else:
            scan_tasks = 0
        join_tasks = sorted(join_tasks, key=lambda t: t.duration_s, reverse=True)
        join_durations = [t.duration_s for t in join_tasks]
        ends = [j.end_ms for j in jobs if j.end_ms is not None]
        starts = [j.submission_ms for j in jobs]
        span = (max(ends) - min(starts)) / 1000.0 if ends and starts else 0.0
        final_plans = self._final_plans(jobs)
        exchanges, scans, broadcasts = self._exchanges_and_scans(final_plans)
        skew_split = sum(1 for plan in final_plans for node in plan.walk() if "skew=true" in node.name)
        return RunMetrics(
            marker=marker,
            jobs=len(jobs),
            span_s=max(span, 0.0),
            tasks=len(ok),
            failed_tasks=len(tasks) - len(ok),
            total_task_s=sum(t.duration_s for t in tasks),
            cpu_s=sum(t.cpu_ns for t in tasks) / 1e9,
            shuffle_write_bytes=sum(t.shuffle_write_bytes for t in ok),
            shuffle_read_bytes=sum(t.shuffle_read_bytes for t in ok),
            shuffle_write_records=sum(t.shuffle_write_records for t in ok),
            memory_spilled=sum(t.memory_spilled for t in ok),
            disk_spilled=sum(t.disk_spilled for t in ok),
            input_bytes=sum(t.input_bytes for t in ok),
            input_records=sum(t.input_records for t in ok),
            stages=summaries,
            join_stage=join,
            join_stage_durations=join_durations,
            join_scan_tasks=scan_tasks,
            join_stage_rows=[t.shuffle_read_records for t in join_tasks],
            makespan_s=makespans(schedule_input, slots, order),
            schedule_order=order,
            exchanges=exchanges,
            scans=scans,
            broadcasts=broadcasts,
            skew_split_joins=skew_split,
        )


def join_stage(stages: Sequence[StageSummary]) -> StageSummary | None:
    """The join stage of a run: among the stages that read shuffle data, the one with the most task time.

    A shuffle join reads both inputs from a shuffle, and the join's work
    (every output row) dominates the task time of its stage; the other
    shuffle-reading stage of the benchmark's queries, the final aggregate of
    the count and checksum, reads one row per task of the join stage. Ties go
    to the stage with the longer longest task. Without a shuffle-reading stage
    (e.g. a query made only of broadcast joins), the stage with the most task
    time.
    """
    if not stages:
        return None
    readers = [s for s in stages if s.shuffle_read_bytes > 0] or list(stages)
    return max(readers, key=lambda s: (s.total_s, s.max_s, -s.stage_id))


def find_event_log(directory: Path, app_id: str | None = None) -> Path:
    """The event log file of *app_id* in *directory* (the newest file when *app_id* is None).

    Refuses compressed or rolling logs with the settings that avoid them.
    """
    if not directory.is_dir():
        raise EventLogError(f"event log directory {directory} does not exist")
    entries = [p for p in directory.iterdir() if not p.name.startswith(".")]
    if app_id is not None:
        entries = [p for p in entries if p.name.startswith(app_id) or p.name == f"eventlog_v2_{app_id}"]
    if not entries:
        wanted = f" for application {app_id}" if app_id else ""
        raise EventLogError(
            f"no event log{wanted} in {directory}; start Spark with spark.eventLog.enabled=true "
            f"and spark.eventLog.dir={directory}"
        )
    newest = max(entries, key=lambda p: p.stat().st_mtime)
    if newest.is_dir() or newest.name.startswith("eventlog_v2_"):
        raise EventLogError(
            f"{newest} is a rolling event log; set spark.eventLog.rolling.enabled=false (Spark 4 rolls by default)"
        )
    if newest.suffix.lstrip(".") in ("zstd", "lz4", "snappy", "lzf") or newest.name.endswith(
        tuple(f".{c}.inprogress" for c in ("zstd", "lz4", "snappy", "lzf"))
    ):
        raise EventLogError(f"{newest} is compressed; set spark.eventLog.compress=false")
    return newest

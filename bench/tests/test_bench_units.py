"""`skewjoin-bench` without Spark: the makespan model, event-log parsing on a hand-made log,
the skew configs, the settings profiles, the result checks, the targets and the CLI's checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from skewjoin_bench.balance import balance, markdown
from skewjoin_bench.command import bench
from skewjoin_bench.eventlog import EventLog, EventLogError, find_event_log, join_stage
from skewjoin_bench.generator import DatasetSpec, KeyStats, parse_key_stats, statements, zipf_key_sql
from skewjoin_bench.report import Target, targets, to_markdown
from skewjoin_bench.scenarios import (
    BenchConfig,
    BenchResult,
    RunRecord,
    check_results,
    checksum_sql,
    decision_record,
    fact_table,
    kept_hot_keys,
    scaled_aqe_settings,
    scenario_medians,
    scenarios,
    settings_for,
    skew_configs,
)
from skewjoin_bench.schedule import StageTasks, lower_bound, makespan, makespans
from skewjoin_bench.spark import local_settings

# -- the makespan model -------------------------------------------------------------------


def test_one_stage_longest_first_is_lpt() -> None:
    stage = StageTasks(0, (2.0, 5.0, 2.0, 3.0, 2.0, 3.0))
    # LPT on 2 slots: 5 | 3, 3+3 | 5+2, ... -> slots end at 9 and 8
    assert makespan([stage], 2) == 9.0
    assert makespan([stage], 1) == 17.0
    assert makespan([stage], 6) == 5.0
    assert makespan([stage], 256) == 5.0


def test_launch_order_keeps_the_measured_order() -> None:
    stage = StageTasks(0, (1.0, 1.0, 1.0, 1.0, 4.0))
    assert makespan([stage], 2, "launch") == 6.0  # the long task comes last
    assert makespan([stage], 2, "longest-first") == 4.0


def test_stages_wait_for_their_parents_and_fifo_between_ready_stages() -> None:
    a = StageTasks(0, (4.0, 4.0), order=(0, 0))
    c = StageTasks(2, (10.0,), order=(0, 2))
    b = StageTasks(1, (1.0,), frozenset({0}), order=(0, 1))
    # t=0: both slots take a's tasks (a is first in FIFO order); t=4: c (ready since 0) and b (ready at 4)
    assert makespan([a, b, c], 2) == 14.0
    # a chain on many slots: the critical path
    assert makespan([a, b], 64) == 5.0


def test_empty_stages_and_missing_parents_pass_through() -> None:
    first = StageTasks(0, (2.0,))
    empty = StageTasks(1, (), frozenset({0}))
    last = StageTasks(2, (3.0,), frozenset({1, 99}))  # 99 did not run: ignored
    assert makespan([first, empty, last], 4) == 5.0
    assert makespan([], 4) == 0.0


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="cycle"):
        makespan([StageTasks(0, (1.0,), frozenset({1})), StageTasks(1, (1.0,), frozenset({0}))], 2)
    with pytest.raises(ValueError, match="slots"):
        makespan([StageTasks(0, (1.0,))], 0)
    with pytest.raises(ValueError, match="negative"):
        makespan([StageTasks(0, (-1.0,))], 2)
    with pytest.raises(ValueError, match="order"):
        makespan([StageTasks(0, (1.0,))], 2, "random")  # type: ignore[arg-type]


_durations = st.lists(st.floats(min_value=0.0, max_value=50.0, allow_nan=False), min_size=0, max_size=30)


@settings(max_examples=150, deadline=None)
@given(st.lists(_durations, min_size=1, max_size=5), st.sampled_from(["longest-first", "launch"]))
def test_a_chain_of_stages_is_within_grahams_bounds(stage_durations: list[list[float]], order: str) -> None:
    chain = [
        StageTasks(i, tuple(ds), frozenset({i - 1}) if i else frozenset(), (0, i))
        for i, ds in enumerate(stage_durations)
    ]
    total = sum(sum(ds) for ds in stage_durations)
    critical = sum(max(ds, default=0.0) for ds in stage_durations)
    previous = None
    for p in (1, 2, 16, 64, 256):
        value = makespan(chain, p, order)  # type: ignore[arg-type]
        assert value >= lower_bound(chain, p) - 1e-9
        assert value >= critical - 1e-9
        # a greedy list schedule never idles a slot while a task is ready: <= work/P + critical path
        assert value <= total / p + critical + 1e-9
        if p == 1:
            assert value == pytest.approx(total)
        if previous is not None and order == "longest-first":
            assert value <= previous + 1e-9, "more slots never make an LPT chain slower"
        previous = value
    assert makespans(chain, (2, 256)) == {2: makespan(chain, 2), 256: makespan(chain, 256)}


# -- event log ----------------------------------------------------------------------------

MARK = "skewjoin-bench/0007/skewed-groups/"


def _job_end(job: int, at: int) -> dict[str, Any]:
    return {
        "Event": "SparkListenerJobEnd",
        "Job ID": job,
        "Completion Time": at,
        "Job Result": {"Result": "JobSucceeded"},
    }


def _task(stage: int, task_id: int, launch: int, finish: int, **metrics: Any) -> dict[str, Any]:
    failed = metrics.pop("failed", False)
    accums = metrics.pop("accums", {})
    return {
        "Event": "SparkListenerTaskEnd",
        "Stage ID": stage,
        "Stage Attempt ID": 0,
        "Task End Reason": {"Reason": "ExceptionFailure" if failed else "Success"},
        "Task Info": {
            "Task ID": task_id,
            "Index": task_id,
            "Launch Time": launch,
            "Finish Time": finish,
            "Failed": failed,
            "Killed": False,
            "Accumulables": [
                {"ID": i, "Name": "m", "Update": str(v), "Value": str(v), "Metadata": "sql"} for i, v in accums.items()
            ]
            + [{"ID": 999, "Name": "internal.metrics.executorRunTime", "Update": 5, "Value": 5}],
        },
        "Task Metrics": {
            "Executor Run Time": finish - launch,
            "Executor CPU Time": (finish - launch) * 1_000_000,
            "Memory Bytes Spilled": metrics.get("mem_spill", 0),
            "Disk Bytes Spilled": metrics.get("disk_spill", 0),
            "Shuffle Read Metrics": {
                "Remote Bytes Read": metrics.get("remote", 0),
                "Local Bytes Read": metrics.get("local", 0),
                "Total Records Read": metrics.get("read_records", 0),
            },
            "Shuffle Write Metrics": {
                "Shuffle Bytes Written": metrics.get("written", 0),
                "Shuffle Records Written": metrics.get("records", 0),
            },
            "Input Metrics": {"Bytes Read": metrics.get("input", 0), "Records Read": metrics.get("input_records", 0)},
        },
    }


def _stage_info(stage: int, parents: list[int], tasks: int) -> dict[str, Any]:
    return {"Stage ID": stage, "Stage Name": f"stage {stage}", "Number of Tasks": tasks, "Parent IDs": parents}


def _plan() -> dict[str, Any]:
    def node(name: str, text: str, children: list[dict[str, Any]], metrics: dict[str, int] | None = None) -> dict:
        return {
            "nodeName": name,
            "simpleString": text,
            "children": children,
            "metrics": [{"name": k, "accumulatorId": v, "metricType": "sum"} for k, v in (metrics or {}).items()],
        }

    fact = node("Scan parquet spark_catalog.bench.fact", "FileScan parquet ...", [], {"number of output rows": 301})
    dim = node("Scan parquet spark_catalog.bench.dim", "FileScan parquet ...", [], {"number of output rows": 302})
    fact_x = node("Exchange", "Exchange hashpartitioning(k#1L, 200), ENSURE_REQUIREMENTS", [fact],
                  {"shuffle records written": 101, "shuffle bytes written": 102})  # fmt: skip
    dim_x = node("Exchange", "Exchange hashpartitioning(k#2L, 200), ENSURE_REQUIREMENTS", [dim],
                 {"shuffle records written": 201, "shuffle bytes written": 202})  # fmt: skip
    join = node("SortMergeJoin", "SortMergeJoin [k#1L], [k#2L], Inner", [fact_x, dim_x])
    final = node("Exchange", "Exchange SinglePartition, ENSURE_REQUIREMENTS", [join],
                 {"shuffle records written": 401, "shuffle bytes written": 402})  # fmt: skip
    return node("AdaptiveSparkPlan", "AdaptiveSparkPlan isFinalPlan=true", [node("HashAggregate", "agg", [final])])


def _events() -> list[dict[str, Any]]:
    """One run (marker MARK), AQE style: two map jobs, then the join job that skips their stages.

    Also an unrelated job (another marker) that must not count.
    """
    props = {"spark.jobGroup.id": MARK, "spark.job.description": MARK + " skew groups", "spark.sql.execution.id": "3"}
    ev: list[dict[str, Any]] = [
        {"Event": "SparkListenerLogStart", "Spark Version": "4.3.0"},
        {"Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart", "executionId": 3,
         "description": "x", "sparkPlanInfo": {"nodeName": "AdaptiveSparkPlan", "simpleString": "initial",
                                                "children": [], "metrics": []}},
        # job 0: fact map stage (2 tasks), job 1: dim map stage (1 task), concurrently
        {"Event": "SparkListenerJobStart", "Job ID": 0, "Submission Time": 1000, "Stage IDs": [0],
         "Stage Infos": [_stage_info(0, [], 2)], "Properties": props},
        {"Event": "SparkListenerJobStart", "Job ID": 1, "Submission Time": 1000, "Stage IDs": [1],
         "Stage Infos": [_stage_info(1, [], 1)], "Properties": props},
        _task(0, 0, 1000, 1400, written=600, records=60, input_records=60, accums={101: 60, 102: 600, 301: 60}),
        _task(0, 1, 1000, 1300, written=400, records=40, input_records=40, accums={101: 40, 102: 400, 301: 40}),
        _task(1, 2, 1300, 1400, written=100, records=10, input_records=10, accums={201: 10, 202: 100, 302: 10}),
        {"Event": "SparkListenerStageCompleted", "Stage Info": _stage_info(0, [], 2)},
        {"Event": "SparkListenerStageCompleted", "Stage Info": _stage_info(1, [], 1)},
        _job_end(0, 1400),
        _job_end(1, 1400),
        # job 2: the join stage 3 (4 tasks, one a straggler; one failed attempt) after skipped stage 2 -> 0, 1
        {"Event": "SparkListenerJobStart", "Job ID": 2, "Submission Time": 1500, "Stage IDs": [2, 3, 4],
         "Stage Infos": [_stage_info(2, [0, 1], 0), _stage_info(3, [2], 4), _stage_info(4, [3], 1)],
         "Properties": props},
        _task(3, 3, 1500, 3500, local=700, read_records=70, records=1, written=10, accums={401: 1, 402: 10}),
        _task(3, 4, 1500, 1600, remote=100, read_records=10, records=1, written=10, accums={401: 1, 402: 10}),
        _task(3, 5, 1600, 1700, local=100, read_records=10, records=1, written=10, accums={401: 1, 402: 10}),
        _task(3, 6, 1700, 1900, local=100, failed=True, accums={401: 5}),
        _task(3, 7, 1900, 2000, local=100, read_records=20, records=1, written=10, mem_spill=50, disk_spill=7,
              accums={401: 1, 402: 10}),  # fmt: skip
        _task(4, 8, 3500, 3550, local=40),
        {"Event": "SparkListenerStageCompleted", "Stage Info": _stage_info(3, [2], 4)},
        _job_end(2, 3600),
        {"Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLAdaptiveExecutionUpdate", "executionId": 3,
         "physicalPlanDescription": "...", "sparkPlanInfo": _plan()},
        {"Event": "org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates", "executionId": 3,
         "accumUpdates": [[301, 0]]},
        # another run
        {"Event": "SparkListenerJobStart", "Job ID": 3, "Submission Time": 4000, "Stage IDs": [5],
         "Stage Infos": [_stage_info(5, [], 1)],
         "Properties": {"spark.jobGroup.id": "skewjoin-bench/0070/other/"}},
        _task(5, 9, 4000, 9000),
        _job_end(3, 9000),
    ]  # fmt: skip
    return ev


def test_event_log_metrics_of_one_run(tmp_path: Path) -> None:
    path = tmp_path / "local-1"
    lines = [json.dumps(e) for e in _events()]
    path.write_text("\n".join(lines) + '\n{"Event": "SparkListenerTaskEnd", "Stage')  # a log still being written
    log = EventLog.read(path)
    assert log.bad_lines == 1
    run = log.run(MARK, slots=(1, 2, 64))
    assert run.jobs == 3
    assert run.tasks == 8 and run.failed_tasks == 1
    assert run.span_s == pytest.approx(2.6)  # 1000 -> 3600 ms
    assert run.total_task_s == pytest.approx(0.4 + 0.3 + 0.1 + 2.0 + 0.1 + 0.1 + 0.2 + 0.1 + 0.05)
    assert run.shuffle_write_bytes == 600 + 400 + 100 + 40
    assert run.shuffle_read_bytes == 700 + 100 + 100 + 100 + 40
    assert (run.memory_spilled, run.disk_spilled, run.spill_bytes) == (50, 7, 57)
    assert run.input_records == 110
    # the join stage: reads shuffle data, most task time (stage 4, the final aggregate, also reads)
    assert run.join_stage is not None and run.join_stage.stage_id == 3
    assert run.join_stage.tasks == 4  # the failed attempt is not a task of the projection
    assert run.join_stage.max_s == pytest.approx(2.0)
    assert run.join_stage.median_s == pytest.approx(0.1)
    assert run.join_stage.max_over_median == pytest.approx(20.0)
    assert run.join_stage_durations == pytest.approx([2.0, 0.1, 0.1, 0.1])
    assert run.join_scan_tasks == 0 and run.join_max_over_median == pytest.approx(20.0)
    # the same tasks' shuffle rows, longest task first: the straggler read 70 rows, the median task 15
    assert run.join_stage_rows == [70, 10, 10, 20]
    assert run.join_rows_max_over_median == pytest.approx(70 / 15)
    assert run.join_longest_rows_over_median == pytest.approx(70 / 15)
    # stage 3's parents are 0 and 1 through the skipped stage 2; job 2 waited for jobs 0 and 1
    assert {s.stage_id: s.parents for s in run.stages}[3] == [0, 1]
    # P=1: everything in sequence; P=2: map stages (0.4 | 0.3, 0.1), join (2.0 | 0.1, 0.1, 0.1), final 0.05
    assert run.makespan_s[1] == pytest.approx(run.total_task_s - 0.2)  # minus the failed attempt
    assert run.makespan_s[2] == pytest.approx(0.4 + 2.0 + 0.05)
    assert run.makespan_s[64] == pytest.approx(0.4 + 2.0 + 0.05)
    # the final plan: which exchange shuffled which table's rows
    assert run.hash_shuffled_records("fact") == 100
    assert run.hash_shuffled_records("bench.dim") == 10
    assert run.hash_shuffled_records("nope") == 0
    assert {e.partitioning for e in run.exchanges} == {"hash", "single"}
    assert [(s.table, s.rows) for s in run.scanned("fact")] == [("spark_catalog.bench.fact", 100)]
    data = run.as_dict()
    assert data["join_stage"]["max_over_median"] == 20.0 and data["makespan_s"]["2"] == pytest.approx(2.45)


def test_the_join_balance_leaves_out_a_unions_scanning_tasks(tmp_path: Path) -> None:
    """A hot-key plan's stage unions its broadcast branch (tasks scanning the fact) with the shuffle
    join (tasks reading shuffle blocks): the balance is the shuffle join's tasks' alone."""
    events = _events()
    at = next(i for i, e in enumerate(events) if e.get("Event") == "SparkListenerStageCompleted"
              and e["Stage Info"]["Stage ID"] == 3)  # fmt: skip
    events[at:at] = [
        _task(3, 20, 1500, 2300, input_records=500, records=1, written=10),
        _task(3, 21, 1500, 2400, input_records=500, records=1, written=10),
    ]
    path = tmp_path / "local-1"
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    run = EventLog.read(path).run(MARK, slots=(2,))
    assert run.join_stage is not None and run.join_stage.stage_id == 3 and run.join_stage.tasks == 6
    assert run.join_scan_tasks == 2
    assert run.join_stage_durations == pytest.approx([2.0, 0.1, 0.1, 0.1])
    assert run.join_max_over_median == pytest.approx(20.0)
    # the projection still schedules every task
    assert run.total_task_s == pytest.approx(0.4 + 0.3 + 0.1 + 2.0 + 0.1 + 0.1 + 0.2 + 0.1 + 0.05 + 0.8 + 0.9)
    data = run.as_dict()
    assert data["join_scan_tasks"] == 2 and data["join_max_over_median"] == 20.0
    # the scanning tasks read no shuffle rows and are not in the balance in rows either
    assert run.join_stage_rows == [70, 10, 10, 20] and data["join_rows_max_over_median"] == 4.67


def test_a_long_task_with_median_rows_is_told_apart_from_a_data_straggler(tmp_path: Path) -> None:
    """The longest task read the median's rows: it is long for another reason than its data."""
    events = _events()
    for e in events:
        if e.get("Event") == "SparkListenerTaskEnd" and e["Task Info"]["Task ID"] in (3, 7):
            e["Task Metrics"]["Shuffle Read Metrics"]["Total Records Read"] = {3: 10, 7: 40}[e["Task Info"]["Task ID"]]
    path = tmp_path / "local-1"
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n")
    run = EventLog.read(path).run(MARK, slots=(2,))
    assert run.join_max_over_median == pytest.approx(20.0)
    assert run.join_stage_rows == [10, 10, 10, 40]
    assert run.join_rows_max_over_median == pytest.approx(4.0)
    assert run.join_longest_rows_over_median == pytest.approx(1.0)


def test_the_balance_of_a_finished_run_is_read_again_from_its_event_log(tmp_path: Path) -> None:
    path = tmp_path / "local-1"
    path.write_text("\n".join(json.dumps(e) for e in _events()) + "\n")
    runs = [
        {"scenario": "skewed/groups", "marker": MARK, "error": None},
        {"scenario": "skewed/groups", "marker": "skewjoin-bench/0099/failed/", "error": "boom"},
        {"scenario": "skewed/hot_keys", "marker": "skewjoin-bench/0100/not-in-the-log/", "error": None},
    ]
    table = balance({"runs": runs}, EventLog.read(path))
    assert list(table) == ["skewed/groups"], "a failed run and a run missing from the log are left out"
    row = table["skewed/groups"]
    assert row["join max/median (time)"] == pytest.approx(20.0)
    assert row["join rows max/median"] == pytest.approx(70 / 15)
    assert row["longest task's rows / median"] == pytest.approx(70 / 15)
    assert markdown(table).splitlines()[2] == "| skewed/groups | 20.00 | 4.67 | 4.67 |"


def test_a_thrift_run_is_found_by_the_statement_text() -> None:
    events = _events()
    for e in events:
        if e["Event"] == "SparkListenerJobStart" and e["Job ID"] in (0, 1, 2):
            e["Properties"] = {"spark.jobGroup.id": "a1b2-statement-uuid",
                               "spark.job.description": f"/* {MARK} skew groups */\nselect count(*) ..."}  # fmt: skip
    run = EventLog.from_events(events).run(MARK)
    assert run.jobs == 3 and run.tasks == 8
    assert run.exchanges == [], "no execution id in the properties: no plan"
    assert run.hash_shuffled_records("fact") is None


def test_unknown_marker_and_missing_logs_are_clear_errors(tmp_path: Path) -> None:
    log = EventLog.from_events(_events())
    with pytest.raises(EventLogError, match="no job"):
        log.run("skewjoin-bench/0008/")
    with pytest.raises(EventLogError, match="does not exist"):
        find_event_log(tmp_path / "missing")
    (tmp_path / "eventlog_v2_local-5").mkdir()
    with pytest.raises(EventLogError, match="rolling"):
        find_event_log(tmp_path, "local-5")
    (tmp_path / "local-6.zstd").write_text("")
    with pytest.raises(EventLogError, match="compressed"):
        find_event_log(tmp_path, "local-6")
    (tmp_path / "local-7.inprogress").write_text("")
    assert find_event_log(tmp_path, "local-7").name == "local-7.inprogress"
    with pytest.raises(EventLogError, match="spark.eventLog.enabled"):
        find_event_log(tmp_path, "local-8")


def test_broadcasts_are_measured_from_driver_side_metrics() -> None:
    plan = {
        "nodeName": "BroadcastHashJoin", "simpleString": "BroadcastHashJoin", "metrics": [],
        "children": [
            {"nodeName": "Scan parquet db.sales", "simpleString": "FileScan", "children": [], "metrics": []},
            {"nodeName": "BroadcastExchange", "simpleString": "BroadcastExchange HashedRelationBroadcastMode",
             "metrics": [{"name": "data size", "accumulatorId": 501}, {"name": "number of output rows",
                                                                        "accumulatorId": 502}],
             "children": [{"nodeName": "Scan parquet db.stores", "simpleString": "FileScan", "children": [],
                           "metrics": []}]},
        ],
    }  # fmt: skip
    log = EventLog.from_events(
        [
            {"Event": "SparkListenerJobStart", "Job ID": 0, "Submission Time": 0, "Stage IDs": [0],
             "Stage Infos": [_stage_info(0, [], 1)],
             "Properties": {"spark.jobGroup.id": MARK, "spark.sql.execution.id": "9"}},
            {"Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart", "executionId": 9,
             "description": "q", "sparkPlanInfo": plan},
            _task(0, 0, 0, 30),
            {"Event": "org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates", "executionId": 9,
             "accumUpdates": [[501, 4096], [502, 20]]},
        ]
    )  # fmt: skip
    run = log.run(MARK)
    assert [(b.rows, b.bytes, b.tables) for b in run.broadcasts] == [(20, 4096, ["db.stores"])]
    assert run.as_dict()["broadcasts"] == [{"rows": 20, "bytes": 4096, "tables": ["db.stores"]}]
    assert [s.table for s in run.scans] == ["db.sales", "db.stores"]


def test_join_stage_falls_back_without_shuffle_reads() -> None:
    log = EventLog.from_events(
        [
            {"Event": "SparkListenerJobStart", "Job ID": 0, "Submission Time": 0, "Stage IDs": [0],
             "Stage Infos": [_stage_info(0, [], 2)], "Properties": {"spark.jobGroup.id": MARK}},
            _task(0, 0, 0, 30),
            _task(0, 1, 0, 10),
        ]
    )  # fmt: skip
    run = log.run(MARK)
    assert run.join_stage is not None and run.join_stage.stage_id == 0
    assert join_stage([]) is None
    assert run.span_s == 0.0, "no job end yet"


# -- data, configs, settings ---------------------------------------------------------------


def test_dataset_spec_checks_its_parameters() -> None:
    with pytest.raises(ValueError, match="hot_share"):
        DatasetSpec(hot_share=1.5)
    with pytest.raises(ValueError, match="distinct_keys"):
        DatasetSpec(distinct_keys=1, hot_keys=1)
    with pytest.raises(ValueError, match="schema"):
        DatasetSpec(schema="x; drop table y")
    sqls = dict(statements(DatasetSpec()))
    assert set(sqls) >= {"bench_dim", "bench_fact_skewed", "bench_fact_uniform", "bench_sales_by_day"}
    assert "range(0, 1000000, 1, 64)" in sqls["bench_fact_skewed"]
    assert {"bench_dim_wide", "bench_dim_hot"} <= set(sqls)
    assert "when id = 99999 then 2000" in sqls["bench_dim_hot"]
    assert "partitioned by (day_key)" in sqls["bench_sales_by_day"]
    assert "bench_days" not in dict(statements(DatasetSpec(), pruning=False))
    assert {"bench_star_sales", "bench_star_customers"} <= set(sqls)
    assert "bench_star_sales" not in dict(statements(DatasetSpec(), star=False))
    keys = {s.key for s in scenarios(BenchConfig(pruning=True, star=True))}
    assert {"star/plain", "star/star_join", "pruning/prune_predicate", "skewed/plain@aqe_scaled"} <= keys
    # 23 plain-join settings, 17 hand-written configurations, skew_join 'auto' in each of 7 datasets, and the
    # chain's three: nested skew_join, skew_join_chain with groups, with hot keys (50); g: 3 plain-join
    # settings and 2 plans with AQE on, off and scaled, for the inner and the left join (18); h: 3 plain-join
    # settings and e's groups and 'auto' plans on the inner join (6), a's 'auto' plans on the left join (5)
    assert len(scenarios(BenchConfig())) == 50 + 18 + 6 + 5
    assert {"chain/plain@aqe_forced", "chain/nested_groups", "chain/groups", "chain/hot_keys"} <= {
        s.key for s in scenarios(BenchConfig())
    }
    assert {f"{d}/skew_auto" for d in ("left", "right", "full", "wide", "aggregated", "skewed", "uniform")} <= keys
    assert {"aggregated/plain@aqe_off", "aggregated/plain@aqe_forced", "aggregated/auto"} <= keys
    assert {"left/plain@aqe_off", "left/plain@aqe_default", "left/plain@aqe_scaled", "left/auto"} <= keys
    assert {"right/auto", "full/auto", "wide/groups", "wide/auto", "uniform/auto"} <= keys
    assert "left/plain@aqe_forced" not in keys  # forcing applies where a split would add a shuffle
    assert {s.dataset for s in scenarios(BenchConfig(datasets=("left", "uniform")))} == {"left", "uniform"}


def test_scenario_d_can_read_a_larger_fact_of_its_own() -> None:
    default = DatasetSpec(rows=1000)
    assert "bench_fact_aggregated" not in dict(statements(default))
    assert default.aggregated_fact == fact_table("aggregated", default) == "bench_fact_skewed"
    assert DatasetSpec(rows=1000, aggregated_rows=1000).aggregated_fact == "bench_fact_skewed"  # the same size
    own = DatasetSpec(rows=1000, aggregated_rows=1500)
    sqls = dict(statements(own))
    assert fact_table("aggregated", own) == "bench_fact_aggregated" and own.fact_rows("bench_fact_aggregated") == 1500
    assert fact_table("skewed", own) == "bench_fact_skewed" and own.fact_rows("bench_fact_skewed") == 1000
    # drawn as the skewed fact: the same expression over more row ids, so its first rows are the skewed fact's
    skewed = sqls["bench_fact_skewed"].replace("bench_fact_skewed", "bench_fact_aggregated")
    assert sqls["bench_fact_aggregated"] == skewed.replace("range(0, 1000,", "range(0, 1500,")
    assert "range(0, 1500, 1, 64)" in sqls["bench_fact_aggregated"]
    with pytest.raises(ValueError, match="aggregated_rows must be >= 1"):
        DatasetSpec(aggregated_rows=0)
    runner = CliRunner()
    assert "--aggregated-rows" in runner.invoke(bench, ["--help"]).output
    wrong = runner.invoke(bench, ["--aggregated-rows", "0"])
    assert wrong.exit_code == 2 and "--aggregated-rows" in wrong.output


def test_zipf_key_expression_shapes() -> None:
    skewed = zipf_key_sql(DatasetSpec(hot_keys=2, hot_share=0.5, zipf_exponent=1.0), "u")
    assert skewed.startswith("case when u < 0.5D then least(cast(floor(u / 0.5D * 2) as bigint), 1)")
    assert "power(99999.0D," in skewed  # tail ranks 1 .. 99998
    other = zipf_key_sql(DatasetSpec(hot_keys=0, hot_share=0.0, zipf_exponent=0.5), "u")
    assert not other.startswith("case") and "power(1D + (u)" in other


def test_skew_configs_follow_the_slot_planner() -> None:
    stats = KeyStats(rows=1000, top=[(0, 700), (1, 30), (2, 12), (3, 5)])
    c = skew_configs(stats, min_share=0.01, hot_count=1, total_slots=200)
    assert [k for k, _ in c.skewed] == [0, 1, 2]
    assert c.groups == [(0, 140), (1, 6), (2, 2)]
    assert c.hot_keys == [0, 1, 2]
    assert c.both_hot_keys == [0]
    assert c.both_groups == [(1, 20), (2, 8)]  # 3% and 1.2% of all rows are 10% and 4% of the rest
    variables = c.variables("s", 200)
    assert variables["skewjoin_bench_groups"] == [[0, 140], [1, 6], [2, 2]]
    assert variables["skewjoin_bench"] is True
    small = skew_configs(stats, min_share=0.01, hot_count=1, total_slots=5)
    assert len(small.groups) == 2 and sum(n for _, n in small.groups) <= 4 and small.notes
    none = skew_configs(KeyStats(rows=100, top=[(5, 1)]), 0.05, 1, 200)
    assert (none.groups, none.hot_keys, none.both_hot_keys, none.both_groups) == ([], [], [], [])
    assert parse_key_stats([(0, 700, 1000), (1, 30, 1000)]).share(0) == 0.7


def test_settings_profiles_reset_what_they_do_not_set() -> None:
    scaled = scaled_aqe_settings(20_000_000, 200)
    assert scaled["spark.sql.adaptive.advisoryPartitionSizeInBytes"] == "100000"
    assert scaled["spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes"] == "200000"
    off = settings_for("aqe_off", scaled)
    on = settings_for("aqe_scaled", scaled)
    assert set(off) == set(on), "every profile sets or resets the same keys, so nothing leaks between scenarios"
    assert (
        off["spark.sql.adaptive.enabled"] == "false" and off["spark.sql.adaptive.advisoryPartitionSizeInBytes"] is None
    )
    assert on["spark.sql.adaptive.advisoryPartitionSizeInBytes"] == "100000"
    assert off["spark.sql.autoBroadcastJoinThreshold"] == "-1"
    dpp = settings_for("dpp_off", scaled)
    assert dpp["spark.sql.autoBroadcastJoinThreshold"] is None
    assert dpp["spark.sql.optimizer.dynamicPartitionPruning.enabled"] == "false"
    defaults = settings_for("spark_defaults", scaled)
    assert set(defaults) == set(off)
    assert defaults["spark.sql.adaptive.enabled"] == "true"
    assert all(v is None for k, v in defaults.items() if k != "spark.sql.adaptive.enabled")
    with pytest.raises(ValueError):
        settings_for("fast", scaled)
    assert checksum_sql("select 1 as a -- trailing comment").endswith("-- trailing comment\n) as sj_bench")
    compiled = "-- header\n/* skewjoin.skew_join decision record (model m)\n  x\n*/\nwith a as (select /* hint */ 1)"
    assert decision_record(compiled) == "/* skewjoin.skew_join decision record (model m)\n  x\n*/"
    assert decision_record("select 1 /* other */") == ""


def test_the_cluster_model_reads_splits_and_writes_one_shuffle_file_a_map_task(tmp_path: Path) -> None:
    common = {"master": "local[*]", "driver_memory": "2g", "shuffle_partitions": 200, "cluster_cores": 64}
    cluster = local_settings(tmp_path, read="splits", **common)
    assert cluster["spark.default.parallelism"] == "64"
    assert cluster["spark.sql.files.maxPartitionBytes"] == cluster["spark.sql.files.openCostInBytes"] == str(1 << 30)
    assert cluster["spark.shuffle.sort.bypassMergeThreshold"] == "0"
    local = local_settings(tmp_path, read="local", **common)
    # local Spark's own defaults: what a user on this machine gets
    assert not {"spark.default.parallelism", "spark.shuffle.sort.bypassMergeThreshold"} & set(local)
    assert local["spark.sql.shuffle.partitions"] == "200"
    with pytest.raises(ValueError):
        local_settings(tmp_path, read="cluster", **common)


def _record(scenario: str, rows: int, checksum: tuple[int, int], error: str | None = None) -> RunRecord:
    return RunRecord(scenario, 1, 1, "m", 1.0, rows, checksum, error=error)


def test_results_are_checked_against_the_plain_join_of_the_same_data() -> None:
    all_s = scenarios(BenchConfig(pruning=True, star=True))
    runs = [
        _record("skewed/groups", 10, (1, 2)),  # before the plain join's run: still checked against it
        _record("skewed/plain@aqe_off", 10, (1, 2)),
        _record("skewed/plain@aqe_default", 10, (1, 2)),
        _record("skewed/hot_keys", 10, (1, 3)),
        _record("skewed/both", 9, (1, 2)),
        _record("uniform/plain", 7, (5, 5)),
        _record("uniform/groups", 7, (5, 5)),
        _record("uniform/both", 0, (0, 0), error="boom"),
        _record("pruning/prune_predicate", 3, (3, 3)),
        _record("star/plain", 4, (4, 4)),
        _record("star/star_join", 4, (4, 4)),
    ]
    check_results(all_s, runs)
    assert [r.matches_plain for r in runs] == [True, True, True, False, False, True, True, False, None, True, True]


def _result(medians_by_run: dict[str, dict[str, Any]]) -> BenchResult:
    from skewjoin_bench.eventlog import RunMetrics, StageSummary
    from skewjoin_bench.scenarios import SkewConfigs

    config = BenchConfig(repetitions=1, pruning=False, star=False, strategy_settings="aqe_default")
    runs = []
    for key, m in medians_by_run.items():
        join = StageSummary(1, "join", 10, m["total"], m["max"], m["median"], 1, 1, 1, 0, 0, [])
        metrics = RunMetrics(
            marker=key, jobs=1, span_s=m["wall"], tasks=10, failed_tasks=0, total_task_s=m["total"], cpu_s=0,
            shuffle_write_bytes=m["bytes"], shuffle_read_bytes=m["bytes"], shuffle_write_records=0,
            memory_spilled=0, disk_spilled=0, input_bytes=0, input_records=0, stages=[join], join_stage=join,
            join_stage_durations=[m["max"], m["median"], m["median"]],
            makespan_s={2: m["p64"] * 2, 16: m["p64"], 64: m["p64"], 256: m["p64"]},
            schedule_order="longest-first", exchanges=[], scans=[],
        )  # fmt: skip
        runs.append(RunRecord(key, 1, 1, key, m["wall"], 100, (1, 1), True, metrics=metrics))
    return BenchResult(
        config=config, scenarios=scenarios(config), runs=runs,
        stats={"skewed": KeyStats(rows=1000, top=[(0, 700)])},
        configs=SkewConfigs([(0, 0.7)], [(0, 140)], [0], [0], []), hot_rows={"hot_keys": 700, "both": 700},
        scaled_settings={}, scaled_from="test", compiled={}, decision_records={}, timings={}, backend="local Spark",
        spark_version="4", event_log=None, started="2026-01-01T00:00:00", command="skewjoin-bench",
        machine={"cores": 2},
    )  # fmt: skip


def test_targets_are_ratios_with_honest_verdicts() -> None:
    base = {"wall": 10.0, "total": 10.0, "max": 6.0, "median": 0.1, "bytes": 1000, "p64": 6.0}
    good = {"wall": 10.5, "total": 12.0, "max": 0.3, "median": 0.1, "bytes": 350, "p64": 1.5}
    slow = {"wall": 12.0, "total": 20.0, "max": 0.5, "median": 0.1, "bytes": 500, "p64": 3.5}
    result = _result({
        "skewed/plain@aqe_off": base, "skewed/plain@aqe_default": base,
        "skewed/plain@aqe_scaled": {**base, "p64": 2.0}, "skewed/groups": good, "skewed/hot_keys": slow,
        "uniform/plain": base, "uniform/groups": good, "uniform/hot_keys": slow,
    })  # fmt: skip
    medians = {s.key: scenario_medians(result, s.key) for s in result.scenarios}
    got = {(t.name, t.strategy): t for t in targets(result, medians)}
    assert got[("join-stage max/median task time, plain join (AQE off)", "plain")].passed is True  # 60 >= 20
    assert got[("makespan at P=64 vs plain join, AQE off", "groups")].measured == pytest.approx(0.25)
    assert got[("makespan at P=64 vs plain join, AQE off", "groups")].passed is True
    assert got[("makespan at P=64 vs plain join, AQE scaled", "groups")].passed is False  # 1.5 / 2.0 > 1/2
    assert got[("join-stage max/median task time", "groups")].passed is True
    assert got[("join-stage max/median task time", "hot_keys")].passed is False  # 5 > 3
    assert got[("total task time vs plain join (AQE on)", "groups")].measured == pytest.approx(1.2)
    assert got[("shuffle bytes vs plain join (AQE on)", "hot_keys")].threshold == pytest.approx(0.4)
    assert got[("shuffle bytes vs plain join (AQE on)", "hot_keys")].passed is False  # 0.5
    assert got[("hot fact rows hash-shuffled by their key", "hot_keys")].passed is None, "no plan: no data"
    assert got[("no skew: wall time vs plain join (medians)", "groups")].passed is True  # 1.05
    assert got[("no skew: wall time vs plain join (medians)", "hot_keys")].verdict == "MISS"  # 1.2
    assert ("makespan at P=64 vs plain join, AQE off", "both") not in got, "no runs, no row"
    md = to_markdown(result, medians, list(got.values()), "bench.png")
    assert "| makespan at P=64 vs plain join, AQE off | skew groups | 0.25 | <= 0.33 | pass |" in md
    assert "Command: `skewjoin-bench`" in md and "2 cores" in md and "![" in md
    assert Target("x", "s", None, "<=", 1, "").verdict == "no data"


# -- CLI ------------------------------------------------------------------------------------


def test_cli_helps_and_checks_options_before_starting_spark() -> None:
    runner = CliRunner()
    helped = runner.invoke(bench, ["--help"])
    assert helped.exit_code == 0 and "--event-log" in helped.output and "--smoke" in helped.output
    wrong = runner.invoke(bench, ["--event-log", "/tmp/x"])
    assert wrong.exit_code == 2 and "--event-log is for --thrift runs" in wrong.output
    wrong = runner.invoke(bench, ["--thrift", "h:1", "--conf", "a=b"])
    assert wrong.exit_code == 2 and "--thrift uses a server" in wrong.output
    wrong = runner.invoke(bench, ["--slots", "2,0"])
    assert wrong.exit_code == 2 and "slot counts >= 1" in wrong.output
    wrong = runner.invoke(bench, ["--hot-keys", "0", "--hot-share", "0.5"])
    assert wrong.exit_code == 2 and "hot_share > 0 needs hot_keys >= 1" in wrong.output


def test_where_spark_gives_up_compares_with_the_best_spark_setting(tmp_path: Path) -> None:
    from skewjoin_bench.report import gives_up, gives_up_chart

    config = BenchConfig(repetitions=1, datasets=("left", "skewed"))
    keys = [s.key for s in scenarios(config)]
    assert keys[:4] == ["left/plain@aqe_off", "left/plain@aqe_default", "left/plain@aqe_scaled", "left/auto"]
    result = _result({})
    result.config = config
    result.scenarios = scenarios(config)

    def med(p64: float, task: float = 10.0, split: int = 0) -> dict[str, Any]:
        return {"ok_runs": 1, "makespan_s": {64: p64}, "total_task_s": task, "wall_s": task,
                "skew_split_joins": split, "results_match": True, "shuffle_write_records": 100}  # fmt: skip

    medians = {
        "left/plain@aqe_off": med(4.0),
        "left/plain@aqe_default": med(3.0),
        "left/plain@aqe_scaled": med(3.5),
        "left/auto": med(0.9, task=11.0),
        "skewed/plain@aqe_off": med(4.0),
        "skewed/plain@aqe_scaled": med(1.0, split=1),
        "skewed/auto": med(1.2),
    }
    rows = {(r.dataset, r.strategy): r for r in gives_up(result, medians)}
    left = rows[("left", "auto")]
    assert left.best_profile == "aqe_default" and left.vs_best == pytest.approx(0.3) and left.passed is True
    assert left.task_time_vs_plain == pytest.approx(1.1)
    assert not any(left.aqe_split.values())
    inner = rows[("skewed", "auto")]
    assert inner.aqe_split["aqe_scaled"] == 1
    assert inner.vs_scaled == pytest.approx(1.2) and inner.passed is False  # e: <= 1.0x scaled AQE
    png = gives_up_chart(result, list(rows.values()), tmp_path / "gives_up.png")
    assert png is not None and png.read_bytes()[:4] == b"\x89PNG"


def test_kept_hot_keys_are_read_from_the_record() -> None:
    """The hot keys a plan keeps after the compile-time check, as its record lists them."""
    record = "/* ...\n  hot key 1 of f dropped: ...\n  hot keys of f (declared): 0; 2\n*/"
    assert kept_hot_keys(record, [0, 1, 2]) == [0, 2]
    assert kept_hot_keys("  hot keys of f (declared): 0 + NULL keys\n", [0, 1]) == [0]
    assert kept_hot_keys("  hot keys of f (declared): none\n", [0, 1]) == []
    assert kept_hot_keys("", [0, 1]) == [0, 1]


# -- issue 29: the compile-time queries end to end, scenarios g and h ------------------------


def _compile_events() -> list[dict[str, Any]]:
    """dbt compiling a model from 10,000 to 10,900 ms: two queries (jobs 10, 11) without a benchmark marker,
    one after the other; a marked job inside the window and an unmarked one after it must not count."""
    return [
        {"Event": "SparkListenerJobStart", "Job ID": 10, "Submission Time": 10_100, "Stage IDs": [20, 21],
         "Stage Infos": [_stage_info(20, [], 2), _stage_info(21, [20], 1)], "Properties": {}},
        _task(20, 100, 10_100, 10_300), _task(20, 101, 10_100, 10_200),
        _task(21, 102, 10_300, 10_350, local=10),
        _job_end(10, 10_350),
        {"Event": "SparkListenerJobStart", "Job ID": 11, "Submission Time": 10_400, "Stage IDs": [22],
         "Stage Infos": [_stage_info(22, [], 1)], "Properties": {"spark.job.description": "dbt query"}},
        _task(22, 103, 10_400, 10_500),
        _job_end(11, 10_500),
        {"Event": "SparkListenerJobStart", "Job ID": 12, "Submission Time": 10_600, "Stage IDs": [23],
         "Stage Infos": [_stage_info(23, [], 1)], "Properties": {"spark.jobGroup.id": "skewjoin-bench/0001/x/"}},
        _task(23, 104, 10_600, 10_700),
        _job_end(12, 10_700),
        {"Event": "SparkListenerJobStart", "Job ID": 13, "Submission Time": 11_000, "Stage IDs": [24],
         "Stage Infos": [_stage_info(24, [], 1)], "Properties": {}},
        _task(24, 105, 11_000, 12_000),
        _job_end(13, 12_000),
    ]  # fmt: skip


def test_a_models_compile_time_queries_are_the_unmarked_jobs_of_its_compile_window() -> None:
    log = EventLog.from_events(_compile_events())
    assert [j.job_id for j in log.jobs_between(10_000, 10_900)] == [10, 11]
    assert [j.job_id for j in log.jobs_between(10_000, 10_900, exclude="")] == [10, 11, 12]
    got = log.window(10_000, 10_900, "compile m", slots=(1, 64))
    assert got is not None and got.jobs == 2 and got.tasks == 4
    assert got.total_task_s == pytest.approx(0.2 + 0.1 + 0.05 + 0.1)
    # job 11 was submitted after job 10 ended: it waits for it; at P=64 stage 20 (0.2) + 21 (0.05) + 22 (0.1)
    assert got.makespan_s[64] == pytest.approx(0.35)
    assert got.makespan_s[1] == pytest.approx(0.45)
    assert log.window(20_000, 30_000, "nothing") is None


def test_dbt_node_events_give_each_models_compile_window(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from skewjoin_bench import command

    def event(name: str, model: str) -> Any:
        return SimpleNamespace(info=SimpleNamespace(name=name), data=SimpleNamespace(node_info=SimpleNamespace(
            node_name=model)))  # fmt: skip

    clock = iter([1.0, 1.5, 2.0, 2.25])
    monkeypatch.setattr(command.time, "time", lambda: next(clock))
    windows: dict[str, tuple[int, int]] = {}
    callback = command.node_windows(windows)
    callback(event("NodeStart", "bench_a"))
    callback(event("MainReportVersion", "x"))  # other events: ignored, the clock not read
    callback(event("NodeFinished", "bench_a"))
    callback(event("NodeStart", "bench_b"))
    callback(SimpleNamespace(info=SimpleNamespace(name="NodeFinished"), data=SimpleNamespace(node_info=None)))
    callback(event("NodeFinished", "bench_b"))
    assert windows == {"bench_a": (1000, 1500), "bench_b": (2000, 2250)}


def _g_result(e2e: bool = True) -> tuple[BenchResult, dict[str, dict[str, Any]]]:
    """Scenario g (the inner join at 2400 partitions) and e, with made-up medians: Spark's best 4.0 s (AQE on);
    'auto' with AQE on joins in 0.5 s after 0.3 s of compile-time queries."""
    from skewjoin_bench.eventlog import RunMetrics

    config = BenchConfig(repetitions=1, datasets=("many_inner", "skewed"))
    result = _result({})
    result.config = config
    result.scenarios = scenarios(config)

    def compiled(p64: float, task: float) -> RunMetrics:
        return RunMetrics(
            marker="c", jobs=2, span_s=1, tasks=3, failed_tasks=0, total_task_s=task, cpu_s=0,
            shuffle_write_bytes=0, shuffle_read_bytes=0, shuffle_write_records=0, memory_spilled=0,
            disk_spilled=0, input_bytes=0, input_records=0, stages=[], join_stage=None, join_stage_durations=[],
            makespan_s={2: p64 * 4, 16: p64, 64: p64, 256: p64}, schedule_order="longest-first", exchanges=[],
            scans=[],
        )  # fmt: skip

    if e2e:
        result.compile_windows = {s.model: (0, 2000) for s in result.scenarios}
        result.compile_metrics = {"bench_many_inner_auto": compiled(0.3, 6.0),
                                  "bench_many_inner_skew_auto": compiled(0.1, 2.0)}  # fmt: skip

    def med(key: str, p64: float, task: float = 10.0, split: int = 0) -> dict[str, Any]:
        from skewjoin_bench.scenarios import compile_cost

        out = {"ok_runs": 1, "makespan_s": {2: p64, 16: p64, 64: p64, 256: p64}, "total_task_s": task,
               "wall_s": task, "skew_split_joins": split, "results_match": True,
               "shuffle_write_records": 100}  # fmt: skip

        return out | compile_cost(result, key, out)

    medians = {
        k: med(k, *v)
        for k, v in {
            "many_inner/plain@aqe_off": (5.0, 30.0),
            "many_inner/plain@aqe_default": (4.0, 10.0),
            "many_inner/plain@aqe_scaled": (4.5, 12.0),
            "many_inner/auto@aqe_default": (0.5, 12.0),
            "many_inner/auto@aqe_off": (1.0, 33.0),
            "many_inner/skew_auto@aqe_default": (0.9, 11.0),
            "skewed/plain@aqe_off": (4.0,),
            "skewed/plain@aqe_scaled": (1.0, 10.0, 1),
            "skewed/auto": (1.04,),
        }.items()
    }
    return result, medians


def test_scenario_g_runs_above_2000_partitions_with_aqe_on_and_off() -> None:
    config = BenchConfig(datasets=("many_inner", "many_left", "skewed"), many_partitions=2400)
    keys = [s.key for s in scenarios(config)]
    assert [k for k in keys if k.startswith("many_inner/")] == [
        "many_inner/plain@aqe_off", "many_inner/plain@aqe_default", "many_inner/plain@aqe_scaled",
        "many_inner/auto@aqe_default", "many_inner/auto@aqe_off", "many_inner/auto@aqe_scaled",
        "many_inner/skew_auto@aqe_default", "many_inner/skew_auto@aqe_off", "many_inner/skew_auto@aqe_scaled",
    ]  # fmt: skip
    assert {s.model for s in scenarios(config) if s.dataset == "many_left"} == {
        "bench_many_left_plain", "bench_many_left_auto", "bench_many_left_skew_auto",
        "bench_many_left_auto_scaled", "bench_many_left_skew_auto_scaled"}  # fmt: skip
    # the scaled runs compile under the scaled thresholds: a model of their own
    scaled = [s for s in scenarios(config) if s.dataset.startswith("many_") and s.settings == "aqe_scaled"
              and not s.is_baseline]  # fmt: skip
    assert {s.model for s in scaled} == {f"bench_{d}_{k}_scaled" for d in ("many_inner", "many_left")
                                         for k in ("auto", "skew_auto")}  # fmt: skip
    assert "skewed/auto" in keys, "the other datasets keep the strategies' one setting"
    assert (config.partitions_for("many_left"), config.partitions_for("skewed")) == (2400, 200)
    assert settings_for("aqe_off", {}, 2400)["spark.sql.shuffle.partitions"] == "2400"
    assert "spark.sql.shuffle.partitions" not in settings_for("aqe_off", {})
    assert BenchConfig(spark_conf={"spark.shuffle.accurateBlockSkewedFactor": "5"}).as_dict()["spark_conf"] == {
        "spark.shuffle.accurateBlockSkewedFactor": "5"}  # fmt: skip
    # h: e's and a's plans on the identical rows' table
    h = {s.key: s for s in scenarios(BenchConfig(datasets=("ident_inner", "ident_left")))}
    assert set(h) >= {"ident_inner/groups", "ident_inner/auto", "ident_left/skew_auto", "ident_left/plain@aqe_off"}
    assert fact_table("ident_left", DatasetSpec()) == "bench_fact_ident"
    assert "bench_fact_ident" in dict(statements(DatasetSpec()))


def test_end_to_end_adds_the_compile_time_queries_to_the_join() -> None:
    from skewjoin_bench.report import cpu_markdown, gives_up, gives_up_markdown

    result, medians = _g_result()
    auto = medians["many_inner/auto@aqe_default"]
    assert auto["compile_jobs"] == 2 and auto["compile_window_s"] == pytest.approx(2.0)
    assert auto["e2e_makespan_s"][64] == pytest.approx(0.8) and auto["e2e_task_s"] == pytest.approx(18.0)
    # a compiled model without a query costs nothing; the plain join's end to end is its join
    assert medians["many_inner/plain@aqe_default"]["compile_makespan_s"][64] == 0.0
    assert medians["many_inner/plain@aqe_default"]["e2e_makespan_s"][64] == pytest.approx(4.0)
    rows = {(r.dataset, r.strategy, r.settings): r for r in gives_up(result, medians)}
    on = rows[("many_inner", "auto", "aqe_default")]
    assert on.best_profile == "aqe_default" and on.best_makespan == pytest.approx(4.0)
    assert on.vs_best == pytest.approx(0.125) and on.e2e_vs_best == pytest.approx(0.2)
    assert on.target == ("<= 1/5 of Spark's best", 0.2) and on.passed is True
    # the plan with AQE off is held to the plain join with AQE off for its task time
    off = rows[("many_inner", "auto", "aqe_off")]
    assert off.task_time_vs_plain == pytest.approx(1.1) and off.e2e_task_vs_plain == pytest.approx(1.3)
    assert off.e2e_vs_best == pytest.approx(1.3 / 4.0) and off.passed is False
    assert on.task_time_vs_plain == pytest.approx(1.2) and on.e2e_task_vs_plain == pytest.approx(1.8)
    # e: 'auto' within 1.05x of Spark's best end to end (no compile-time query measured here: 0)
    e = rows[("skewed", "auto", "aqe_scaled")]
    assert e.target == ("<= 1.05x Spark's best", 1.05) and e.e2e_vs_best == pytest.approx(1.04) and e.passed
    md = "\n".join(gives_up_markdown(result, list(rows.values())))
    assert "| 0.50 s | 0.30 s | 0.80 s | 0.12 | 0.20 | 5.00 |" in md
    cpu = "\n".join(cpu_markdown(list(rows.values())))
    assert "| hot keys 'auto' | AQE on | 1.20 | 1.80 | 6.00 s | met | **missed** |" in cpu
    # no compile observed (no event log): end to end unknown, the verdict falls back to the join alone
    result, medians = _g_result(e2e=False)
    on = next(r for r in gives_up(result, medians) if r.strategy == "auto" and r.settings == "aqe_default")
    assert on.compile_makespan is None and on.e2e_vs_best is None and on.passed is True


def test_identical_hot_rows_are_reported_by_their_spread() -> None:
    from skewjoin_bench.report import spread_markdown
    from skewjoin_bench.scenarios import heavy_tasks

    assert heavy_tasks([100, 50, 49, 1]) == 2
    assert heavy_tasks([0, 0]) == 0 and heavy_tasks([]) is None
    config = BenchConfig(repetitions=1, datasets=("skewed", "ident_inner"))
    result = _result({})
    result.config = config
    result.scenarios = scenarios(config)
    medians = {
        "skewed/groups": {"join_tasks": 200, "join_rows_max": 100, "join_rows_total": 1000,
                          "join_rows_heavy_tasks": 8, "results_match": True},
        "ident_inner/groups": {"join_tasks": 200, "join_rows_max": 700, "join_rows_total": 1000,
                               "join_rows_heavy_tasks": 1, "results_match": True},
    }  # fmt: skip
    md = "\n".join(spread_markdown(result, medians))
    label = "skew groups (AQE on, scaled skew thresholds)"
    assert f"| e's inner join | {label} | the fact's own rows | 200 | 100 | 10.0% | 8 |" in md
    assert f"| e's inner join | {label} | identical (k, 1) | 200 | 700 | 70.0% | 1 |" in md
    result.scenarios = scenarios(BenchConfig(datasets=("skewed",)))
    assert spread_markdown(result, medians) == [], "no h, no section"


def test_cli_takes_the_partitions_of_g_and_records_start_settings() -> None:
    runner = CliRunner()
    helped = runner.invoke(bench, ["--help"])
    assert "--many-partitions" in helped.output and "many_inner" in helped.output
    wrong = runner.invoke(bench, ["--many-partitions", "1"])
    assert wrong.exit_code == 2


# -- issue 29: each skewjoin model compiles under the settings it runs with ----------------------


class _FakeBackend:
    """A backend that answers the run's queries with one checksum row and keeps its session settings."""

    description = "fake"

    def __init__(self, events: list[tuple[str, Any]]) -> None:
        self.conf: dict[str, str] = {"spark.sql.adaptive.enabled": "true"}
        self.events = events

    def sql(self, sql: str, marker: str | None = None, label: str | None = None) -> list[tuple[Any, ...]]:
        if sql.startswith("select version()"):
            return [("4.0.1",)]
        if "sj_rows" in sql:
            self.events.append(("run", marker))
            return [(10, 1, 2)]
        return []

    def get_conf(self, key: str) -> str | None:
        return self.conf.get(key)

    def set_conf(self, key: str, value: str | None) -> None:
        if value is None:
            self.conf.pop(key, None)
        else:
            self.conf[key] = value

    def event_log_dir(self) -> Path | None:
        return None


_HANDED_BACK_RECORD = (
    "/* skewjoin.skew_join decision record (model bench_{ds}_skew_auto)\n"
    "  auto: AQE forecast (would Spark split the plain join itself?): yes (AQE on, 200 shuffle partitions, the "
    "join is the whole model), for every key: the plain join is written and AQE splits it\n"
    "  strategy: plain join, handed back to AQE (auto's forecast above: AQE splits every planned key as finely "
    "as the skew plan would)\n*/\nselect 1"
)
_KEPT_RECORD = (
    "/* skewjoin.skew_join decision record (model bench_{ds}_skew_auto)\n"
    "  auto: AQE forecast (would Spark split the plain join itself?): not for every key (...): key 0: under twice "
    "the skew bar; the skew plan is kept\n"
    "  strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned\n*/\nselect 1"
)


def _fake_compiler(backend: _FakeBackend, events: list[tuple[str, Any]]) -> Any:
    """dbt compile as the bench calls it: skew_join 'auto' hands back where the session's skew threshold is
    scaled (set), as the macro does where that session's AQE splits the hot partitions."""
    windows: dict[str, tuple[int, int]] = {}

    def compile_models(variables: dict[str, Any]) -> dict[str, str]:
        models = variables["skewjoin_bench_models"]
        events.append(("compile", (tuple(models), dict(backend.conf))))
        out = {}
        for i, model in enumerate(models):
            windows[model] = (1000 * len(events) + i, 1000 * len(events) + i + 1)
            ds = model[len("bench_") : -len("_skew_auto")] if model.endswith("_skew_auto") else ""
            scaled = "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes" in backend.conf
            out[model] = (_HANDED_BACK_RECORD if scaled else _KEPT_RECORD).format(ds=ds) if ds else "select 1"
        return out

    compile_models.windows = windows  # type: ignore[attr-defined]
    return compile_models


def test_skewjoin_models_compile_after_the_warm_up_under_the_settings_they_run_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from skewjoin_bench.report import aqe_forecast, compiled_under_markdown, gives_up, gives_up_markdown, handed_back
    from skewjoin_bench.scenarios import Bench

    events: list[tuple[str, Any]] = []
    backend = _FakeBackend(events)
    config = BenchConfig(repetitions=1, datasets=("wide", "skewed"), data=DatasetSpec(rows=100_000))
    bench_ = Bench(config, backend, _fake_compiler(backend, events), progress=lambda line: None)
    monkeypatch.setattr(Bench, "generate", lambda self: None)
    monkeypatch.setattr(Bench, "measure_keys", lambda self: {"skewed": KeyStats(rows=100_000, top=[(0, 70_000)])})
    result = bench_.run(command="skewjoin-bench", started="2026-11-26T00:00:00", machine={"cores": 2})

    compiles = [(i, e[1]) for i, e in enumerate(events) if e[0] == "compile"]
    warm_up = next(i for i, e in enumerate(events) if e[0] == "run")
    # 1. the plain joins, before the warm-up, with the run's partitions alone
    (first, (models, conf)), (second, (others, scaled_conf)) = compiles
    assert first < warm_up < second
    assert models == ("bench_skewed_plain", "bench_wide_plain")
    assert conf == {"spark.sql.adaptive.enabled": "true", "spark.sql.shuffle.partitions": "200"}
    # 2. after it, every skewjoin model under aqe_scaled: the thresholds the warm-up made (here its estimate)
    assert set(others) == {s.model for s in scenarios(config) if not s.is_baseline}
    scaled = scaled_aqe_settings(100_000 * 48, 200)
    assert result.scaled_settings == scaled
    assert {k: scaled_conf[k] for k in scaled} == scaled
    assert scaled_conf["spark.sql.adaptive.enabled"] == "true"
    assert scaled_conf["spark.sql.autoBroadcastJoinThreshold"] == "-1"
    # the session is put back after the compile: the warm-up's settings (the plain join, AQE off), not scaled ones
    runs_after = [i for i, e in enumerate(events) if e[0] == "run" and i > second]
    assert runs_after, "the measured runs come after the second compile"
    assert result.timings["dbt_compile"] == pytest.approx(
        result.timings["dbt_compile_plain"] + result.timings["dbt_compile_strategies"], abs=0.02
    )
    # every model's compile window and what it compiled under are kept
    assert set(result.compile_windows) == {s.model for s in scenarios(config)}
    assert result.compiled_under["bench_wide_plain"]["profile"] == "plain"
    assert result.compiled_under["bench_wide_skew_auto"] == {
        "profile": "aqe_scaled", "settings": settings_for("aqe_scaled", scaled, 200)}  # fmt: skip
    assert all(r.matches_plain for r in result.runs)

    # the report says what 'auto' compiled under and where it handed the join back
    record = result.decision_records["bench_wide_skew_auto"]
    assert handed_back(record) is True
    assert handed_back(_KEPT_RECORD) is False and handed_back("/* hot keys */") is None
    # left to AQE before counting (AQE's regime), by skew_join 'auto' and by hot keys 'auto'; a regime line
    # that says measure is no hand-back
    regime = "auto: AQE regime (measure, or leave the join to AQE?): "
    left = f"/* {regime}left to AQE, nothing counted: ...\nstrategy: plain join, left to AQE (...) */"
    assert handed_back(left) is True and handed_back(left.replace("/* auto:", "/* hot keys 'auto':")) is True
    assert handed_back(f"/* {regime}measure: ...\nstrategy: hot keys by broadcast */") is False
    assert aqe_forecast(f"/* hot keys '{regime}measure: x */") == "regime: measure: x */"
    md = "\n".join(compiled_under_markdown(result, {"skewed/skew_auto": {"skew_split_joins": 1}}))
    assert (
        "| c. both sides hot on the same key (the output explodes) | skew_join 'auto' → handed back to AQE "
        "(the plain join) | AQE on, scaled skew thresholds | AQE on, scaled skew thresholds "
        f"(`advisoryPartitionSizeInBytes` = {scaled['spark.sql.adaptive.advisoryPartitionSizeInBytes']}, "
        f"`skewedPartitionThresholdInBytes` = "
        f"{scaled['spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes']}, `skewedPartitionFactor` = 2.0), "
        "200 partitions | yes (AQE on, 200 shuffle partitions, the join is the whole model), for every key: the "
        "plain join is written and AQE splits it | plain join, handed back to AQE" in md
    )
    rows = [line for line in md.splitlines() if line.startswith("| ") and "skew_join 'auto'" in line]
    split = {line.split(" | ")[0]: line.rsplit(" | ", 2)[-1] for line in rows}
    assert split == {"| c. both sides hot on the same key (the output explodes)": "– |",
                     "| e. inner join, the fact hot (AQE's own case)": "yes |"}  # fmt: skip
    assert "| hot keys 'auto' | AQE on, scaled skew thresholds |" in md and "| – | – |" in md
    medians = {s.key: {"ok_runs": 1, "makespan_s": {64: 1.0}} for s in result.scenarios}
    rows = gives_up(result, medians)
    auto_e = next(r for r in rows if r.dataset == "skewed" and r.strategy == "skew_auto")
    assert auto_e.handed_back is True and auto_e.compiled_under == "aqe_scaled"
    assert "| skew_join 'auto' → handed back to AQE (the plain join) | AQE on, scaled skew thresholds |" in "\n".join(
        gives_up_markdown(result, rows)
    )


def test_with_strategies_under_aqe_defaults_the_models_compile_under_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """--read local (strategy settings aqe_default) and g (AQE on, then off): no scaled threshold at compile."""
    from skewjoin_bench.report import handed_back
    from skewjoin_bench.scenarios import Bench

    events: list[tuple[str, Any]] = []
    backend = _FakeBackend(events)
    config = BenchConfig(repetitions=1, datasets=("skewed", "many_inner"), strategy_settings="aqe_default",
                         data=DatasetSpec(rows=100_000), warmup=False)  # fmt: skip
    bench_ = Bench(config, backend, _fake_compiler(backend, events), progress=lambda line: None)
    monkeypatch.setattr(Bench, "generate", lambda self: None)
    monkeypatch.setattr(Bench, "measure_keys", lambda self: {"skewed": KeyStats(rows=100_000, top=[(0, 70_000)])})
    result = bench_.run(command="skewjoin-bench", started="2026-11-26T00:00:00", machine={"cores": 2})
    compiles = [e[1] for e in events if e[0] == "compile"]
    by_model = {m: conf for models, conf in compiles for m in models}
    assert by_model["bench_many_inner_plain"]["spark.sql.shuffle.partitions"] == "2400"
    assert by_model["bench_many_inner_skew_auto"]["spark.sql.shuffle.partitions"] == "2400"
    assert by_model["bench_many_inner_skew_auto"]["spark.sql.adaptive.enabled"] == "true"
    assert by_model["bench_skewed_skew_auto"]["spark.sql.shuffle.partitions"] == "200"
    assert all("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes" not in c
               for models, c in compiles if not any(m.endswith("_scaled") for m in models))  # fmt: skip
    assert result.compiled_under["bench_many_inner_auto"]["profile"] == "aqe_default"
    # g's scaled runs: their own models, compiled under the scaled thresholds, alone in their dbt call
    scaled = by_model["bench_many_inner_skew_auto_scaled"]
    assert "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes" in scaled
    assert scaled["spark.sql.shuffle.partitions"] == "2400"
    assert result.compiled_under["bench_many_inner_auto_scaled"]["profile"] == "aqe_scaled"
    assert handed_back(result.decision_records["bench_skewed_skew_auto"]) is False


def test_the_session_is_put_back_after_each_compile() -> None:
    from skewjoin_bench.scenarios import Bench

    events: list[tuple[str, Any]] = []
    backend = _FakeBackend(events)
    backend.conf = {"spark.sql.shuffle.partitions": "200", "spark.sql.adaptive.enabled": "false"}
    before = dict(backend.conf)
    config = BenchConfig(datasets=("skewed", "many_left"))
    bench_ = Bench(config, backend, _fake_compiler(backend, events), progress=lambda line: None)
    others = [s for s in scenarios(config) if not s.is_baseline]
    scaled = scaled_aqe_settings(10_000_000, 200)
    got = bench_._compile_under_run_settings({}, others, lambda s: scaled)
    assert set(got) == {s.model for s in others}
    assert backend.conf == before
    # one dbt call per distinct set of settings: e's strategies (scaled, 200 partitions), g's (AQE on, 2400),
    # g's scaled runs (scaled, 2400)
    calls = [e[1] for e in events if e[0] == "compile"]
    assert [c["spark.sql.shuffle.partitions"] for _, c in calls] == ["200", "2400", "2400"]
    assert calls[0][1]["spark.sql.adaptive.advisoryPartitionSizeInBytes"] == "50000"
    assert "spark.sql.adaptive.advisoryPartitionSizeInBytes" not in calls[1][1]

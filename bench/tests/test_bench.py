"""`skewjoin-bench --smoke` in this process: a local Spark application, the event log in tmp.

Checks the harness end to end on tiny data: the outputs exist, every
scenario's result equals the plain join's (count and checksum), the plain
join's row count is what the generator's key counts predict, the event log
parses into metrics, and the plans show what the strategies promise (no hot
row hash-shuffled by the hot-keys strategy, fewer partitions read by
prune_predicate). No timing is asserted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skewjoin_bench.command import run_bench
from skewjoin_bench.scenarios import smoke_config


@pytest.mark.spark
def test_smoke_benchmark_runs_checks_and_measures(tmp_path: Path) -> None:
    lines: list[str] = []
    config = smoke_config()
    result, paths = run_bench(
        config,
        tmp_path / "out",
        command="skewjoin-bench --smoke",
        master="local[2]",
        driver_memory="1g",
        progress=lines.append,
    )
    # outputs
    assert set(paths) == {"json", "md", "png", "gives_up_png"}
    for path in paths.values():
        assert path.is_file() and path.stat().st_size > 0
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = paths["md"].read_text()
    assert "## Targets" in md and "skewjoin-bench --smoke" in md and " cores" in md
    assert "## Where Spark gives up" in md
    assert {r["dataset"] for r in json.loads(paths["json"].read_text())["where_spark_gives_up"]} >= {
        "left",
        "full",
        "aggregated",
        "skewed",
    }
    data = json.loads(paths["json"].read_text())
    assert data["config"]["data"]["rows"] == config.data.rows
    assert not (paths["md"].parent / "warehouse").exists(), "the generated data is removed after the run"

    # one progress line per run, and every run checked against the plain join
    expected_runs = len(result.scenarios) * config.repetitions
    assert len(result.runs) == expected_runs
    assert sum(1 for line in lines if line.startswith("[")) == expected_runs
    assert [r for r in result.runs if r.error] == []
    assert all(r.matches_plain is True for r in result.runs), [(r.scenario, r.rows) for r in result.runs]

    # the generator's counts predict the join's size: every fact row of hot key 0 matches hot_fanout rows
    stats = result.stats["skewed"]
    hot0 = stats.rows_of([0])
    assert stats.rows == config.data.rows
    assert abs(hot0 / stats.rows - config.data.hot_share) < 0.03
    plain = result.runs_of("skewed/plain@aqe_off")[0]
    assert plain.rows == stats.rows + hot0 * (config.data.hot_fanout - 1)
    # scenario d reads its own, larger fact: its join rows are predicted by that fact's counts, its scans
    # read it and not the skewed fact, and its straggler is reported with its rows
    own = result.stats["aggregated"]
    assert own.rows == config.data.aggregated_rows != stats.rows
    assert abs(own.rows_of([0]) / own.rows - config.data.hot_share) < 0.03
    aggregated = result.runs_of("aggregated/plain@aqe_off")[0]
    assert aggregated.metrics is not None
    assert aggregated.metrics.hash_shuffled_records("bench_fact_aggregated") == own.rows
    assert aggregated.metrics.hash_shuffled_records("bench_fact_skewed") == 0
    assert "inner join, then an aggregate by the join key: " in md and f"({own.rows:,} fact rows)" in md
    assert "bench_fact_aggregated" in result.compiled["bench_aggregated_auto"]

    # end to end: every compiled model has a compile window, the 'auto' models ran queries in theirs (their
    # counts) and the plain join none; the report adds them ahead of the join
    assert {s.model for s in result.scenarios} <= set(result.compile_windows)
    assert result.compile_metrics["bench_skewed_auto"].jobs >= 1
    assert "bench_skewed_plain" not in result.compile_metrics
    auto = next(r for r in data["where_spark_gives_up"] if r["dataset"] == "skewed" and r["strategy"] == "auto")
    assert auto["compile_makespan"] > 0 and auto["e2e_makespan"] == pytest.approx(
        auto["makespan"] + auto["compile_makespan"]
    )
    assert "## Task time of the 'auto' plans" in md

    # each skewjoin model compiled under the settings it runs with: skew_join 'auto' read the scaled threshold
    # (twice the advisory size) in its compile session, and the model is the join alone
    under = result.compiled_under["bench_skewed_skew_auto"]
    assert under["profile"] == "aqe_scaled" and result.compiled_under["bench_skewed_plain"]["profile"] == "plain"
    threshold = int(result.scaled_settings["spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes"])
    assert under["settings"]["spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes"] == str(threshold)
    forecast = result.decision_records["bench_skewed_skew_auto"]
    assert f"skewedPartitionThresholdInBytes {threshold / 1024:.1f} KiB" in forecast
    assert "the join is the whole model" in forecast
    assert "## What the 'auto' plans compiled under" in md and data["compiled_under"]["bench_skewed_skew_auto"]

    # the compiled SQL is dbt's, with the macros' decision records
    assert "skewjoin.skew_join" in result.decision_records["bench_skewed_groups"]
    assert "skew groups" in result.decision_records["bench_skewed_groups"]
    assert "hot keys of f (declared)" in result.decision_records["bench_skewed_hot_keys"]
    # the declared keys counted at compile time: key 0 (70% of the rows) is kept
    assert "hot key 0 of f verified" in result.decision_records["bench_skewed_hot_keys"]
    left_record = result.decision_records["bench_left_auto"]
    assert "hot keys of f found at compile time" in left_record
    assert "multicast: those rows of d are broadcast" in left_record
    # Spark's AQE never splits the null-supplying side: no skew-split join in any plain left join's final plan
    for run in result.runs:
        if run.scenario.startswith("left/plain@"):
            assert run.metrics is not None and run.metrics.skew_split_joins == 0, run.scenario
    assert "prune_predicate" in result.decision_records["bench_prune_macro"]
    assert result.decision_records["bench_skewed_plain"] == ""

    # the event log parsed into metrics for every run
    assert result.event_log and Path(result.event_log).is_file()
    for run in result.runs:
        m = run.metrics
        assert m is not None, run.scenario
        assert m.tasks > 0 and m.total_task_s > 0 and m.join_stage is not None
        assert m.makespan_s[2] >= m.makespan_s[256] > 0
        assert m.makespan_s[256] >= max(m.join_stage_durations) - 1e-9
    # the plain join hash-shuffles every fact row; the hot-keys strategy none of the hot ones
    assert plain.metrics is not None and plain.metrics.hash_shuffled_records("bench_fact_skewed") == stats.rows
    hot = result.runs_of("skewed/hot_keys")[0]
    assert hot.metrics is not None
    assert hot.metrics.hash_shuffled_records("bench_fact_skewed") == stats.rows - result.hot_rows["hot_keys"]
    # prune_predicate reads only the holidays' partitions; the plain join without DPP reads them all
    pruned = result.runs_of("pruning/prune_predicate")[0].metrics
    unpruned = result.runs_of("pruning/plain@dpp_off")[0].metrics
    assert pruned is not None and unpruned is not None
    holidays = config.data.days // config.data.holiday_every
    assert sum(s.partitions or 0 for s in pruned.scanned("bench_sales_by_day")) == holidays
    assert sum(s.partitions or 0 for s in unpruned.scanned("bench_sales_by_day")) == config.data.days

    # every target has a verdict computed from measurements (the smoke data is too small to judge them)
    assert data["targets"] and all(t["measured"] is not None for t in data["targets"])

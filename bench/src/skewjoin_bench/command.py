"""``skewjoin-bench``: the command line, and :func:`run_bench` that tests call in-process."""

from __future__ import annotations

import datetime as _dt
import logging
import os
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from skewjoin.cli import host_port, spark_conf
from skewjoin.errors import SkewjoinError, SparkSqlError
from skewjoin_bench.eventlog import EventLog, EventLogError, find_event_log
from skewjoin_bench.report import write_outputs
from skewjoin_bench.scenarios import Bench, BenchConfig, BenchResult, attach_metrics, smoke_config
from skewjoin_bench.schedule import ORDERS
from skewjoin_bench.spark import Backend, BenchError, LocalBackend, ThriftBackend, local_settings, machine

logger = logging.getLogger("skewjoin_bench")

_C = BenchConfig()  # the defaults the options show
_D = _C.data

BENCH_MODELS = "path:models/bench"


def default_project_dir() -> Path | None:
    """``integration_tests/`` of the repository this package was installed from (editable), if any."""
    for candidate in (os.environ.get("SKEWJOIN_REPO"), Path(__file__).resolve().parents[3]):
        if candidate and (Path(candidate) / "integration_tests" / "dbt_project.yml").is_file():
            return Path(candidate) / "integration_tests"
    return None


def node_windows(windows: dict[str, tuple[int, int]]) -> Callable[[Any], None]:
    """A dbt callback that records, in *windows*, when dbt began and finished each model: ``{model name:
    (start, end)}`` in epoch milliseconds, the clock of Spark's event log. dbt compiles one model at a time
    (the profiles' ``threads: 1``), so the Spark jobs submitted in a model's window are its compile-time
    queries (:meth:`~skewjoin_bench.eventlog.EventLog.jobs_between`)."""

    def callback(event: Any) -> None:
        name = getattr(getattr(event, "info", None), "name", "")
        if name not in ("NodeStart", "NodeFinished"):
            return
        node = getattr(getattr(event, "data", None), "node_info", None)
        model = str(getattr(node, "node_name", "") or "")
        if not model:
            return
        now = int(time.time() * 1000)
        start, _end = windows.get(model, (now, now))
        windows[model] = (now, now) if name == "NodeStart" else (start, now)

    return callback


def dbt_compiler(
    project_dir: Path, target: str, work_dir: Path, env: dict[str, str]
) -> Callable[[dict[str, Any]], dict[str, str]]:
    """A function that compiles the bench models with *variables* and returns ``{model: compiled SQL}``.

    It records when dbt compiled each model in its attribute ``windows`` (see :func:`node_windows`)."""
    windows: dict[str, tuple[int, int]] = {}

    def compile_models(variables: dict[str, Any]) -> dict[str, str]:
        from skewjoin.dbt_runner import compiled_sql, run_dbt

        # only the models of the scenarios that run (the pruning and star macros query their tables
        # at compile time, and those tables exist only when their scenarios run)
        models = variables.pop("skewjoin_bench_models", None)
        select = ["--select", *models] if models else ["--select", BENCH_MODELS]

        log_path = work_dir / "dbt-logs"
        target_path = work_dir / "dbt-target"
        common = ["--log-path", str(log_path), "--quiet"]
        if not (project_dir / "dbt_packages" / "skewjoin").exists():
            run_dbt(["deps", *common], project_dir, project_dir, target, env=env)
        run_dbt(
            ["compile", *select, "--target-path", str(target_path), *common],
            project_dir,
            project_dir,
            target,
            vars=variables,
            env=env,
            callbacks=[node_windows(windows)],
        )
        names = sorted({p.stem for p in (target_path / "compiled").rglob("bench_*.sql")})
        return {name: compiled_sql(project_dir, name, str(target_path)) for name in names}

    compile_models.windows = windows  # type: ignore[attr-defined]
    return compile_models


def run_bench(
    config: BenchConfig,
    out_dir: Path,
    *,
    command: str,
    thrift: tuple[str, int] | None = None,
    event_log: Path | None = None,
    master: str = "local[*]",
    driver_memory: str = "2g",
    conf: dict[str, str] | None = None,
    project_dir: Path | None = None,
    keep_data: bool = False,
    progress: Callable[[str], None] | None = None,
) -> tuple[BenchResult, dict[str, Path]]:
    """Run the benchmark and write its outputs into a new directory under *out_dir*.

    Returns the result and the paths of bench.json, bench.md and bench.png.
    """
    project = project_dir or default_project_dir()
    if project is None or not (project / "dbt_project.yml").is_file():
        raise BenchError(
            "the dbt project with the bench models (integration_tests/) was not found; "
            "pass --project-dir or set SKEWJOIN_REPO to the repository"
        )
    started = _dt.datetime.now().astimezone()
    run_dir = (out_dir / started.strftime("%Y%m%d-%H%M%S")).resolve()
    suffix = 1
    while run_dir.exists():
        suffix += 1
        run_dir = (out_dir / f"{started.strftime('%Y%m%d-%H%M%S')}-{suffix}").resolve()
    run_dir.mkdir(parents=True)
    say = progress or (lambda line: logger.info("%s", line))
    backend: Backend
    env: dict[str, str]
    if thrift:
        backend = ThriftBackend(*thrift, event_log)
        env = {"SKEWJOIN_THRIFT_HOST": backend.host, "SKEWJOIN_THRIFT_PORT": str(backend.port)}
        target = "thrift"
    else:
        settings = local_settings(
            run_dir,
            master=master,
            driver_memory=driver_memory,
            shuffle_partitions=config.shuffle_partitions,
            cluster_cores=config.cluster_cores,
            read=config.read,
            extra=conf,
        )
        say(f"starting a local Spark ({master}), event log in {run_dir / 'eventlog'}")
        backend = LocalBackend(run_dir, settings)
        env = {"SKEWJOIN_SPARK_DIR": str(run_dir)}
        target = "session"
    try:
        bench = Bench(config, backend, dbt_compiler(project, target, run_dir, env), progress=say)
        result = bench.run(command=command, started=started.isoformat(timespec="seconds"), machine=machine())
        app_id = backend.get_conf("spark.app.id")
        log_dir = backend.event_log_dir()
    finally:
        backend.close()  # a local application's event log is complete once it stops
    if log_dir is not None:
        try:
            path = find_event_log(log_dir, app_id)
            say(f"reading the event log {path}")
            problems = attach_metrics(result, EventLog.read(path))
            result = replace(result, event_log=str(path))
            result.notes.extend(problems)
        except EventLogError as exc:
            result.notes.append(f"no metrics: {exc}")
    else:
        result.notes.append(
            "no event log (--thrift without --event-log): wall times and result checks only; start the server "
            "with spark.eventLog.enabled=true, spark.eventLog.dir=DIR, spark.eventLog.compress=false and "
            "spark.eventLog.rolling.enabled=false, and pass --event-log DIR"
        )
    if not keep_data and not thrift:
        shutil.rmtree(run_dir / "warehouse", ignore_errors=True)
    result.timings["total"] = round((_dt.datetime.now().astimezone() - started).total_seconds(), 1)
    paths = write_outputs(result, run_dir)
    return result, paths


# -- the command ------------------------------------------------------------------------


def _parse_slots(value: str) -> tuple[int, ...]:
    try:
        slots = tuple(int(v) for v in value.split(",") if v.strip())
    except ValueError as exc:
        raise click.BadParameter(f"expected numbers separated by commas, e.g. 2,16,64,256; got {value!r}") from exc
    if not slots or any(p < 1 for p in slots):
        raise click.BadParameter(f"expected slot counts >= 1, e.g. 2,16,64,256; got {value!r}")
    return slots


# option name -> (dataclass, field): size options override the preset (default or --smoke) when given
_DATA_OPTIONS = {
    "rows": "rows",
    "aggregated_rows": "aggregated_rows",
    "distinct_keys": "distinct_keys",
    "hot_keys": "hot_keys",
    "hot_share": "hot_share",
    "zipf_exponent": "zipf_exponent",
    "hot_fanout": "hot_fanout",
    "dim_rows_per_key": "dim_rows_per_key",
    "fact_files": "fact_files",
    "seed": "seed",
    "schema": "schema",
    "pruning_rows": "pruning_rows",
    "days": "days",
    "star_rows": "star_rows",
}
_CONFIG_OPTIONS = {
    "shuffle_partitions": "shuffle_partitions",
    "cluster_cores": "cluster_cores",
    "repetitions": "repetitions",
    "warmup_rounds": "warmup_rounds",
    "schedule_order": "order",
    "strategy_settings": "strategy_settings",
    "min_share": "min_share",
    "pruning": "pruning",
    "star": "star",
    "read": "read",
    "many_partitions": "many_partitions",
}


@click.command("skewjoin-bench", short_help="Measure skewjoin's strategies against Spark's own joins (event log).")
@click.option("--smoke", is_flag=True, help="A tiny run (seconds) that checks the harness, not the speed.")
@click.option("--rows", type=click.IntRange(min=1), default=_D.rows, show_default=True, help="Fact rows.")
@click.option(
    "--aggregated-rows",
    type=click.IntRange(min=1),
    default=None,
    help="Fact rows of scenario d (the join, then an aggregate by the key), drawn as the skewed fact in a "
    "table of its own; default: --rows. d's straggler does the least work of the skew scenarios, so "
    "`make bench-large` gives it more rows.",
)
@click.option(
    "--distinct-keys", type=click.IntRange(min=2), default=_D.distinct_keys, show_default=True, help="Join keys."
)
@click.option(
    "--hot-keys", type=click.IntRange(min=0), default=_D.hot_keys, show_default=True, help="Hot keys (0, 1, ...)."
)
@click.option(
    "--hot-share",
    type=click.FloatRange(0, 1, max_open=True),
    default=_D.hot_share,
    show_default=True,
    help="Share of the fact rows on the hot keys (spread evenly over them).",
)
@click.option(
    "--zipf-exponent",
    type=click.FloatRange(min=0),
    default=_D.zipf_exponent,
    show_default=True,
    help="Exponent of the Zipf-like law of the other keys (0: uniform).",
)
@click.option(
    "--hot-fanout",
    type=click.IntRange(min=1),
    default=_D.hot_fanout,
    show_default=True,
    help="Dimension rows of each hot key (each hot fact row matches that many).",
)
@click.option(
    "--dim-rows-per-key",
    type=click.IntRange(min=1),
    default=_D.dim_rows_per_key,
    show_default=True,
    help="Dimension rows of other keys.",
)
@click.option(
    "--fact-files",
    type=click.IntRange(min=1),
    default=_D.fact_files,
    show_default=True,
    help="Parquet files of each fact table (Spark packs small files into fewer input splits).",
)
@click.option(
    "--seed", type=int, default=_D.seed, show_default=True, help="Seed of the generator (same seed, same data)."
)
@click.option("--schema", default=_D.schema, show_default=True, help="Schema of the generated tables.")
@click.option(
    "--pruning-rows",
    type=click.IntRange(min=1),
    default=_D.pruning_rows,
    show_default=True,
    help="Rows of the pruning fact.",
)
@click.option("--days", type=click.IntRange(min=1), default=_D.days, show_default=True, help="Partitions (days) of it.")
@click.option("--pruning/--no-pruning", default=False, show_default=True, help="Run the pruning scenarios.")
@click.option(
    "--star-rows", type=click.IntRange(min=1), default=_D.star_rows, show_default=True, help="Rows of the star fact."
)
@click.option("--star/--no-star", default=False, show_default=True, help="Run the star join scenarios.")
@click.option(
    "--read",
    type=click.Choice(["splits", "local"]),
    default="splits",
    show_default=True,
    help="splits: every fact file one input split and spark.default.parallelism = --cluster-cores (the cluster "
    "model); local: local Spark's own defaults (the small-machine case).",
)
@click.option(
    "--datasets",
    default="",
    help="Comma-separated datasets to run (left,right,full,wide,aggregated,skewed,chain,many_inner,many_left,"
    "ident_inner,ident_left,uniform); default: all.",
)
@click.option(
    "--shuffle-partitions",
    type=click.IntRange(min=2),
    default=_C.shuffle_partitions,
    show_default=True,
    help="spark.sql.shuffle.partitions, and the total slots of the skew groups.",
)
@click.option(
    "--many-partitions",
    type=click.IntRange(min=2),
    default=_C.many_partitions,
    show_default=True,
    help="Scenario g (many_inner, many_left): spark.sql.shuffle.partitions of its runs and of its models' compile, "
    "above spark.shuffle.minNumPartitionsToHighlyCompress (2000).",
)
@click.option(
    "--cluster-cores",
    type=click.IntRange(min=1),
    default=_C.cluster_cores,
    show_default=True,
    help="Local runs: spark.default.parallelism, the cores of the modeled cluster (AQE coalesces toward it).",
)
@click.option(
    "--repetitions", type=click.IntRange(min=1), default=_C.repetitions, show_default=True, help="Runs per scenario."
)
@click.option(
    "--warmup-rounds",
    type=click.IntRange(min=0),
    default=_C.warmup_rounds,
    show_default=True,
    help="Unmeasured rounds of every scenario before the measured ones (code generation and JIT warm-up).",
)
@click.option(
    "--slots", default="2,16,64,256", show_default=True, help="Executor slot counts P of the makespan projection."
)
@click.option(
    "--schedule-order",
    type=click.Choice(ORDERS),
    default="longest-first",
    show_default=True,
    help="Which task of a stage a free slot takes in the projection.",
)
@click.option(
    "--strategy-settings",
    type=click.Choice(["aqe_default", "aqe_off", "aqe_scaled"]),
    default="aqe_scaled",
    show_default=True,
    help="Session settings the skewjoin strategies run with (default: aqe_scaled; with --read local, aqe_default).",
)
@click.option(
    "--min-share",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=_C.min_share,
    show_default=True,
    help="A key with at least this share of the fact rows is a skewed key of the models' configs.",
)
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=Path("bench-results"),
              show_default=True, help="Outputs go to a new directory OUT/<date-time>/.")  # fmt: skip
@click.option(
    "--thrift",
    metavar="HOST:PORT",
    callback=host_port,
    help="Run on this Spark Thrift Server (PyHive) instead of a local Spark.",
)
@click.option(
    "--event-log",
    type=click.Path(file_okay=False, path_type=Path),
    help="With --thrift: the directory the server writes its event log to (it must be readable here).",
)
@click.option("--master", default="local[*]", show_default=True, help="Local runs: spark.master.")
@click.option("--driver-memory", default="2g", show_default=True, help="Local runs: spark.driver.memory.")
@click.option(
    "--conf",
    "conf",
    multiple=True,
    metavar="KEY=VALUE",
    callback=spark_conf,
    help="Local runs: extra Spark config, repeatable.",
)
@click.option(
    "--project-dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="The dbt project with models/bench.  [default: integration_tests/ of this repository]",
)
@click.option("--keep-data", is_flag=True, help="Local runs: keep the generated warehouse in the output directory.")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines on stderr.")
@click.pass_context
def bench(ctx: click.Context, **options: Any) -> None:
    """Measure skewjoin's strategies against Spark's own joins on generated skewed data.

    In one Spark application: generate the data (Parquet, deterministic by
    --seed), compile the dbt models of integration_tests/models/bench with
    `dbt compile`, then run each scenario --repetitions times in rotating
    order: the plain join with AQE off, AQE on, and AQE with skew thresholds
    scaled to the data; skew groups, hot keys, and both; the same strategies
    on uniform data; Spark's dynamic partition pruning against
    prune_predicate; Spark's per-table broadcast threshold against star_join.
    Every result is checked against the plain join (count and
    checksum). Metrics come from Spark's event log: task times, the join
    stage's max/median task, shuffle bytes, spill, and the makespan the same
    tasks would take on --slots executor slots.

    \b
    Outputs (a new directory under --out): bench.md (medians, ratios against
    the targets, the command, date and machine), bench.json (every run) and
    bench.png (makespan vs P; join-stage task times).

    \b
    Examples:
      skewjoin-bench                       # the default size, every dataset: about 9.5 min on 2 cores
      skewjoin-bench --smoke               # seconds: checks the harness
      skewjoin-bench --rows 200000000 --distinct-keys 10000000 --shuffle-partitions 2000 \\
          --fact-files 2000 --thrift spark-thrift.example.com:10000 --event-log /mnt/spark-events

    \b
    Against a Thrift server the compiled SQL runs over PyHive, and the metrics
    need the server's event log: start it with
      --conf spark.eventLog.enabled=true --conf spark.eventLog.dir=DIR
      --conf spark.eventLog.compress=false --conf spark.eventLog.rolling.enabled=false
    and pass --event-log DIR (a path this machine can read). Without it the
    run reports wall times and result checks only.
    """
    quiet = options.pop("quiet")
    if not quiet and logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
    if not logging.getLogger().handlers:
        logging.basicConfig(stream=sys.stderr, format="%(asctime)s %(message)s")
    if options["event_log"] and not options["thrift"]:
        raise click.UsageError("--event-log is for --thrift runs; a local run writes its own event log")
    if options["thrift"] and (
        options["conf"] or ctx.get_parameter_source("master") != click.core.ParameterSource.DEFAULT
    ):
        raise click.UsageError("--master and --conf configure the local Spark; --thrift uses a server")
    config = smoke_config() if options["smoke"] else BenchConfig()
    given = {
        name for name in options if ctx.get_parameter_source(name) not in (click.core.ParameterSource.DEFAULT, None)
    }
    data_changes = {field: options[name] for name, field in _DATA_OPTIONS.items() if name in given}
    config_changes = {field: options[name] for name, field in _CONFIG_OPTIONS.items() if name in given}
    if "slots" in given:
        config_changes["slots"] = _parse_slots(options["slots"])
    if options["conf"]:
        config_changes["spark_conf"] = dict(options["conf"])
    if options["datasets"]:
        config_changes["datasets"] = tuple(d.strip() for d in options["datasets"].split(",") if d.strip())
    if options["read"] == "local" and "strategy_settings" not in given:
        # read as local Spark reads it: the strategies run as a local user's would, with Spark's defaults
        # (scaling AQE's advisory size models a cluster's partition sizes; locally it only adds tasks)
        config_changes["strategy_settings"] = "aqe_default"
    try:
        config = replace(config, data=replace(config.data, **data_changes), **config_changes)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    command = "skewjoin-bench" + "".join(" " + shlex.quote(a) for a in sys.argv[1:])
    try:
        result, paths = run_bench(
            config,
            options["out_dir"],
            command=command,
            thrift=options["thrift"],
            event_log=options["event_log"],
            master=options["master"],
            driver_memory=options["driver_memory"],
            conf=options["conf"],
            project_dir=options["project_dir"],
            keep_data=options["keep_data"],
        )
    except SkewjoinError as exc:  # BenchError, and Spark's: SparkStartError, SparkConnectError, SparkSqlError
        sql = f"\n-- sql:\n{exc.sql[:2000]}" if isinstance(exc, SparkSqlError) else ""
        raise click.ClickException(exc.summary() + sql) from exc
    failed = [r for r in result.runs if r.error or r.matches_plain is False]
    for kind in ("md", "json", "png"):
        if kind in paths:
            click.echo(str(paths[kind]))
    if failed:
        raise click.ClickException(f"{len(failed)} run(s) failed or differ from the plain join; see {paths['md']}")

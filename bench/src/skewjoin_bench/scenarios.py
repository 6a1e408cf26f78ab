"""The benchmark's scenarios and the run that measures them in one Spark application.

A run:

1. generates the tables (:mod:`skewjoin_bench.generator`) and measures the
   skewed fact's heaviest keys;
2. compiles the plain joins' dbt models of ``integration_tests/models/bench``
   with ``dbt compile`` (vars: the skewed keys, the slot count) on the same
   Spark, so the SQL under test is exactly what dbt generates from real models;
3. runs the skewed plain join once to warm up (untimed; it also measures
   the shuffle size the scaled AQE settings use), and scenario d's plain join
   too when d has a fact of its own (``--aggregated-rows``): its settings are
   scaled to its own shuffle;
3b. compiles every other model in a session holding the settings it runs
   with (:meth:`Bench._compile_under_run_settings`): with ``aqe_scaled`` the
   thresholds scaled in step 3, so skew_join ``'auto'``, which reads the
   session's AQE settings at compile time and hands the join back to AQE
   where they split its hot partitions, sees what it runs under, as a user
   who sets the scaled thresholds for the run has it
   (docs/decisions/0010-aqe-settings-per-model.md); the session is put back
   after each compile;
4. runs every scenario ``repetitions`` times, rounds in rotating order (each
   scenario takes every position of the round in turn, so drift and caches do
   not favour one), each query wrapped in a count and an order-independent
   checksum (``sum(hash(*))``, ``sum(xxhash64(*) >> 32)``) that must equal the
   plain join's on the same data;
5. reads the event log and measures each run (:mod:`skewjoin_bench.eventlog`).
"""

from __future__ import annotations

import logging
import re
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from skewjoin.errors import SparkSqlError
from skewjoin_bench.eventlog import EventLog, EventLogError, RunMetrics, find_event_log
from skewjoin_bench.generator import (
    DatasetSpec,
    KeyStats,
    key_stats_sql,
    parse_key_stats,
    skewed_keys,
    statements,
)
from skewjoin_bench.schedule import Order
from skewjoin_bench.spark import Backend, BenchError, spark_version

logger = logging.getLogger(__name__)

FACT_TABLE = {
    "left": "bench_fact_skewed",
    "right": "bench_fact_skewed",
    "full": "bench_fact_skewed",
    "wide": "bench_fact_skewed",
    "skewed": "bench_fact_skewed",
    "aggregated": "bench_fact_skewed",
    "chain": "bench_fact_skewed",
    "many_inner": "bench_fact_skewed",
    "many_left": "bench_fact_skewed",
    # scenario h's fact is a table of its own (the skewed fact's keys and a constant)
    "ident_inner": "bench_fact_ident",
    "ident_left": "bench_fact_ident",
    "uniform": "bench_fact_uniform",
    "pruning": "bench_sales_by_day",
    "star": "bench_star_sales",
}


def fact_table(dataset: str, data: DatasetSpec) -> str:
    """The fact table a dataset's joins read (d's own when ``data.aggregated_rows`` gives it one)."""
    return data.aggregated_fact if dataset == "aggregated" else FACT_TABLE.get(dataset, "")


#: Settings of the AQE skew-join handling the scaled profile changes.
_AQE_SCALED_KEYS = (
    "spark.sql.adaptive.advisoryPartitionSizeInBytes",
    "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes",
    "spark.sql.adaptive.skewJoin.skewedPartitionFactor",
    "spark.sql.adaptive.coalescePartitions.minPartitionSize",
)

#: The skew scenarios of issue 12, in report order: dataset -> (letter, what it is).
SKEW_SCENARIOS = {
    "left": ("a", "dim LEFT JOIN fact, the fact (null-supplying side) hot"),
    "right": ("a", "fact RIGHT JOIN dim, the fact (null-supplying side) hot"),
    "full": ("b", "fact FULL JOIN dim, a hot key on each side"),
    "wide": ("c", "both sides hot on the same key (the output explodes)"),
    "aggregated": ("d", "inner join, then an aggregate by the join key"),
    "skewed": ("e", "inner join, the fact hot (AQE's own case)"),
    "chain": ("f", "fact JOIN d1 JOIN d2 on one key, the fact hot (AQE cannot split the second join)"),
    "many_inner": ("g", "e's inner join with more than 2000 shuffle partitions"),
    "many_left": ("g", "a's dim LEFT JOIN fact with more than 2000 shuffle partitions"),
    "ident_inner": ("h", "e's inner join, the fact's hot rows identical (key and a constant)"),
    "ident_left": ("h", "a's dim LEFT JOIN fact, the fact's hot rows identical (key and a constant)"),
}

#: scenario g: the datasets that run with ``BenchConfig.many_partitions`` shuffle partitions, their models
#: compiled with that session setting (their plans take total_slots from the session)
MANY_PARTITIONS_DATASETS = ("many_inner", "many_left")

SETTINGS_LABELS = {
    "aqe_off": "AQE off",
    "aqe_default": "AQE on",
    "aqe_scaled": "AQE on, scaled skew thresholds",
    "aqe_forced": "AQE on, scaled skew thresholds, forceOptimizeSkewedJoin",
    "dpp_off": "DPP off",
    "dpp_on": "DPP on",
    "spark_defaults": "Spark defaults: AQE on, 10 MB broadcast threshold",
}

STRATEGY_LABELS = {
    "plain": "plain join",
    "groups": "skew groups",
    "hot_keys": "hot keys (broadcast)",
    "both": "hot keys + skew groups",
    "auto": "hot keys 'auto'",
    "skew_auto": "skew_join 'auto'",
    "nested_groups": "skew_join in skew_join, skew groups",
    "prune_predicate": "prune_predicate",
    "star_join": "star_join",
}


def strategy_label(dataset: str, strategy: str) -> str:
    """A strategy's name in the reports (the chain's groups and hot keys are skew_join_chain's)."""
    what = STRATEGY_LABELS.get(strategy, strategy)
    return f"skew_join_chain, {what}" if dataset == "chain" and strategy in ("groups", "hot_keys") else what


@dataclass(frozen=True)
class Scenario:
    """One query under one set of session settings."""

    key: str  # dataset/strategy[@settings]
    dataset: str  # skewed | aggregated | uniform | pruning | star
    model: str  # the dbt model whose compiled SQL runs
    strategy: str  # plain | groups | hot_keys | both | auto | skew_auto | prune_predicate | star_join
    settings: str  # a key of SETTINGS_LABELS

    @property
    def label(self) -> str:
        return f"{strategy_label(self.dataset, self.strategy)} ({SETTINGS_LABELS.get(self.settings, self.settings)})"

    @property
    def is_baseline(self) -> bool:
        return self.strategy == "plain"


@dataclass
class BenchConfig:
    """Everything a benchmark run was asked for."""

    data: DatasetSpec = field(default_factory=DatasetSpec)
    shuffle_partitions: int = 200
    cluster_cores: int = 64
    repetitions: int = 3
    slots: tuple[int, ...] = (2, 16, 64, 256)
    order: Order = "longest-first"
    #: the skewjoin strategies run with AQE's advisory partition size scaled to the data, as the plain
    #: join's fair-chance setting does: coalescing then keeps about as many partitions as a cluster,
    #: whose partitions exceed the 64 MB default, would (see the README, Performance)
    strategy_settings: str = "aqe_scaled"
    min_share: float = 0.01
    pruning: bool = False
    star: bool = False
    warmup: bool = True
    #: unmeasured rounds of every scenario before the measured ones: the first runs of a query pay for
    #: its whole-stage code generation and the JIT compiling that code (README, "How it is measured")
    warmup_rounds: int = 0
    #: how the input is read: "splits" (each fact file one split and spark.default.parallelism =
    #: cluster_cores: the cluster model) or "local" (as local Spark reads it, its own defaults)
    read: str = "splits"
    #: the datasets to run (None: every one)
    datasets: tuple[str, ...] | None = None
    #: scenario g's spark.sql.shuffle.partitions (above spark.shuffle.minNumPartitionsToHighlyCompress, 2000)
    many_partitions: int = 2400
    #: Spark settings given at the application's start (--conf), e.g. spark.shuffle.accurateBlockSkewedFactor,
    #: a core setting read when map outputs are written, which a session cannot change
    spark_conf: dict[str, str] = field(default_factory=dict)

    def partitions_for(self, dataset: str) -> int:
        """spark.sql.shuffle.partitions of a dataset's runs (and of its models' compile)."""
        return self.many_partitions if dataset in MANY_PARTITIONS_DATASETS else self.shuffle_partitions

    def as_dict(self) -> dict[str, Any]:
        return {
            "data": self.data.as_dict(),
            "shuffle_partitions": self.shuffle_partitions,
            "cluster_cores": self.cluster_cores,
            "repetitions": self.repetitions,
            "slots": list(self.slots),
            "schedule_order": self.order,
            "strategy_settings": self.strategy_settings,
            "min_share": self.min_share,
            "pruning": self.pruning,
            "star": self.star,
            "warmup": self.warmup,
            "warmup_rounds": self.warmup_rounds,
            "read": self.read,
            "datasets": list(self.datasets) if self.datasets else None,
            "many_partitions": self.many_partitions,
            "spark_conf": dict(self.spark_conf),
        }


#: A small configuration that runs in seconds (``skewjoin-bench --smoke``).
def smoke_config() -> BenchConfig:
    return BenchConfig(
        data=DatasetSpec(
            rows=20_000,
            # scenario d on a fact of its own, as `make bench-large` runs it
            aggregated_rows=30_000,
            distinct_keys=500,
            hot_fanout=3,
            fact_files=8,
            dim_files=2,
            pruning_rows=5_000,
            days=12,
            holiday_every=4,
            star_rows=5_000,
            star_days=100,
            star_stores=20,
            star_promos=200,
            star_products=500,
            star_customers=1_000,
        ),
        shuffle_partitions=8,
        cluster_cores=4,
        repetitions=1,
        warmup=False,
        pruning=True,
        star=True,
        # one of each kind of plan (the mirrored right join and the wide fan-out add no new code path)
        datasets=("left", "full", "aggregated", "skewed", "chain", "uniform"),
    )


#: skewjoin strategies per skew dataset: the configurations a user would write
_STRATEGIES = {
    "left": ("auto", "skew_auto"),
    "right": ("auto", "skew_auto"),
    "full": ("auto", "skew_auto"),
    "wide": ("groups", "auto", "skew_auto"),
    "aggregated": ("groups", "hot_keys", "auto", "skew_auto"),
    "skewed": ("groups", "hot_keys", "both", "auto", "skew_auto"),
    "chain": ("nested_groups", "groups", "hot_keys"),
    # g: the plans that take total_slots from the session, each with AQE on (Spark's defaults) and off, and
    # with AQE scaled as models of their own (_SCALED_TWINS)
    "many_inner": ("auto", "skew_auto"),
    "many_left": ("auto", "skew_auto"),
    # h: e's and a's plans on identical hot rows
    "ident_inner": ("groups", "auto", "skew_auto"),
    "ident_left": ("auto", "skew_auto"),
}

#: the session settings a dataset's strategies run with (default: BenchConfig.strategy_settings alone)
_STRATEGY_PROFILES = {"many_inner": ("aqe_default", "aqe_off"), "many_left": ("aqe_default", "aqe_off")}

#: g's strategies also run with AQE's thresholds scaled to the data, compiled under them: a model of their
#: own (``bench_<dataset>_<strategy>_scaled``, the same call), since a model compiles once, under the first
#: profile it runs with, and 'auto' reads the thresholds when it compiles (with the block factor set it may
#: leave the join to AQE there)
_SCALED_TWINS = ("many_inner", "many_left")

#: model name prefix per dataset
_MODEL = {"left": "left", "right": "right", "full": "full", "wide": "wide", "aggregated": "aggregated",
          "skewed": "skewed", "chain": "chain", "many_inner": "many_inner", "many_left": "many_left",
          "ident_inner": "ident_inner", "ident_left": "ident_left"}  # fmt: skip


def scenarios(config: BenchConfig) -> list[Scenario]:
    """Every scenario, grouped by dataset, the plain join first.

    Each skew dataset runs the plain join with AQE off, AQE's defaults and
    AQE's skew thresholds scaled to the data; where a split would add a
    shuffle (the aggregate by the join key), also scaled +
    ``forceOptimizeSkewedJoin``; then each skewjoin strategy.
    """
    s = config.strategy_settings
    wanted = set(config.datasets) if config.datasets else None
    out: list[Scenario] = []
    for dataset, strategies in _STRATEGIES.items():
        if wanted is not None and dataset not in wanted:
            continue
        m = _MODEL[dataset]
        profiles = ["aqe_off", "aqe_default", "aqe_scaled"]
        if dataset in ("aggregated", "chain"):
            profiles.append("aqe_forced")
        for profile in profiles:
            out.append(Scenario(f"{dataset}/plain@{profile}", dataset, f"bench_{m}_plain", "plain", profile))
        for strategy in strategies:
            model = f"bench_{m}_{strategy}"
            if dataset in _STRATEGY_PROFILES:
                for profile in _STRATEGY_PROFILES[dataset]:
                    out.append(Scenario(f"{dataset}/{strategy}@{profile}", dataset, model, strategy, profile))
                if dataset in _SCALED_TWINS:
                    out.append(Scenario(f"{dataset}/{strategy}@aqe_scaled", dataset, f"{model}_scaled", strategy,
                                        "aqe_scaled"))  # fmt: skip
            else:
                out.append(Scenario(f"{dataset}/{strategy}", dataset, model, strategy, s))
    if wanted is None or "uniform" in wanted:
        out.append(Scenario("uniform/plain", "uniform", "bench_uniform_plain", "plain", s))
        for strategy in ("groups", "hot_keys", "both", "auto", "skew_auto"):
            out.append(Scenario(f"uniform/{strategy}", "uniform", f"bench_uniform_{strategy}", strategy, s))
    if config.pruning:
        out += [
            Scenario("pruning/plain@dpp_off", "pruning", "bench_prune_plain", "plain", "dpp_off"),
            Scenario("pruning/plain@dpp_on", "pruning", "bench_prune_plain", "plain", "dpp_on"),
            Scenario("pruning/prune_predicate", "pruning", "bench_prune_macro", "prune_predicate", "dpp_on"),
        ]
    if config.star:
        out += [
            Scenario("star/plain", "star", "bench_star_plain", "plain", "spark_defaults"),
            Scenario("star/star_join", "star", "bench_star_macro", "star_join", "spark_defaults"),
        ]
    return out


def settings_for(profile: str, scaled: dict[str, str], partitions: int | None = None) -> dict[str, str | None]:
    """Session settings of a profile; None puts a setting back to its default.

    The skew datasets disable the automatic broadcast (``-1``): their
    dimension is scaled down with the fact, and at cluster scale it would be
    too big to broadcast, which is why the join shuffles at all (explicit
    broadcast hints, as the hot-keys strategy writes, still apply). The
    pruning and star cases keep Spark's defaults (AQE on, a 10 MB broadcast
    threshold, DPP on): DPP needs a broadcast, and the star case compares
    that per-table threshold with star_join's one budget.
    """
    out: dict[str, str | None] = {key: None for key in _AQE_SCALED_KEYS}
    if partitions is not None:
        out["spark.sql.shuffle.partitions"] = str(partitions)
    out["spark.sql.optimizer.dynamicPartitionPruning.enabled"] = None
    out["spark.sql.adaptive.forceOptimizeSkewedJoin"] = None
    if profile in ("dpp_off", "dpp_on", "spark_defaults"):
        out["spark.sql.adaptive.enabled"] = "true"
        out["spark.sql.autoBroadcastJoinThreshold"] = None
        if profile == "dpp_off":
            out["spark.sql.optimizer.dynamicPartitionPruning.enabled"] = "false"
        return out
    out["spark.sql.autoBroadcastJoinThreshold"] = "-1"
    if profile == "aqe_off":
        out["spark.sql.adaptive.enabled"] = "false"
    elif profile == "aqe_default":
        out["spark.sql.adaptive.enabled"] = "true"
    elif profile in ("aqe_scaled", "aqe_forced"):
        out["spark.sql.adaptive.enabled"] = "true"
        out.update(scaled)
        if profile == "aqe_forced":
            out["spark.sql.adaptive.forceOptimizeSkewedJoin"] = "true"
    else:
        raise ValueError(f"unknown settings profile {profile!r}")
    return out


def scaled_aqe_settings(shuffle_bytes: int, partitions: int) -> dict[str, str]:
    """AQE's skew-join settings scaled to the data, so that AQE has a fair chance.

    Spark's defaults (advisory 64 MB, skewed above 256 MB and 5x the median)
    are meant for cluster-sized partitions; at benchmark scale no partition
    reaches them. Scaled: the advisory size is the mean partition of the
    join's shuffle at ``spark.sql.shuffle.partitions`` (coalescing then keeps
    about that many partitions), a partition is skewed above twice that and
    twice the median (AQE then splits it into advisory-sized pieces), and the
    coalescing floor is an eighth of the advisory size.
    """
    advisory = max(shuffle_bytes // max(partitions, 1), 1024)
    return {
        "spark.sql.adaptive.advisoryPartitionSizeInBytes": str(advisory),
        "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes": str(2 * advisory),
        "spark.sql.adaptive.skewJoin.skewedPartitionFactor": "2.0",
        "spark.sql.adaptive.coalescePartitions.minPartitionSize": str(max(advisory // 8, 1)),
    }


@dataclass
class SkewConfigs:
    """The skew configs the strategy models get (as dbt vars), made from the measured keys."""

    skewed: list[tuple[int, float]]  # (key, share of the fact rows), heaviest first
    groups: list[tuple[int, int]]  # skew groups strategy: (key, slots)
    hot_keys: list[int]  # hot keys strategy
    both_hot_keys: list[int]  # both: hot keys ...
    both_groups: list[tuple[int, int]]  # ... and groups for the other skewed keys
    notes: list[str] = field(default_factory=list)

    def variables(self, schema: str, total_slots: int) -> dict[str, Any]:
        return {
            "skewjoin_bench": True,
            "skewjoin_bench_schema": schema,
            "skewjoin_bench_total_slots": total_slots,
            "skewjoin_bench_groups": [[k, n] for k, n in self.groups],
            "skewjoin_bench_hot_keys": list(self.hot_keys),
            "skewjoin_bench_both_hot_keys": list(self.both_hot_keys),
            "skewjoin_bench_both_groups": [[k, n] for k, n in self.both_groups],
            # the package's own default, not the integration project's 1 (its tests plan on 2 cores): the
            # benchmark measures what a user gets, so a local read declines the skew plans as a user's would
            "skewjoin_min_parallelism": None,
            # likewise the package's default: declared skew groups are verified against the data
            "skewjoin_verify": None,
        }


def skew_configs(stats: KeyStats, min_share: float, hot_count: int, total_slots: int) -> SkewConfigs:
    """What a user who profiled the skewed fact would configure, strategy by strategy.

    The skewed keys are those with at least *min_share* of the rows (as
    ``skewjoin profile`` finds them). Skew groups: one group per skewed key,
    sized by skewjoin's slot planner (:func:`skewjoin.planner.allocate_slots`:
    about the key's share of *total_slots*, at least one, one left for the
    rest); at most ``(total_slots - 1) // 2`` groups, the heaviest keys. Hot
    keys: every skewed key. Both: the *hot_count* heaviest skewed keys as hot
    keys and groups for the others, sized on their share of the rows that
    reach the shuffle join.
    """
    from skewjoin.planner import allocate_slots

    skewed = skewed_keys(stats, min_share)
    notes = []
    cap = max((total_slots - 1) // 2, 1)

    def groups_for(keys: list[tuple[int, float]], rest_share: float) -> list[tuple[int, int]]:
        if len(keys) > cap:
            notes.append(f"{len(keys)} skewed keys, {total_slots} slots: groups for the {cap} heaviest only")
            keys = keys[:cap]
        if not keys:
            return []
        slots = allocate_slots([share / rest_share for _, share in keys], total_slots)
        return [(k, n) for (k, _), n in zip(keys, slots, strict=True)]

    hot_count = min(max(hot_count, 1), len(skewed))
    both_hot = skewed[:hot_count]
    rest = 1.0 - sum(share for _, share in both_hot)
    return SkewConfigs(
        skewed=skewed,
        groups=groups_for(skewed, 1.0),
        hot_keys=[k for k, _ in skewed],
        both_hot_keys=[k for k, _ in both_hot],
        both_groups=groups_for(skewed[hot_count:], rest) if rest > 0 else [],
        notes=notes,
    )


def checksum_sql(query: str) -> str:
    """The measured query: the rows of *query*, counted and checksummed in any order."""
    return (
        "select count(*) as sj_rows, coalesce(sum(hash(*)), 0) as sj_hash, "
        "coalesce(sum(shiftright(xxhash64(*), 32)), 0) as sj_xxhash\n"
        f"from (\n{query.strip()}\n) as sj_bench"
    )


@dataclass
class RunRecord:
    """One execution of one scenario."""

    scenario: str
    round: int
    position: int
    marker: str
    wall_s: float | None = None
    rows: int | None = None
    checksum: tuple[int, int] | None = None
    matches_plain: bool | None = None
    error: str | None = None
    metrics: RunMetrics | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "round": self.round,
            "position": self.position,
            "marker": self.marker,
            "wall_s": None if self.wall_s is None else round(self.wall_s, 3),
            "rows": self.rows,
            "checksum": list(self.checksum) if self.checksum else None,
            "matches_plain": self.matches_plain,
            "error": self.error,
            "metrics": self.metrics.as_dict() if self.metrics else None,
        }


@dataclass
class BenchResult:
    """Everything the report needs."""

    config: BenchConfig
    scenarios: list[Scenario]
    runs: list[RunRecord]
    stats: dict[str, KeyStats]
    configs: SkewConfigs
    hot_rows: dict[str, int]  # strategy -> fact rows of the keys it declares hot
    scaled_settings: dict[str, str]
    scaled_from: str
    compiled: dict[str, str]
    decision_records: dict[str, str]
    timings: dict[str, float]
    backend: str
    spark_version: str
    event_log: str | None
    started: str
    command: str
    machine: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    #: when dbt compiled each model, {model: (start, end)} in epoch ms
    compile_windows: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: each model's compile-time queries (the Spark jobs of its compile window), measured as a run
    compile_metrics: dict[str, RunMetrics] = field(default_factory=dict)
    #: the session settings each model was compiled under: {model: {"profile": a key of SETTINGS_LABELS, or
    #: "plain" for the plain joins (compiled before the warm-up, with the run's partitions alone), "settings":
    #: {Spark setting: value, None where its default}}}
    compiled_under: dict[str, dict[str, Any]] = field(default_factory=dict)

    def runs_of(self, key: str) -> list[RunRecord]:
        return [r for r in self.runs if r.scenario == key]

    def scenario(self, key: str) -> Scenario | None:
        return next((s for s in self.scenarios if s.key == key), None)


def kept_hot_keys(sql: str, declared: list[int]) -> list[int]:
    """The declared hot keys of the fact that a compiled model's decision record keeps: its line
    "hot keys of f (declared): 0; 1" lists them after the compile-time check; *declared* when the model
    was not compiled or has no such line."""
    m = re.search(r"hot keys of f \(declared\): ([^\n]*)", sql)
    if m is None:
        return list(declared)
    listed = m.group(1).split(" + ")[0].strip()
    return [] if listed == "none" else [int(v) for v in listed.split("; ")]


def decision_record(sql: str) -> str:
    """The macros' decision-record comments in compiled SQL, joined (empty when there is none)."""
    return "\n".join(m.group(0) for m in _RECORD.finditer(sql))


_RECORD = re.compile(r"/\* skewjoin\.\w+ decision record.*?\*/", re.S)


class Bench:
    """One benchmark run on one backend (see the module doc)."""

    def __init__(
        self,
        config: BenchConfig,
        backend: Backend,
        compile_models: Callable[[dict[str, Any]], dict[str, str]],
        *,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        self.config = config
        self.backend = backend
        self.compile_models = compile_models
        self.progress = progress or (lambda line: logger.info("%s", line))
        self.timings: dict[str, float] = {}
        self.notes: list[str] = []
        self._run_counter = 0
        #: when dbt compiled each model, {model: (start, end)} in epoch ms (from the compiler's ``windows``)
        self.compile_windows: dict[str, tuple[int, int]] = {}
        #: the fact's shuffle bytes the scaled AQE settings are made from
        self.scaled_bytes: int | None = None
        self._last_warm_bytes: int | None = None
        #: the session settings each model was compiled under (see BenchResult.compiled_under)
        self.compiled_under: dict[str, dict[str, Any]] = {}

    # -- steps --------------------------------------------------------------------------

    def _timed(self, key: str, what: str, fn: Callable[[], Any]) -> Any:
        self.progress(f"{what} ...")
        started = time.monotonic()
        value = fn()
        self.timings[key] = round(time.monotonic() - started, 2)
        self.progress(f"{what}: {self.timings[key]:.1f} s")
        return value

    def generate(self) -> None:
        def run() -> None:
            for what, sql in statements(self.config.data, pruning=self.config.pruning, star=self.config.star):
                logger.debug("generator: %s", what)
                self.backend.sql(sql)

        self._timed("generate", f"generating the tables in {self.config.data.schema}", run)

    def measure_keys(self) -> dict[str, KeyStats]:
        """The heaviest keys of the skewed fact, and of scenario d's when it has its own."""
        data = self.config.data
        tables = {"skewed": FACT_TABLE["skewed"]}
        if data.aggregated_has_own_fact and self._runs("aggregated"):
            tables["aggregated"] = data.aggregated_fact
        return {name: parse_key_stats(self.backend.sql(key_stats_sql(data.table(t)))) for name, t in tables.items()}

    def _runs(self, dataset: str) -> bool:
        return not self.config.datasets or dataset in self.config.datasets

    def _marker(self, tag: str) -> str:
        self._run_counter += 1
        return f"skewjoin-bench/{self._run_counter:04d}/{tag}/"

    def _execute(self, scenario: Scenario, sql: str, marker: str, scaled: dict[str, str]) -> RunRecord:
        """Run one scenario with its settings (*scaled*: the AQE settings scaled to its fact's data)."""
        record = RunRecord(scenario.key, 0, 0, marker)
        partitions = self.config.partitions_for(scenario.dataset)
        for key, value in settings_for(scenario.settings, scaled, partitions).items():
            self.backend.set_conf(key, value)
        started = time.monotonic()
        try:
            rows = self.backend.sql(checksum_sql(sql), marker=marker, label=scenario.label)
        except SparkSqlError as exc:
            record.error = exc.summary().splitlines()[0][:500]
            logger.debug("%s failed", scenario.key, exc_info=True)
            return record
        record.wall_s = time.monotonic() - started
        n, h32, h64 = rows[0]
        record.rows, record.checksum = int(n), (int(h32), int(h64))
        return record

    def _event_log(self) -> EventLog | None:
        directory = self.backend.event_log_dir()
        if directory is None:
            return None
        path = find_event_log(directory, self.backend.get_conf("spark.app.id"))
        logger.debug("reading the event log %s", path)
        return EventLog.read(path)

    # -- the whole run ------------------------------------------------------------------

    def run(self, *, command: str, started: str, machine: dict[str, Any]) -> BenchResult:
        cfg = self.config
        # a Thrift server's session starts with the server's setting; every query of the run uses this one
        self.backend.set_conf("spark.sql.shuffle.partitions", str(cfg.shuffle_partitions))
        self.generate()
        stats = self._timed("key_stats", "measuring the skewed fact's heaviest keys", self.measure_keys)
        configs = skew_configs(stats["skewed"], cfg.min_share, cfg.data.hot_keys, cfg.shuffle_partitions)
        self.notes.extend(configs.notes)
        if not configs.skewed:
            self.notes.append(
                f"no key of the skewed fact holds {cfg.min_share:.1%} of its rows: every strategy is the plain join"
            )
        if "aggregated" in stats:
            own = skew_configs(stats["aggregated"], cfg.min_share, cfg.data.hot_keys, cfg.shuffle_partitions)
            if (own.groups, own.hot_keys, own.both_hot_keys, own.both_groups) != (
                configs.groups,
                configs.hot_keys,
                configs.both_hot_keys,
                configs.both_groups,
            ):
                self.notes.append(
                    "scenario d's fact would give other configs than the skewed fact's (groups "
                    f"{own.groups}, hot keys {own.hot_keys}); d's models are compiled with the skewed fact's"
                )
        variables = configs.variables(cfg.data.schema, cfg.shuffle_partitions)
        variables["skewjoin_bench_aggregated_fact"] = cfg.data.aggregated_fact
        all_scenarios = scenarios(cfg)
        # the plain joins first: the warm-up runs one, and it makes the scaled settings the others compile under
        plain = [s for s in all_scenarios if s.is_baseline]
        compiled = self._timed("dbt_compile_plain", "dbt compile of the plain joins (integration_tests/models/bench)",
                               lambda: self._compile(variables, plain))  # fmt: skip
        missing = sorted({s.model for s in plain} - set(compiled))
        if missing:
            raise BenchError(f"dbt compiled no SQL for {', '.join(missing)}")
        by_dataset: dict[str, list[Scenario]] = {}
        for s in all_scenarios:
            by_dataset.setdefault(s.dataset, []).append(s)

        # warm-up, and the shuffle size the scaled AQE settings are made from: one for the skewed fact's
        # scenarios, and one of d's own when d reads a fact of its own
        own_fact = cfg.data.aggregated_has_own_fact and "aggregated" in by_dataset
        shared = {d: group for d, group in by_dataset.items() if not (own_fact and d == "aggregated")}
        scaled, scaled_from = self._warm_up(shared, compiled)
        self.scaled_bytes = self._last_warm_bytes
        scaled_aggregated = scaled
        if own_fact:
            own_rows = cfg.data.fact_rows(cfg.data.aggregated_fact)
            scaled_aggregated, made_from = self._warm_up({"aggregated": by_dataset["aggregated"]}, compiled, own_rows)
            self.notes.append(
                f"scenario d reads its own fact ({own_rows:,} rows); its scaled AQE settings are made from "
                f"{made_from}: " + ", ".join(f"{k} = {v}" for k, v in scaled_aggregated.items())
            )

        scaled_many = scaled
        if any(d in by_dataset for d in MANY_PARTITIONS_DATASETS) and self.scaled_bytes:
            # g's thresholds scaled to its own partition count
            scaled_many = scaled_aqe_settings(self.scaled_bytes, cfg.many_partitions)
            self.notes.append(
                f"scenario g runs with spark.sql.shuffle.partitions = {cfg.many_partitions}; its scaled AQE settings "
                f"are made from the same shuffle over {cfg.many_partitions} partitions: "
                + ", ".join(f"{k} = {v}" for k, v in scaled_many.items())
            )

        def scaled_for(scenario: Scenario) -> dict[str, str]:
            if scenario.dataset in MANY_PARTITIONS_DATASETS:
                return scaled_many
            return scaled_aggregated if scenario.dataset == "aggregated" else scaled

        # every other model, each in a session holding the settings it runs with (the scaled thresholds where
        # the strategies run with aqe_scaled): skew_join 'auto' reads them to decide whether to hand back to AQE
        others = [s for s in all_scenarios if not s.is_baseline]
        if cfg.warmup and any(s.strategy in ("auto", "skew_auto") for s in others):
            self._warm_up_sketch()
        if others:
            compiled.update(self._timed(
                "dbt_compile_strategies", "dbt compile of the skewjoin models, each under the settings it runs with",
                lambda: self._compile_under_run_settings(variables, others, scaled_for)))  # fmt: skip
        self.timings["dbt_compile"] = round(
            self.timings.get("dbt_compile_plain", 0.0) + self.timings.get("dbt_compile_strategies", 0.0), 2
        )
        self.compile_windows = dict(getattr(self.compile_models, "windows", {}))
        missing = sorted({s.model for s in all_scenarios} - set(compiled))
        if missing:
            raise BenchError(f"dbt compiled no SQL for {', '.join(missing)}")
        # the fact rows of the hot keys each plan keeps: the declared keys the compile-time check did not drop
        hot_rows = {
            strategy: stats["skewed"].rows_of(kept_hot_keys(compiled.get(f"bench_skewed_{strategy}", ""), declared))
            for strategy, declared in (("hot_keys", configs.hot_keys), ("both", configs.both_hot_keys))
        }

        # unmeasured rounds: every scenario in the order of the first measured round
        if cfg.warmup_rounds:
            started_warmup = time.monotonic()
            for round_no in range(cfg.warmup_rounds):
                for group in by_dataset.values():
                    for scenario in group:
                        marker = self._marker("warmup-round-" + scenario.key.replace("/", "-").replace("@", "-"))
                        record = self._execute(scenario, compiled[scenario.model], marker, scaled_for(scenario))
                        failed = f" failed: {record.error}" if record.error else ""
                        self.progress(
                            f"warm-up round {round_no + 1}/{cfg.warmup_rounds}: {scenario.key} "
                            f"{record.wall_s or 0:.1f} s{failed}"
                        )
            self.timings["warmup_rounds"] = round(time.monotonic() - started_warmup, 2)

        # the measured rounds
        runs: list[RunRecord] = []
        total = len(all_scenarios) * cfg.repetitions
        done = 0
        run_started = time.monotonic()
        for round_no in range(cfg.repetitions):
            for group in by_dataset.values():
                shift = round_no % len(group)
                order = group[shift:] + group[:shift]
                for position, scenario in enumerate(order):
                    marker = self._marker(scenario.key.replace("/", "-").replace("@", "-"))
                    record = self._execute(scenario, compiled[scenario.model], marker, scaled_for(scenario))
                    record.round, record.position = round_no + 1, position + 1
                    runs.append(record)
                    done += 1
                    self.progress(self._progress_line(done, total, scenario, record, round_no + 1))
        self.timings["measured_runs"] = round(time.monotonic() - run_started, 2)

        check_results(all_scenarios, runs)
        event_log_path: str | None = None
        return BenchResult(
            config=cfg,
            scenarios=all_scenarios,
            runs=runs,
            stats=stats,
            configs=configs,
            hot_rows=hot_rows,
            scaled_settings=scaled,
            scaled_from=scaled_from,
            compiled=compiled,
            decision_records={name: decision_record(sql) for name, sql in compiled.items()},
            timings=self.timings,
            backend=self.backend.description,
            spark_version=spark_version(self.backend),
            event_log=event_log_path,
            started=started,
            command=command,
            machine=machine,
            notes=self.notes,
            compile_windows=self.compile_windows,
            compiled_under=self.compiled_under,
        )

    def _compile(self, variables: dict[str, Any], all_scenarios: Sequence[Scenario]) -> dict[str, str]:
        """dbt compile of every scenario's model, once per shuffle partition count: a model compiles in a
        session with its dataset's ``spark.sql.shuffle.partitions`` (the total_slots of the plans that do not
        set it, and the partitions of its compile-time queries), which is then put back."""
        cfg = self.config
        by_partitions: dict[int, set[str]] = {}
        for s in all_scenarios:
            by_partitions.setdefault(cfg.partitions_for(s.dataset), set()).add(s.model)
        compiled: dict[str, str] = {}
        for partitions, models in sorted(by_partitions.items(), key=lambda x: x[0] != cfg.shuffle_partitions):
            self.backend.set_conf("spark.sql.shuffle.partitions", str(partitions))
            try:
                got = self.compile_models({**variables, "skewjoin_bench_models": sorted(models)})
            finally:
                self.backend.set_conf("spark.sql.shuffle.partitions", str(cfg.shuffle_partitions))
            compiled.update({name: sql for name, sql in got.items() if name in models or name not in compiled})
            for model in models:
                self.compiled_under[model] = {
                    "profile": "plain",
                    "settings": {"spark.sql.shuffle.partitions": str(partitions)},
                }
        return compiled

    def _compile_under_run_settings(
        self,
        variables: dict[str, Any],
        strategy_scenarios: Sequence[Scenario],
        scaled_for: Callable[[Scenario], dict[str, str]],
    ) -> dict[str, str]:
        """dbt compile of each model in a session holding the settings it runs with
        (:func:`settings_for` of its scenario's profile, *scaled_for* its AQE settings scaled to its fact, its
        dataset's partitions), one dbt call per distinct set of settings; the session's values are put back
        after each call. A model that runs under several profiles (g: AQE on and off) compiles once, under the
        first of them (AQE on), and its other runs run that SQL: the report's compiled-under table lists both.
        Above 2000 partitions without spark.shuffle.accurateBlockSkewedFactor 'auto' expects no split from AQE
        under either, so its plan is the same."""
        cfg = self.config
        groups: dict[tuple[tuple[str, str | None], ...], tuple[dict[str, str | None], list[str]]] = {}
        for s in strategy_scenarios:
            if s.model in self.compiled_under:
                continue
            settings = settings_for(s.settings, scaled_for(s), cfg.partitions_for(s.dataset))
            self.compiled_under[s.model] = {"profile": s.settings, "settings": dict(settings)}
            groups.setdefault(tuple(sorted(settings.items())), (settings, []))[1].append(s.model)
        compiled: dict[str, str] = {}
        for settings, models in groups.values():
            before = {key: self.backend.get_conf(key) for key in settings}
            try:
                for key, value in settings.items():
                    self.backend.set_conf(key, value)
                got = self.compile_models({**variables, "skewjoin_bench_models": sorted(models)})
            finally:
                for key, value in before.items():
                    self.backend.set_conf(key, value)
            compiled.update({name: sql for name, sql in got.items() if name in models})
        return compiled

    def _warm_up(
        self, by_dataset: dict[str, list[Scenario]], compiled: dict[str, str], rows: int | None = None
    ) -> tuple[dict[str, str], str]:
        """Run one plain join untimed and scale the AQE settings to its shuffle: ``(settings, where from)``.

        The plain join of the inner-join scenario runs (else of the first skew
        scenario that runs, else of the first dataset); *rows* (the fact's
        rows) sizes the estimate used when there is no warm-up or event log.
        """
        cfg = self.config
        shuffle_bytes = (rows or cfg.data.rows) * 48
        self._last_warm_bytes = shuffle_bytes
        scaled_from = f"an estimate of 48 bytes a fact row ({shuffle_bytes:,} bytes)"
        warm = (
            "skewed"
            if "skewed" in by_dataset
            else next((d for d in by_dataset if d in SKEW_SCENARIOS), next(iter(by_dataset), None))
        )
        if not cfg.warmup or warm is None:
            return scaled_aqe_settings(shuffle_bytes, cfg.shuffle_partitions), scaled_from
        base = by_dataset[warm][0]
        marker = self._marker(f"warmup-{warm}")
        record = self._timed(
            f"warmup_{warm}",
            f"warm-up: {warm} {base.label}",
            lambda: self._execute(base, compiled[base.model], marker, {}),
        )
        if record.error:
            raise BenchError(f"the warm-up run of {base.key} failed: {record.error}")
        try:
            log = self._event_log()
            if log is not None:
                run = log.run(marker, cfg.slots, cfg.order)
                hashed = [e.bytes or 0 for e in run.exchanges if e.partitioning == "hash"]
                shuffle_bytes = sum(hashed) if hashed else run.shuffle_write_bytes
                self._last_warm_bytes = shuffle_bytes
                scaled_from = f"the warm-up's shuffle ({shuffle_bytes:,} bytes)"
        except EventLogError as exc:
            self.notes.append(f"scaled AQE settings estimated (event log not readable after the warm-up: {exc})")
        return scaled_aqe_settings(shuffle_bytes, cfg.shuffle_partitions), scaled_from

    def _warm_up_sketch(self) -> None:
        """The read 'auto' compiles into its counts, run once untimed before the compiles, as the warm-up runs a
        join before the measured runs: the JVM compiles the code of Spark's frequent-items sketch the first time
        it runs, and the application's first 'auto' model paid for it alone (b's hot keys 'auto' at 10,000,000
        rows: 4.3 s of task time, against 2.9-3.1 s where another read had run first). A cluster that runs a
        dbt project pays it once, not per model."""
        table = self.config.data.table(FACT_TABLE["skewed"])
        sql = (
            "select count(*), count_if(sj_k is null), count_if(sj_first), to_json(approx_top_k(sj_k, 21, 1000)) "
            "from (select k as sj_k, monotonically_increasing_id() = shiftleft(cast(spark_partition_id() as bigint), "
            f"33) as sj_first from {table}) as sj_keys"
        )
        try:
            self._timed("warmup_compile", "warm-up of the compile-time sketch", lambda: self.backend.sql(sql))
        except SparkSqlError as exc:  # a Spark without approx_top_k: 'auto' counts with a group by there
            self.notes.append(f"no warm-up of the compile-time sketch ({str(exc)[:200]})")

    def _progress_line(self, done: int, total: int, scenario: Scenario, record: RunRecord, round_no: int) -> str:
        head = f"[{done:>3}/{total}] round {round_no}/{self.config.repetitions} {scenario.dataset:<8} {scenario.label}"
        if record.error:
            return f"{head}: FAILED: {record.error}"
        return f"{head}: {record.wall_s:.2f} s, {record.rows:,} rows"


def check_results(all_scenarios: Sequence[Scenario], runs: Sequence[RunRecord]) -> None:
    """Set ``matches_plain`` on every run: its count and checksum equal the plain join's on the same data.

    The reference is the first successful run of the dataset's plain join; the
    plain join's other runs (other settings, other rounds) are checked
    against it too.
    """
    by_key = {s.key: s for s in all_scenarios}
    reference: dict[str, tuple[int, tuple[int, int]]] = {}
    for run in runs:
        s = by_key[run.scenario]
        if s.is_baseline and run.error is None and s.dataset not in reference and run.checksum is not None:
            assert run.rows is not None
            reference[s.dataset] = (run.rows, run.checksum)
    for run in runs:
        s = by_key[run.scenario]
        ref = reference.get(s.dataset)
        if run.error is not None or ref is None or run.checksum is None:
            run.matches_plain = None if run.error is None and ref is None else False
            continue
        run.matches_plain = (run.rows, run.checksum) == ref


def attach_metrics(result: BenchResult, log: EventLog) -> list[str]:
    """Measure every run of *result* in *log*; returns problems (runs without events)."""
    problems = []
    for run in result.runs:
        if run.error is not None:
            continue
        try:
            run.metrics = log.run(run.marker, result.config.slots, result.config.order)
        except EventLogError as exc:
            problems.append(f"{run.scenario} round {run.round}: {exc}")
    models = {s.model for s in result.scenarios}
    for model, (start, end) in sorted(result.compile_windows.items()):
        if model not in models:
            continue
        metrics = log.window(start, end, f"compile {model}", result.config.slots, result.config.order)
        if metrics is not None:
            result.compile_metrics[model] = metrics
    return problems


# -- medians ------------------------------------------------------------------------------


def median_of(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def scenario_medians(result: BenchResult, key: str) -> dict[str, Any]:
    """Medians over a scenario's successful runs of every reported metric."""
    runs = [r for r in result.runs_of(key) if r.error is None]
    with_metrics = [r.metrics for r in runs if r.metrics is not None]
    fact = fact_table(result.scenario(key).dataset, result.config.data) if result.scenario(key) else ""

    def m(fn: Callable[[RunMetrics], float | None]) -> float | None:
        return median_of([fn(x) for x in with_metrics])

    out: dict[str, Any] = {
        "runs": len(result.runs_of(key)),
        "ok_runs": len(runs),
        "results_match": all(r.matches_plain for r in result.runs_of(key)) if result.runs_of(key) else None,
        "wall_s": median_of([r.wall_s for r in runs]),
        "rows": median_of([r.rows for r in runs]),
        "span_s": m(lambda x: x.span_s),
        "tasks": m(lambda x: x.tasks),
        "total_task_s": m(lambda x: x.total_task_s),
        "cpu_s": m(lambda x: x.cpu_s),
        "shuffle_write_bytes": m(lambda x: x.shuffle_write_bytes),
        "shuffle_read_bytes": m(lambda x: x.shuffle_read_bytes),
        "spill_bytes": m(lambda x: x.spill_bytes),
        "input_records": m(lambda x: x.input_records),
        "join_tasks": m(lambda x: len(x.join_stage_durations) if x.join_stage else None),
        "join_max_s": m(lambda x: x.join_stage_durations[0] if x.join_stage_durations else None),
        "join_median_s": m(lambda x: x.join_median_s),
        "join_max_over_median": m(lambda x: x.join_max_over_median),
        "join_rows_max_over_median": m(lambda x: x.join_rows_max_over_median),
        "join_longest_rows_over_median": m(lambda x: x.join_longest_rows_over_median),
        "join_scan_tasks": m(lambda x: x.join_scan_tasks),
        "join_rows_max": m(lambda x: max(x.join_stage_rows) if x.join_stage_rows else None),
        "join_rows_total": m(lambda x: sum(x.join_stage_rows) if x.join_stage_rows else None),
        "join_rows_heavy_tasks": m(lambda x: heavy_tasks(x.join_stage_rows)),
        "fact_rows_hash_shuffled": m(lambda x: x.hash_shuffled_records(fact)) if fact else None,
        "fact_rows_read": m(lambda x: sum(s.rows or 0 for s in x.scanned(fact)) if x.scanned(fact) else None),
        "fact_partitions_read": m(
            lambda x: sum(s.partitions or 0 for s in x.scanned(fact)) if x.scanned(fact) else None
        ),
        "skew_split_joins": m(lambda x: x.skew_split_joins),
        "shuffle_write_records": m(lambda x: x.shuffle_write_records),
        "broadcasts": m(lambda x: len(x.broadcasts)),
        "broadcast_bytes": m(lambda x: sum(b.bytes or 0 for b in x.broadcasts)),
        "broadcast_rows": m(lambda x: sum(b.rows or 0 for b in x.broadcasts)),
        "makespan_s": {p: m(lambda x, p=p: x.makespan_s.get(p)) for p in result.config.slots},
    }
    out.update(compile_cost(result, key, out))
    return out


def heavy_tasks(rows: Sequence[int]) -> int | None:
    """How many tasks read at least half the rows of the task that read the most: the partitions a hot key's
    rows were spread over (1: one task holds them all)."""
    if not rows:
        return None
    top = max(rows)
    return sum(1 for r in rows if top > 0 and 2 * r >= top)


def compile_cost(result: BenchResult, key: str, joined: dict[str, Any]) -> dict[str, Any]:
    """What the scenario's model cost when dbt compiled it, and the whole thing end to end.

    The model's compile-time queries (the Spark jobs of its compile window:
    'auto''s counts, the verification of declared configs, star sizes,
    pruning keys) are projected as the join is, list-scheduled on P slots,
    and run before the join: end to end = their makespan + the join's
    (median). A model compiled without a query costs 0; a model whose compile
    was not observed (no window: no event log) is unknown (None). The compile
    ran once per model, so its numbers are one measurement, not a median.
    """
    s = result.scenario(key)
    slots = list(result.config.slots)
    none: dict[str, Any] = {
        "compile_jobs": None,
        "compile_task_s": None,
        "compile_window_s": None,
        "compile_makespan_s": {p: None for p in slots},
        "e2e_makespan_s": {p: None for p in slots},
        "e2e_task_s": None,
    }
    if s is None or s.model not in result.compile_windows:
        return none
    start, end = result.compile_windows[s.model]
    metrics = result.compile_metrics.get(s.model)
    compile_ms = {p: (metrics.makespan_s.get(p, 0.0) if metrics else 0.0) for p in slots}
    task = metrics.total_task_s if metrics else 0.0
    join_ms = joined.get("makespan_s", {})
    return {
        "compile_jobs": metrics.jobs if metrics else 0,
        "compile_task_s": task,
        "compile_window_s": max(end - start, 0) / 1000.0,
        "compile_makespan_s": compile_ms,
        "e2e_makespan_s": {p: None if join_ms.get(p) is None else join_ms[p] + compile_ms[p] for p in slots},
        "e2e_task_s": None if joined.get("total_task_s") is None else joined["total_task_s"] + task,
    }


def representative_run(result: BenchResult, key: str) -> RunRecord | None:
    """The run with the median wall time (for the task-time chart)."""
    runs = sorted((r for r in result.runs_of(key) if r.metrics is not None and r.wall_s is not None),
                  key=lambda r: r.wall_s or 0.0)  # fmt: skip
    return runs[(len(runs) - 1) // 2] if runs else None


def with_event_log(result: BenchResult, path: Path | None) -> BenchResult:
    return replace(result, event_log=str(path) if path else None)

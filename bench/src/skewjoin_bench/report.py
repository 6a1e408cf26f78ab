"""The benchmark's outputs: targets, a JSON file, a Markdown report and a PNG chart."""

from __future__ import annotations

import json
import logging
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skewjoin_bench.scenarios import (
    SETTINGS_LABELS,
    SKEW_SCENARIOS,
    STRATEGY_LABELS,
    BenchResult,
    fact_table,
    representative_run,
    scenario_medians,
    strategy_label,
)

logger = logging.getLogger(__name__)

STRATEGIES = ("groups", "hot_keys", "both", "auto", "skew_auto")
#: the configurations a user writes by hand (or with skewjoin profile), which skew_join: 'auto' is held to
HAND_WRITTEN = ("groups", "hot_keys", "both", "auto")
TARGET_SLOTS = 64
#: the plain join's Spark settings a skewjoin strategy is compared with ("Spark's best")
SPARK_PROFILES = ("aqe_off", "aqe_default", "aqe_scaled", "aqe_forced")


@dataclass
class GivesUpRow:
    """One skewjoin strategy on one skew scenario against Spark's best setting of the plain join."""

    dataset: str
    letter: str
    what: str
    strategy: str
    best_profile: str | None
    best_makespan: float | None
    aqe_split: dict[str, float | None]  # profile -> median count of skew-split joins in the final plan
    makespan: float | None
    vs_best: float | None
    vs_off: float | None
    vs_scaled: float | None
    max_over_median: float | None
    rows_max_over_median: float | None
    task_time_vs_plain: float | None
    wall_vs_plain: float | None
    extra_shuffle_records: float | None  # rows the plan shuffles beyond the plain join's (multicast copies)
    broadcast_rows: float | None
    results_match: bool | None
    #: the session settings the strategy ran with (a key of SETTINGS_LABELS)
    settings: str = ""
    #: the model's compile-time queries projected at P=64 (0: none; None: not observed)
    compile_makespan: float | None = None
    compile_task_s: float | None = None
    #: compile-time queries + the join, at P=64
    e2e_makespan: float | None = None
    #: end to end against Spark's best (the plain join has no compile-time query)
    e2e_vs_best: float | None = None
    #: total task time of the compile-time queries and the join against the plain join's
    e2e_task_vs_plain: float | None = None
    #: the settings profile the model was compiled under (a key of SETTINGS_LABELS; "" when not recorded)
    compiled_under: str = ""
    #: the model's decision record says 'auto' handed the join back to AQE (wrote the plain join); None: the
    #: record has no AQE forecast
    handed_back: bool | None = None

    @property
    def target(self) -> tuple[str, float] | None:
        """Issue 29's target for the scenario, end to end against Spark's best (None: h, evidence only)."""
        return scenario_target(self.dataset)

    @property
    def passed(self) -> bool | None:
        target = self.target
        ratio = self.e2e_vs_best if self.e2e_vs_best is not None else self.vs_best
        if target is None or ratio is None:
            return None
        return ratio <= target[1]

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__} | {"passed": self.passed}


def scenario_target(dataset: str) -> tuple[str, float] | None:
    """Issue 29's target of a scenario: the makespan at P=64 end to end (compile-time queries included)
    against Spark's best setting of the plain join; None for h (a measurement for the macros, no target)."""
    if dataset in ("wide", "skewed"):
        return ("<= 1.05x Spark's best", 1.05)
    if dataset in ("many_inner", "many_left"):
        return ("<= 1/5 of Spark's best", 1 / 5)
    if dataset in ("ident_inner", "ident_left"):
        return None
    return ("<= 1/3 of Spark's best", 1 / 3)


def gives_up(result: BenchResult, medians: dict[str, dict[str, Any]]) -> list[GivesUpRow]:
    """The table "where Spark gives up": per skew scenario, Spark's best plain-join setting and each strategy."""
    p = TARGET_SLOTS
    out: list[GivesUpRow] = []
    same = result.config.strategy_settings
    for dataset, (letter, what) in SKEW_SCENARIOS.items():
        plain = {prof: medians.get(f"{dataset}/plain@{prof}") for prof in SPARK_PROFILES}
        plain = {prof: med for prof, med in plain.items() if med and med.get("ok_runs")}
        if not plain:
            continue
        timed = {prof: _ms(med, p) for prof, med in plain.items() if _ms(med, p) is not None}
        best = min(timed, key=lambda prof: timed[prof]) if timed else None
        for s in result.scenarios:
            if s.dataset != dataset or s.is_baseline:
                continue
            med = medians.get(s.key, {})
            if not med.get("ok_runs"):
                continue
            # the plain join with the strategy's own settings (g runs each plan with AQE on and off)
            base = plain.get(s.settings, plain.get(same, {}))
            best_ms = timed.get(best) if best else None
            extra = None
            if med.get("shuffle_write_records") is not None and base.get("shuffle_write_records") is not None:
                extra = med["shuffle_write_records"] - base["shuffle_write_records"]
            out.append(
                GivesUpRow(
                    dataset=dataset,
                    letter=letter,
                    what=what,
                    strategy=s.strategy,
                    best_profile=best,
                    best_makespan=timed.get(best) if best else None,
                    aqe_split={prof: med_.get("skew_split_joins") for prof, med_ in plain.items()},
                    makespan=_ms(med, p),
                    vs_best=_ratio(_ms(med, p), timed.get(best) if best else None),
                    vs_off=_ratio(_ms(med, p), timed.get("aqe_off")),
                    vs_scaled=_ratio(_ms(med, p), timed.get("aqe_scaled")),
                    max_over_median=med.get("join_max_over_median"),
                    rows_max_over_median=med.get("join_rows_max_over_median"),
                    task_time_vs_plain=_ratio(med.get("total_task_s"), base.get("total_task_s")),
                    wall_vs_plain=_ratio(med.get("wall_s"), base.get("wall_s")),
                    extra_shuffle_records=extra,
                    broadcast_rows=med.get("broadcast_rows"),
                    results_match=med.get("results_match"),
                    settings=s.settings,
                    compile_makespan=med.get("compile_makespan_s", {}).get(p),
                    compile_task_s=med.get("compile_task_s"),
                    e2e_makespan=med.get("e2e_makespan_s", {}).get(p),
                    e2e_vs_best=_ratio(med.get("e2e_makespan_s", {}).get(p), best_ms),
                    e2e_task_vs_plain=_ratio(med.get("e2e_task_s"), base.get("total_task_s")),
                    compiled_under=result.compiled_under.get(s.model, {}).get("profile", ""),
                    handed_back=handed_back(result.decision_records.get(s.model, "")),
                )
            )
    return out


#: the decision record's lines of a join 'auto' handed back to AQE (macros/skew_join/skew_record.sql): after
#: its counts (the forecast), or before counting (AQE's regime, skew_join 'auto' and hot keys 'auto')
_HANDED_BACK = ("strategy: plain join, handed back to AQE", "strategy: plain join, left to AQE")
#: the head of the AQE forecast's verdict line (macros/skew_join/aqe_forecast.sql), and the AQE regime's
#: (macros/skew_join/aqe_regime.sql), which follows "auto: " or "hot keys 'auto': "
_FORECAST = "auto: AQE forecast (would Spark split the plain join itself?): "
_REGIME = "AQE regime (measure, or leave the join to AQE?): "


def handed_back(record: str) -> bool | None:
    """Whether a decision record says 'auto' handed the join back to AQE (wrote the plain join); None when
    the record has neither an AQE forecast nor an AQE regime line (a plan that makes none)."""
    if any(line in record for line in _HANDED_BACK):
        return True
    return False if aqe_forecast(record) is not None else None


def aqe_forecast(record: str) -> str | None:
    """The AQE forecast's verdict in a decision record (the text after its head), else the AQE regime's
    (prefixed "regime: "), None without either."""
    regime = None
    for line in record.splitlines():
        line = line.strip()
        if line.startswith(_FORECAST):
            return line[len(_FORECAST) :]
        if regime is None and _REGIME in line:
            regime = "regime: " + line[line.index(_REGIME) + len(_REGIME) :]
    return regime


def _split_text(joins: float | None) -> str:
    return "–" if joins is None else "yes" if joins > 0 else "no"


def plan_label(dataset: str, strategy: str, back: bool | None) -> str:
    """A strategy's name in the tables, with the plan 'auto' wrote where it handed the join back to AQE."""
    label = strategy_label(dataset, strategy)
    return f"{label} → handed back to AQE (the plain join)" if back else label


def compiled_under_text(entry: dict[str, Any] | None) -> str:
    """The session settings a model was compiled under, as the report says them."""
    if not entry:
        return "not recorded"
    profile = entry.get("profile", "")
    settings = entry.get("settings") or {}
    if profile == "plain":
        return f"{settings.get('spark.sql.shuffle.partitions', '?')} shuffle partitions (no compile-time query)"
    text = SETTINGS_LABELS.get(profile, profile)
    scaled = [
        f"`{key.split('.')[-1]}` = {settings[key]}"
        for key in (
            "spark.sql.adaptive.advisoryPartitionSizeInBytes",
            "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes",
            "spark.sql.adaptive.skewJoin.skewedPartitionFactor",
        )
        if settings.get(key) is not None
    ]
    partitions = settings.get("spark.sql.shuffle.partitions")
    return text + (f" ({', '.join(scaled)})" if scaled else "") + (f", {partitions} partitions" if partitions else "")


def compiled_under_markdown(result: BenchResult, medians: dict[str, dict[str, Any]] | None = None) -> list[str]:
    """Per 'auto' run: the settings its model was compiled under (the settings it runs with), the AQE
    forecast its record gives, the plan it wrote, and whether AQE split a join of its run's final plan."""
    runs = [s for s in result.scenarios if s.strategy in AUTO_PLANS]
    if not runs:
        return []
    lines = [
        "## What the 'auto' plans compiled under",
        "",
        "Each skewjoin model is compiled in a session holding the settings it runs with (the plain joins first, "
        "then the warm-up, which makes the scaled thresholds, then the others; the session is put back after "
        "each compile). skew_join 'auto' reads AQE's settings there and leaves the join to AQE, writing the "
        "plain join, before counting where the session's AQE is tuned to the join's size (its regime; hot keys "
        "'auto' as the whole specification too), or after counting where that AQE would split its hot "
        "partitions as finely as its plan. The forecast (or the regime's verdict) and the strategy are read "
        "from the model's decision record; "
        "*AQE split* is whether the run's final plan has a `SortMergeJoin(skew=true)` (median over its runs, "
        "from the event log).",
        "",
        "| scenario | plan | runs with | compiled under | AQE forecast (decision record) | plan written | AQE split |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in runs:
        record = result.decision_records.get(s.model, "")
        back = handed_back(record)
        forecast = aqe_forecast(record)
        strategy = next((line.strip()[len("strategy: ") :] for line in record.splitlines()
                         if line.strip().startswith("strategy: ")), "–")  # fmt: skip
        letter, what = SKEW_SCENARIOS.get(s.dataset, ("", s.dataset))
        lines.append(
            f"| {letter + '. ' if letter else ''}{what} | {plan_label(s.dataset, s.strategy, back)} | "
            f"{SETTINGS_LABELS.get(s.settings, s.settings)} | "
            f"{compiled_under_text(result.compiled_under.get(s.model))} | "
            f"{'–' if forecast is None else forecast.replace('|', '/')} | {strategy.replace('|', '/')} | "
            f"{_split_text((medians or {}).get(s.key, {}).get('skew_split_joins'))} |"
        )
    lines.append("")
    return lines


def gives_up_markdown(result: BenchResult, rows: Sequence[GivesUpRow]) -> list[str]:
    """The lead table of the report."""
    if not rows:
        return []
    p = TARGET_SLOTS
    same = _settings_label(result.config.strategy_settings)
    lines = [
        "## Where Spark gives up",
        "",
        f"Projected makespan at P={p} (medians), each skewjoin strategy against the best of the plain join's "
        "Spark settings (AQE off, AQE defaults, AQE with skew thresholds scaled to the data, and scaled + "
        "`forceOptimizeSkewedJoin` where a split would add a shuffle). *AQE split* lists the settings whose final "
        "plan has a `SortMergeJoin(skew=true)` (read from the event log). Task time and wall time are against "
        f"the plain join with the strategies' own settings ({same}); *extra rows shuffled* are the rows the plan "
        "writes to shuffles beyond the plain join's (the multicast copies of skew groups, minus the hot rows a "
        "broadcast keeps off the shuffle). *join max/median* is the join stage's longest task over its median task; "
        "*join rows max/median* the most shuffle rows one of its tasks read over the median task's: the balance in "
        "rows, which does not move between runs as task times on a few shared cores do.",
        "",
        "*compile* is the model's compile-time queries (the Spark jobs dbt ran while it compiled the model: "
        "'auto''s counts, the verification of declared configs) projected the same way, once per run; *end to "
        "end* = compile + join, against Spark's best (the plain join runs no query at compile time). Task time "
        "end to end adds the compile's task time to the join's.",
        "",
        "| scenario | Spark's best (P=64) | AQE split | skewjoin | settings | join P=64 | compile P=64 | "
        "end to end P=64 | join vs best | end to end vs best | best / end to end | vs AQE off | "
        "join max/median | join rows max/median | task time vs plain | end to end task time vs plain | "
        "wall vs plain | extra rows shuffled | broadcast rows | result = plain | target (end to end) | met |",
        "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|",
    ]
    for r in rows:
        split = ", ".join(SETTINGS_LABELS.get(k, k) for k, v in r.aqe_split.items() if v) or "never"
        best = f"{_fmt_s(r.best_makespan)} ({SETTINGS_LABELS.get(r.best_profile or '', r.best_profile)})"
        target = r.target[0] if r.target else "none (evidence)"
        met = {True: "met", False: "**missed**", None: "–" if r.target is None else "no data"}[r.passed]
        lines.append(
            f"| {r.letter}. {r.what} | {best} | {split} | {plan_label(r.dataset, r.strategy, r.handed_back)} | "
            f"{SETTINGS_LABELS.get(r.settings, r.settings)} | {_fmt_s(r.makespan)} | {_fmt_s(r.compile_makespan)} | "
            f"{_fmt_s(r.e2e_makespan)} | {_fmt_r(r.vs_best)} | {_fmt_r(r.e2e_vs_best)} | "
            f"{_fmt_r(_ratio(r.best_makespan, r.e2e_makespan))} | {_fmt_r(r.vs_off)} | {_fmt_r(r.max_over_median)} | "
            f"{_fmt_r(r.rows_max_over_median)} | "
            f"{_fmt_r(r.task_time_vs_plain)} | {_fmt_r(r.e2e_task_vs_plain)} | {_fmt_r(r.wall_vs_plain)} | "
            f"{_fmt_n(r.extra_shuffle_records)} | "
            f"{_fmt_n(r.broadcast_rows)} | {_fmt_check(r.results_match)} | {target} | {met} |"
        )
    lines.append("")
    return lines


#: scenario h against the scenario whose join it repeats on identical hot rows
IDENTICAL_ROWS = {"ident_inner": "skewed", "ident_left": "left"}


def spread_markdown(result: BenchResult, medians: dict[str, dict[str, Any]]) -> list[str]:
    """Scenario h: how each plan spread the hot key's rows over the join stage's tasks, on identical hot rows
    and on the same join with the fact's own rows (medians)."""
    keys = {s.key for s in result.scenarios}
    pairs = []
    for ident, normal in IDENTICAL_ROWS.items():
        for s in result.scenarios:
            if s.dataset != ident:
                continue
            twin = s.key.replace(ident, normal, 1)
            pairs.append((s, twin if twin in keys else None))
    if not pairs:
        return []
    lines = [
        "## Identical hot rows (h)",
        "",
        "The join stage's tasks (those that read shuffle blocks), the most shuffle rows one of them read, its "
        "share of all the rows they read, and *tasks with >= half the max*: how many tasks read at least half as "
        "many rows as the largest (1: one task holds the hot key's rows). A hot-key plan joins the hot rows where "
        "they are read (the broadcast branch), outside these tasks. Medians.",
        "",
        "| join | plan | fact rows | join tasks | max rows a task | max share | tasks with >= half the max | "
        "join max/median (time) | makespan P=64 | result = plain |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for s, twin in pairs:
        for key, what in ((twin, "the fact's own rows"), (s.key, "identical (k, 1)")):
            if key is None:
                continue
            med = medians.get(key, {})
            share = _ratio(med.get("join_rows_max"), med.get("join_rows_total"))
            lines.append(
                f"| {SKEW_SCENARIOS[s.dataset][1].split(',')[0]} | {s.label} | {what} | "
                f"{_fmt_n(med.get('join_tasks'))} | {_fmt_n(med.get('join_rows_max'))} | "
                f"{'–' if share is None else f'{share:.1%}'} | {_fmt_n(med.get('join_rows_heavy_tasks'))} | "
                f"{_fmt_r(med.get('join_max_over_median'))} | {_fmt_s(_ms(med, TARGET_SLOTS))} | "
                f"{_fmt_check(med.get('results_match'))} |"
            )
    lines.append("")
    return lines


#: the plans issue 29 holds to <= 1.3x the plain join's total task time
AUTO_PLANS = ("auto", "skew_auto")


def cpu_markdown(rows: Sequence[GivesUpRow]) -> list[str]:
    """Every 'auto' plan's total task time against the plain join's with the same settings (target <= 1.3x)."""
    mine = [r for r in rows if r.strategy in AUTO_PLANS]
    if not mine:
        return []
    lines = [
        "## Task time of the 'auto' plans (target <= 1.3x the plain join's)",
        "",
        "| scenario | plan | settings | join task time vs plain | with the compile-time queries | compile task time "
        "| met (join) | met (with compile) |",
        "|---|---|---|---:|---:|---:|---|---|",
    ]
    for r in mine:

        def met(value: float | None) -> str:
            return "no data" if value is None else "met" if value <= 1.3 else "**missed**"

        lines.append(
            f"| {r.letter}. {r.what} | {plan_label(r.dataset, r.strategy, r.handed_back)} | "
            f"{SETTINGS_LABELS.get(r.settings, r.settings)} | {_fmt_r(r.task_time_vs_plain)} | "
            f"{_fmt_r(r.e2e_task_vs_plain)} | {_fmt_s(r.compile_task_s)} | {met(r.task_time_vs_plain)} | "
            f"{met(r.e2e_task_vs_plain)} |"
        )
    lines.append("")
    return lines


def stragglers(result: BenchResult, medians: dict[str, dict[str, Any]]) -> list[tuple[str, str, int, float]]:
    """``(letter, what, fact rows, seconds)`` per skew scenario: the plain join's straggler with AQE off (the
    join stage's longest task, median over the runs), the task the large size is meant to make take seconds."""
    out = []
    for dataset, (letter, what) in SKEW_SCENARIOS.items():
        longest = medians.get(f"{dataset}/plain@aqe_off", {}).get("join_max_s")
        if longest is not None:
            out.append((letter, what, result.config.data.fact_rows(fact_table(dataset, result.config.data)), longest))
    return out


def stragglers_markdown(result: BenchResult, medians: dict[str, dict[str, Any]]) -> list[str]:
    found = stragglers(result, medians)
    if not found:
        return []
    return [
        "The plain join's straggler with AQE off (the join stage's longest task, median over the runs), and the "
        "fact rows of each scenario:",
        "",
        *(f"- {letter}. {what}: {_fmt_s(seconds)} ({rows:,} fact rows)" for letter, what, rows, seconds in found),
        "",
    ]


@dataclass
class Target:
    """One target of the benchmark and what this run measured for it."""

    name: str
    strategy: str
    measured: float | None
    op: str  # "<=" or ">="
    threshold: float
    detail: str
    kind: str = "target"  # target | data check

    @property
    def passed(self) -> bool | None:
        if self.measured is None:
            return None
        return self.measured <= self.threshold if self.op == "<=" else self.measured >= self.threshold

    @property
    def verdict(self) -> str:
        return {True: "pass", False: "MISS", None: "no data"}[self.passed]

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "strategy": self.strategy,
            "measured": None if self.measured is None else round(self.measured, 4),
            "op": self.op,
            "threshold": round(self.threshold, 4),
            "passed": self.passed,
            "kind": self.kind,
            "detail": self.detail,
        }


def _ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b


def _ms(med: dict[str, Any], p: int) -> float | None:
    value = med.get("makespan_s", {}).get(p)
    return float(value) if value is not None else None


def targets(result: BenchResult, medians: dict[str, dict[str, Any]]) -> list[Target]:
    """Every target as a ratio measured in this run (see the module doc of the command)."""
    cfg = result.config
    out: list[Target] = []
    same = f"skewed/plain@{cfg.strategy_settings}"
    off = medians.get("skewed/plain@aqe_off", {})
    scaled = medians.get("skewed/plain@aqe_scaled", {})
    base = medians.get(same, {})
    rows = result.stats["skewed"].rows if "skewed" in result.stats else 0
    p = TARGET_SLOTS
    if off.get("ok_runs"):
        out.append(
            Target(
                "join-stage max/median task time, plain join (AQE off)",
                "plain",
                off.get("join_max_over_median"),
                ">=",
                20,
                "the data is skewed: the plain join's straggler is about 20x its median task or more",
                kind="data check",
            )
        )
    for strategy in STRATEGIES:
        med = medians.get(f"skewed/{strategy}")
        if not med or not med.get("ok_runs"):
            continue
        out.append(
            Target(
                f"makespan at P={p} vs plain join, AQE off",
                strategy,
                _ratio(_ms(med, p), _ms(off, p)),
                "<=",
                1 / 3,
                f"{_fmt_s(_ms(med, p))} vs {_fmt_s(_ms(off, p))}",
            )
        )
        out.append(
            Target(
                f"makespan at P={p} vs plain join, AQE scaled",
                strategy,
                _ratio(_ms(med, p), _ms(scaled, p)),
                "<=",
                1 / 2,
                f"{_fmt_s(_ms(med, p))} vs {_fmt_s(_ms(scaled, p))}",
            )
        )
        out.append(
            Target(
                "join-stage max/median task time",
                strategy,
                med.get("join_max_over_median"),
                "<=",
                3,
                f"max {_fmt_s(med.get('join_max_s'))}, median {_fmt_s(med.get('join_median_s'))}, "
                f"{_fmt_n(med.get('join_tasks'))} tasks; shuffle rows read: max/median "
                f"{_fmt_r(med.get('join_rows_max_over_median'))}, the longest task "
                f"{_fmt_r(med.get('join_longest_rows_over_median'))} x the median",
            )
        )
        out.append(
            Target(
                f"total task time vs plain join ({_settings_label(cfg.strategy_settings)})",
                strategy,
                _ratio(med.get("total_task_s"), base.get("total_task_s")),
                "<=",
                1.3,
                f"{_fmt_s(med.get('total_task_s'))} vs {_fmt_s(base.get('total_task_s'))}",
            )
        )
        if strategy in result.hot_rows:
            hot = result.hot_rows[strategy]
            shuffled = med.get("fact_rows_hash_shuffled")
            hot_shuffled = None if shuffled is None else max(0.0, shuffled - (rows - hot))
            out.append(
                Target(
                    "hot fact rows hash-shuffled by their key",
                    strategy,
                    hot_shuffled,
                    "<=",
                    0,
                    f"{_fmt_n(shuffled)} fact rows went through hash exchanges; {rows - hot:,} rows are not hot",
                )
            )
            share = hot / rows if rows else 0.0
            out.append(
                Target(
                    f"shuffle bytes vs plain join ({_settings_label(cfg.strategy_settings)})",
                    strategy,
                    _ratio(med.get("shuffle_write_bytes"), base.get("shuffle_write_bytes")),
                    "<=",
                    (1 - share) + 0.10,
                    f"{_fmt_b(med.get('shuffle_write_bytes'))} vs {_fmt_b(base.get('shuffle_write_bytes'))}; "
                    f"hot share {share:.1%}, {cfg.data.fact_files} fact files",
                )
            )
    for dataset, (letter, _what) in SKEW_SCENARIOS.items():
        med = medians.get(f"{dataset}/skew_auto")
        hand = {s: _ms(medians.get(f"{dataset}/{s}", {}), p) for s in HAND_WRITTEN}
        hand = {s: v for s, v in hand.items() if v is not None and medians[f"{dataset}/{s}"].get("ok_runs")}
        if not med or not med.get("ok_runs") or not hand:
            continue
        best = min(hand, key=lambda s: hand[s])
        out.append(
            Target(
                f"{letter} ({dataset}): makespan at P={p} vs the best hand-written configuration",
                "skew_auto",
                _ratio(_ms(med, p), hand[best]),
                "<=",
                1.10,
                f"{_fmt_s(_ms(med, p))} vs {_fmt_s(hand[best])} ({best})",
            )
        )
    # scenario f: the plain chain shuffles the fact and the dimensions once; a plan that shuffles the first
    # join's output again (nested skew_join, or AQE's forced skew split) writes that output to a shuffle too
    chain_plain = medians.get(f"chain/plain@{cfg.strategy_settings}", {})
    chain_base = chain_plain.get("shuffle_write_records")
    others = {
        label: _ratio(medians.get(key, {}).get("shuffle_write_records"), chain_base)
        for label, key in (("nested skew_join", "chain/nested_groups"), ("AQE forced", "chain/plain@aqe_forced"))
    }
    for strategy in ("groups", "hot_keys"):
        med = medians.get(f"chain/{strategy}")
        if not med or not med.get("ok_runs"):
            continue
        out.append(
            Target(
                "f (chain): rows written to shuffles vs the plain chain (the first join's output never shuffled again)",
                strategy,
                _ratio(med.get("shuffle_write_records"), chain_base),
                "<=",
                1.05,
                f"{_fmt_n(med.get('shuffle_write_records'))} vs {_fmt_n(chain_base)} "
                f"({_settings_label(cfg.strategy_settings)}); "
                + ", ".join(f"{label}: {_fmt_r(r)}" for label, r in others.items()),
            )
        )
    uniform_base = medians.get("uniform/plain", {})
    for strategy in STRATEGIES:
        med = medians.get(f"uniform/{strategy}")
        if not med or not med.get("ok_runs"):
            continue
        out.append(
            Target(
                "no skew: wall time vs plain join (medians)",
                strategy,
                _ratio(med.get("wall_s"), uniform_base.get("wall_s")),
                "<=",
                1.10,
                f"{_fmt_s(med.get('wall_s'))} vs {_fmt_s(uniform_base.get('wall_s'))}",
            )
        )
    return out


def _read_label(read: str) -> str:
    if read == "splits":
        return (
            "every fact file one input split (the cluster model: `maxPartitionBytes` = `openCostInBytes` = 1 GiB; "
            "shuffles written by the sort-based writer, `spark.shuffle.sort.bypassMergeThreshold` = 0)"
        )
    return "as local Spark reads it (its default split settings and parallelism)"


def _settings_label(profile: str) -> str:
    from skewjoin_bench.scenarios import SETTINGS_LABELS

    return SETTINGS_LABELS.get(profile, profile)


# -- formatting ---------------------------------------------------------------------------


def _fmt_s(value: float | None) -> str:
    if value is None:
        return "–"
    if value >= 10:
        return f"{value:.1f} s"
    if value >= 0.1:
        return f"{value:.2f} s"
    return f"{value * 1000:.0f} ms"


def _fmt_n(value: float | None) -> str:
    return "–" if value is None else f"{value:,.0f}"


def _fmt_b(value: float | None) -> str:
    if value is None:
        return "–"
    for unit, size in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if value >= size:
            return f"{value / size:.1f} {unit}"
    return f"{value:.0f} B"


def _fmt_r(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.2f}" if value < 100 else f"{value:,.0f}"


def _fmt_check(value: bool | None) -> str:
    return {True: "equal", False: "DIFFERENT", None: "–"}[value]


def _timings(t: dict[str, float]) -> str:
    parts = [
        f"{label} {_fmt_s(t[key])}"
        for key, label in (
            ("generate", "data generation"),
            ("dbt_compile_plain", "dbt compile of the plain joins"),
            ("warmup_skewed", "warm-up"),
            ("warmup_aggregated", "warm-up of d's fact"),
            ("warmup_compile", "warm-up of the compile-time sketch"),
            ("dbt_compile_strategies", "dbt compile of the skewjoin models"),
            ("measured_runs", "measured runs"),
            ("total", "total"),
        )
        if key in t
    ]
    return ", ".join(parts) or "–"


# -- JSON ---------------------------------------------------------------------------------


def to_json(result: BenchResult, medians: dict[str, dict[str, Any]], target_list: Sequence[Target]) -> dict[str, Any]:
    return {
        "command": result.command,
        "started": result.started,
        "machine": result.machine,
        "backend": result.backend,
        "spark_version": result.spark_version,
        "event_log": result.event_log,
        "config": result.config.as_dict(),
        "data": {name: stats.as_dict() for name, stats in result.stats.items()},
        "skew_configs": {
            "skewed_keys": [[k, round(share, 6)] for k, share in result.configs.skewed],
            "groups": result.configs.groups,
            "hot_keys": result.configs.hot_keys,
            "both_hot_keys": result.configs.both_hot_keys,
            "both_groups": result.configs.both_groups,
        },
        "hot_rows": result.hot_rows,
        "where_spark_gives_up": [r.as_dict() for r in gives_up(result, medians)],
        "aqe_scaled_settings": result.scaled_settings,
        "aqe_scaled_from": result.scaled_from,
        "timings_s": result.timings,
        "scenarios": [
            {
                "key": s.key,
                "dataset": s.dataset,
                "model": s.model,
                "strategy": s.strategy,
                "settings": s.settings,
                "label": s.label,
                "medians": _json_medians(medians.get(s.key, {})),
            }
            for s in result.scenarios
        ],
        "targets": [t.as_dict() for t in target_list],
        "runs": [r.as_dict() for r in result.runs],
        "decision_records": result.decision_records,
        "compiled_under": result.compiled_under,
        "compile_windows_ms": {m: list(w) for m, w in sorted(result.compile_windows.items())},
        "compile_queries": {
            m: {
                "jobs": x.jobs,
                "tasks": x.tasks,
                "total_task_s": round(x.total_task_s, 3),
                "makespan_s": {str(p): round(v, 3) for p, v in x.makespan_s.items()},
            }
            for m, x in sorted(result.compile_metrics.items())
        },  # fmt: skip
        "notes": result.notes,
    }


def _json_medians(med: dict[str, Any]) -> dict[str, Any]:
    out = dict(med)
    out["makespan_s"] = {str(p): v for p, v in med.get("makespan_s", {}).items()}
    return out


# -- Markdown -----------------------------------------------------------------------------


def to_markdown(
    result: BenchResult,
    medians: dict[str, dict[str, Any]],
    target_list: Sequence[Target],
    chart_name: str | None,
) -> str:
    cfg, d = result.config, result.config.data
    m = result.machine
    lines = [
        "# skewjoin benchmark",
        "",
        f"- Command: `{result.command}`",
        f"- Date: {result.started}",
        f"- Machine: {m.get('cores')} cores, {m.get('memory_gb')} GB RAM, {m.get('os')}, Python {m.get('python')}",
        f"- Spark {result.spark_version}: {result.backend}; `spark.sql.shuffle.partitions` = {cfg.shuffle_partitions}"
        + (
            f", `spark.default.parallelism` = {cfg.cluster_cores} (the modeled cluster's cores)"
            if result.backend.startswith("local") and cfg.read == "splits"
            else ""
        )
        + (
            f"; scenario g: {cfg.many_partitions} partitions"
            if any(s.dataset in ("many_inner", "many_left") for s in result.scenarios)
            else ""
        ),
        "- Spark settings given at the start of the application (`--conf`): "
        + (", ".join(f"`{k}` = {v}" for k, v in sorted(cfg.spark_conf.items())) or "none"),
        f"- Each scenario ran {cfg.repetitions} times in one Spark application, rounds in rotating order; "
        "the numbers are medians.",
        "- Run time: " + _timings(result.timings) + ".",
        f"- Input read: {_read_label(cfg.read)}.",
        "",
        *gives_up_markdown(result, gives_up(result, medians)),
        *cpu_markdown(gives_up(result, medians)),
        *compiled_under_markdown(result, medians),
        *spread_markdown(result, medians),
        *stragglers_markdown(result, medians),
        "## Data",
        "",
        f"- Fact: {d.rows:,} rows over {d.distinct_keys:,} keys, written as {d.fact_files} Parquet files. "
        f"Skewed: {d.hot_share:.0%} of the rows on {d.hot_keys} hot key(s), the rest Zipf-like "
        f"(exponent {d.zipf_exponent:g}); uniform: every key equally likely. Seed {d.seed}.",
        f"- Dimension: {d.dim_rows_per_key} row(s) a key, {d.hot_fanout} a hot key (each hot fact row matches "
        f"{d.hot_fanout}).",
    ]
    if d.aggregated_has_own_fact:
        lines.append(
            f"- Scenario d reads a fact of its own, `{d.aggregated_fact}`: {d.fact_rows(d.aggregated_fact):,} rows "
            f"drawn as the skewed fact (whose first {d.rows:,} rows they are), the same keys, shares and dimension."
        )
    for name, stats in result.stats.items():
        top = ", ".join(f"key {k}: {n / stats.rows:.1%}" for k, n in stats.top[:5]) if stats.rows else "no rows"
        what = "the skewed fact" if name == "skewed" else f"scenario d's fact ({stats.rows:,} rows)"
        lines.append(f"- Measured heaviest keys of {what}: {top}.")
    c = result.configs
    keys = ", ".join(f"{k} ({share:.1%})" for k, share in c.skewed) or "none"
    lines += [
        f"- Skewed keys (at least {cfg.min_share:.0%} of the rows): {keys}. Configs compiled: skew groups "
        + (", ".join(f"key {k}: {n} slots" for k, n in c.groups) or "none")
        + f"; hot keys {c.hot_keys or 'none'}; both: hot keys {c.both_hot_keys or 'none'}, groups "
        + (", ".join(f"key {k}: {n} slots" for k, n in c.both_groups) or "none")
        + f" (of {cfg.shuffle_partitions} slots).",
        "",
        "## Targets (skewed data unless stated; ratios of medians in one run)",
        "",
        "| target | strategy | measured | target | result | detail |",
        "|---|---|---:|---:|---|---|",
    ]
    for t in target_list:
        name = t.name + (" *(data check)*" if t.kind == "data check" else "")
        lines.append(
            f"| {name} | {STRATEGY_LABELS.get(t.strategy, t.strategy)} | {_fmt_r(t.measured)} | "
            f"{t.op} {_fmt_r(t.threshold)} | {t.verdict} | {t.detail} |"
        )
    slots = list(cfg.slots)
    lines += [
        "",
        "## Medians per scenario",
        "",
        "| data | scenario | wall | rows read | rows out | tasks | total task time | join stage: tasks | max | "
        "median | max/median | shuffle written | shuffle read | spill | "
        + " | ".join(f"makespan P={p}" for p in slots)
        + " | result = plain |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * len(slots) + "---|",
    ]
    for s in result.scenarios:
        if s.dataset in ("pruning", "star"):
            continue
        med = medians.get(s.key, {})
        lines.append(
            f"| {s.dataset} | {s.label} | {_fmt_s(med.get('wall_s'))} | {_fmt_n(med.get('input_records'))} | "
            f"{_fmt_n(med.get('rows'))} | "
            f"{_fmt_n(med.get('tasks'))} | {_fmt_s(med.get('total_task_s'))} | {_fmt_n(med.get('join_tasks'))} | "
            f"{_fmt_s(med.get('join_max_s'))} | {_fmt_s(med.get('join_median_s'))} | "
            f"{_fmt_r(med.get('join_max_over_median'))} | {_fmt_b(med.get('shuffle_write_bytes'))} | "
            f"{_fmt_b(med.get('shuffle_read_bytes'))} | {_fmt_b(med.get('spill_bytes'))} | "
            + " | ".join(_fmt_s(_ms(med, p)) for p in slots)
            + f" | {_fmt_check(med.get('results_match'))} |"
        )
    pruning = [s for s in result.scenarios if s.dataset == "pruning"]
    if pruning:
        lines += [
            "",
            f"## Pruning ({d.pruning_rows:,} fact rows in {d.days} day partitions; the query keeps the holidays, "
            f"every {d.holiday_every}th day)",
            "",
            "| scenario | wall | fact rows read | fact partitions read | total task time | "
            + " | ".join(f"makespan P={p}" for p in slots)
            + " | result = plain |",
            "|---|---:|---:|---:|---:|" + "---:|" * len(slots) + "---|",
        ]
        for s in pruning:
            med = medians.get(s.key, {})
            lines.append(
                f"| {s.label} | {_fmt_s(med.get('wall_s'))} | {_fmt_n(med.get('fact_rows_read'))} | "
                f"{_fmt_n(med.get('fact_partitions_read'))} | {_fmt_s(med.get('total_task_s'))} | "
                + " | ".join(_fmt_s(_ms(med, p)) for p in slots)
                + f" | {_fmt_check(med.get('results_match'))} |"
            )
    star = [s for s in result.scenarios if s.dataset == "star"]
    if star:
        lines += [
            "",
            f"## Star join ({d.star_rows:,} fact rows; dimensions: {d.star_days:,} dates, {d.star_stores:,} stores, "
            f"{d.star_products:,} products, {d.star_customers:,} customers (left), "
            f"{d.star_promos:,} promotions (left))",
            "",
            "| scenario | wall | broadcasts | rows broadcast | broadcast size (Spark's data size) | shuffle written | "
            "total task time | " + " | ".join(f"makespan P={p}" for p in slots) + " | result = plain |",
            "|---|---:|---:|---:|---:|---:|---:|" + "---:|" * len(slots) + "---|",
        ]
        for s in star:
            med = medians.get(s.key, {})
            lines.append(
                f"| {s.label} | {_fmt_s(med.get('wall_s'))} | {_fmt_n(med.get('broadcasts'))} | "
                f"{_fmt_n(med.get('broadcast_rows'))} | {_fmt_b(med.get('broadcast_bytes'))} | "
                f"{_fmt_b(med.get('shuffle_write_bytes'))} | "
                f"{_fmt_s(med.get('total_task_s'))} | "
                + " | ".join(_fmt_s(_ms(med, p)) for p in slots)
                + f" | {_fmt_check(med.get('results_match'))} |"
            )
    if chart_name:
        lines += ["", "## Chart", "", f"![makespan and join-stage task times]({chart_name})"]
    scaled = ", ".join(f"`{k.split('.')[-1]}` = {v}" for k, v in result.scaled_settings.items())
    lines += [
        "",
        "## How it was measured",
        "",
        "- The SQL under test is what `dbt compile` made from `integration_tests/models/bench/` "
        "(decision records below), each skewjoin model compiled in a session holding the settings it runs with "
        "(see *What the 'auto' plans compiled under*); each query runs as "
        "`select count(*), sum(hash(*)), sum(xxhash64(*) >> 32) from (<compiled SQL>)`, and its count and "
        "checksums must equal the plain join's on the same data (column *result = plain*).",
        "- Metrics come from Spark's event log (uncompressed, not rolling), matched to runs by job group "
        "(local) or by a marker comment in the statement (Thrift). Task time = launch to finish of each task.",
        "- Join stage: among the stages that read shuffle data, the one with the most task time "
        "(the join's output rows dominate it; the other one is the final aggregate of the count). Its "
        "max/median is taken over its tasks that read shuffle blocks: a hot-key plan's union runs the "
        "broadcast branch's tasks, which scan the fact, in the same stage, and those are left out of the "
        "balance (not of the task time or the makespan).",
        f"- Makespan at P slots: the measured tasks list-scheduled on P slots, stage by stage: a stage starts "
        f"when its parent stages (and the jobs its job waited for, e.g. a broadcast) are done; a free slot "
        f"takes the next task of the stage that became ready first, the {cfg.order} task of that stage. "
        "It projects the same tasks onto a cluster; it ignores scheduling delay, executor start-up and "
        "locality, and the tasks' own times were measured on this machine.",
        "- AQE on: Spark's defaults. AQE scaled: " + (scaled or "–") + f", made from {result.scaled_from} "
        f"over {cfg.shuffle_partitions} partitions (see `scaled_aqe_settings`).",
        "- The skew datasets run with `spark.sql.autoBroadcastJoinThreshold=-1`: the dimension is scaled "
        "down with the fact, and at cluster size it would not be broadcast (hints, as the hot-keys branch "
        f"writes, still are). The skewjoin strategies run with {_settings_label(cfg.strategy_settings)}.",
        "- The pruning and star cases run with Spark's defaults (AQE on, 10 MB per-table broadcast threshold, "
        "DPP on) unless the scenario says otherwise. Broadcast size is the `data size` Spark reports for each "
        "broadcast hash relation: the memory it allocated, at least one memory page (64 MiB here) however few "
        "its rows.",
        "- Rows read: the input records of every scan of the run (a table read twice counts twice).",
        "- Wall time on a 2-core machine says little about skew (the straggler runs beside everything else); "
        "the makespan projection and the join stage's max/median are what transfer to a cluster.",
    ]
    if result.notes:
        lines += ["", "## Notes", ""] + [f"- {n}" for n in result.notes]
    failures = [r for r in result.runs if r.error]
    if failures:
        lines += ["", "## Failed runs", ""] + [f"- {r.scenario} round {r.round}: {r.error}" for r in failures]
    records = [(name, rec) for name, rec in sorted(result.decision_records.items()) if rec]
    if records:
        lines += ["", "## Decision records of the compiled models", ""]
        for name, rec in records:
            lines += [f"`{name}`:", "", "```sql", rec, "```", ""]
    return "\n".join(lines).rstrip() + "\n"


# -- chart --------------------------------------------------------------------------------

_COLORS = {
    "skewed/plain@aqe_off": "#444444",
    "skewed/plain@aqe_default": "#888888",
    "skewed/plain@aqe_scaled": "#bbbbbb",
    "skewed/groups": "#1f77b4",
    "skewed/hot_keys": "#d62728",
    "skewed/both": "#2ca02c",
}


def chart(result: BenchResult, medians: dict[str, dict[str, Any]], path: Path) -> Path | None:
    """Two panels on the skewed data: makespan vs P per scenario, and the join stage's task times."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = [s.key for s in result.scenarios if s.dataset == "skewed"]
    if not keys:
        return None
    labels = {s.key: s.label for s in result.scenarios}
    fig, (left, right) = plt.subplots(1, 2, figsize=(14, 6), gridspec_kw={"width_ratios": [1, 1.25]})
    slots = list(result.config.slots)
    for key in keys:
        values = [_ms(medians.get(key, {}), p) for p in slots]
        if any(v is None for v in values):
            continue
        plain = "plain" in key
        left.plot(
            slots,
            values,
            marker="o",
            linestyle="--" if plain else "-",
            linewidth=2.5 if not plain else 1.8,
            color=_COLORS.get(key),
            label=labels[key],
        )
    left.set_xscale("log", base=2)
    left.set_yscale("log")
    left.set_xticks(slots)
    left.set_xticklabels([str(p) for p in slots])
    left.set_xlabel("executor slots P")
    left.set_ylabel("projected makespan (s, log scale)")
    left.set_title("Projected makespan of the join query (skewed data)")
    left.grid(True, which="both", alpha=0.3)
    left.legend(fontsize=9)

    data, names, colors = [], [], []
    for key in keys:
        run = representative_run(result, key)
        if run is None or run.metrics is None or not run.metrics.join_stage_durations:
            continue
        data.append(run.metrics.join_stage_durations)
        names.append(textwrap.fill(labels[key], 16))
        colors.append(_COLORS.get(key, "#777777"))
    if data:
        box = right.boxplot(data, whis=(0, 100), patch_artist=True, widths=0.6)
        for patch, color in zip(box["boxes"], colors, strict=True):
            patch.set_facecolor(color)
            patch.set_alpha(0.55)
        for i, durations in enumerate(data, start=1):
            top = max(durations)
            med = sorted(durations)[len(durations) // 2]
            right.annotate(
                f"max {top:.2f} s\n{top / med:.0f}x median" if med > 0 else f"max {top:.2f} s",
                (i, top),
                textcoords="offset points",
                xytext=(0, 6),
                ha="center",
                fontsize=8,
            )
        right.set_yscale("log")
        low, high = right.get_ylim()
        right.set_ylim(low, high * 2.2)
        right.set_xticks(range(1, len(names) + 1))
        right.set_xticklabels(names, fontsize=8)
        right.set_ylabel("task time (s, log scale)")
        right.set_title("Join-stage task times (run with the median wall time; whiskers: min to max)")
        right.grid(True, axis="y", which="both", alpha=0.3)
    d = result.config.data
    fig.suptitle(
        f"skewjoin bench: {d.rows:,} fact rows, {d.hot_share:.0%} on {d.hot_keys} key(s) fanning out x{d.hot_fanout}, "
        f"{result.config.shuffle_partitions} shuffle partitions ({result.started[:10]})",
        fontsize=11,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def gives_up_chart(result: BenchResult, rows: Sequence[GivesUpRow], path: Path) -> Path | None:
    """Bars per scenario: the makespan at P=64 of Spark's best plain-join setting and of each strategy."""
    if not rows:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    datasets = list(dict.fromkeys(r.dataset for r in rows))
    strategies = list(dict.fromkeys(r.strategy for r in rows))
    width = 0.8 / (len(strategies) + 1)
    fig, ax = plt.subplots(figsize=(12, 5.5))
    for i, dataset in enumerate(datasets):
        mine = [r for r in rows if r.dataset == dataset]
        best = mine[0].best_makespan
        label_best = "Spark's best plain-join setting" if i == 0 else None
        if best is not None:
            ax.bar(i, best, width, color="#555555", label=label_best)
        for j, strategy in enumerate(strategies, start=1):
            r = next((x for x in mine if x.strategy == strategy), None)
            if r is None or r.makespan is None:
                continue
            ax.bar(i + j * width, r.makespan, width, color=f"C{j}",
                   label=STRATEGY_LABELS.get(strategy, strategy) if i == datasets.index(dataset) and
                   all(x.strategy != strategy for x in rows if datasets.index(x.dataset) < i) else None)  # fmt: skip
            if r.vs_best is not None:
                ax.annotate(f"{r.vs_best:.2f}x", (i + j * width, r.makespan), textcoords="offset points",
                            xytext=(0, 3), ha="center", fontsize=7)  # fmt: skip
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(datasets))])
    ax.set_xticklabels([f"{SKEW_SCENARIOS[d][0]}. {d}" for d in datasets])
    ax.set_ylabel(f"projected makespan at P={TARGET_SLOTS} (s)")
    d = result.config.data
    ax.set_title(f"Where Spark gives up: {d.rows:,} fact rows, {d.hot_share:.0%} on key 0, input read: "
                 f"{result.config.read} ({result.started[:10]}); labels: skewjoin / Spark's best")  # fmt: skip
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# -- all outputs ------------------------------------------------------------------------


def write_outputs(result: BenchResult, out_dir: Path) -> dict[str, Path]:
    """bench.json, bench.md and bench.png in *out_dir*; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    medians = {s.key: scenario_medians(result, s.key) for s in result.scenarios}
    target_list = targets(result, medians)
    paths: dict[str, Path] = {}
    png = out_dir / "bench.png"
    try:
        if chart(result, medians, png):
            paths["png"] = png
    except Exception as exc:  # a chart must not lose the measurements
        logger.warning("could not draw the chart: %s", exc)
        result.notes.append(f"chart not drawn: {exc}")
    try:
        if gives_up_chart(result, gives_up(result, medians), out_dir / "gives_up.png"):
            paths["gives_up_png"] = out_dir / "gives_up.png"
    except Exception as exc:  # a chart must not lose the measurements
        logger.warning("could not draw the chart: %s", exc)
        result.notes.append(f"chart not drawn: {exc}")
    json_path = out_dir / "bench.json"
    json_path.write_text(json.dumps(to_json(result, medians, target_list), indent=1, default=str) + "\n")
    paths["json"] = json_path
    md = out_dir / "bench.md"
    md.write_text(to_markdown(result, medians, target_list, png.name if "png" in paths else None))
    paths["md"] = md
    return paths

"""``skewjoin profile``: measure the key skew of a join input and plan a ``skew_join`` config.

One aggregate query over the input (exact, or over a ``tablesample`` when
``--sample`` is given) returns the heaviest keys, the total and the NULL-key
rows together (``group by grouping sets ((keys), ())``, as the package's
``hot_keys: 'auto'`` does at run time). With ``--other``, one more query
counts the other input's rows of those keys. :mod:`skewjoin.planner` turns the
counts into hot keys, skew groups and slot ranges, :mod:`skewjoin.report`
prints them with the config as YAML and as a Jinja ``config()`` line.

The slot count (:func:`choose_total_slots`) is the one the user's models will
run with: ``--total-slots``, else the dbt project and target
(:mod:`skewjoin.dbt_target`), else none: the config leaves ``total_slots`` out
so the macro's own default applies, and the plan states what it assumed.

Where the SQL runs (:mod:`skewjoin.spark_backend`): a local Spark session for a
Parquet/ORC/CSV/JSON path or a table of a local warehouse
(:mod:`skewjoin.sources`), or a running Spark Thrift Server for the relations
dbt built there.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

from skewjoin.dbt_target import target_total_slots
from skewjoin.errors import ProfileError
from skewjoin.literals import key_value, spark_ident, spark_literal, type_kind
from skewjoin.options import DEFAULTS
from skewjoin.planner import KeyStat, OtherStats, Plan, PlanOptions, SideStats, plan
from skewjoin.report import report, to_json
from skewjoin.sources import SparkLocation, describe, pick_columns, resolve_source
from skewjoin.spark_backend import Row, SparkBackend, shuffle_partitions

logger = logging.getLogger(__name__)

#: Spark's default spark.sql.shuffle.partitions: the assumption when nothing names the user's count
SPARK_DEFAULT_SHUFFLE_PARTITIONS = 200
HEARTBEAT_SECONDS = 10.0


# -- the queries ------------------------------------------------------------------------


def _percent(fraction: float) -> str:
    return format((Decimal(repr(fraction)) * 100).normalize(), "f")


def top_keys_sql(from_sql: str, columns: Sequence[str], limit: int, sample_fraction: float | None = None) -> str:
    """The heaviest *limit* keys, plus one row (sj_grouping > 0) with the total and the NULL-key rows."""
    cols = [spark_ident(c) for c in columns]
    keys = ",\n        ".join(f"cast({c} as string) as sj_key_{i}" for i, c in enumerate(cols))
    any_null = " or ".join(f"{c} is null" for c in cols)
    key_null = " or ".join(f"sj_key_{i} is null" for i in range(len(cols)))
    sample = f" tablesample ({_percent(sample_fraction)} percent)" if sample_fraction is not None else ""
    return f"""select *
from (
    select
        {keys},
        grouping_id() as sj_grouping,
        count(*) as sj_rows,
        count_if({any_null}) as sj_null_rows
    from (select {", ".join(cols)} from {from_sql}{sample} as sj_source) as sj_keys
    group by grouping sets (({", ".join(cols)}), ())
) as sj_counts
where sj_grouping > 0 or not ({key_null})
order by sj_rows desc
limit {int(limit) + 1}"""


def other_counts_sql(
    from_sql: str,
    columns: Sequence[tuple[str, str]],
    side_types: Sequence[str],
    candidates: Sequence[Sequence[Any]],
) -> str:
    """Rows of the other input per candidate key (sj_candidate = its index), NULL-key rows, and the rest."""
    cases = []
    for index, values in enumerate(candidates):
        parts = []
        for (name, dtype), side_type, value in zip(columns, side_types, values, strict=True):
            column = spark_ident(name)
            same_family = (type_kind(dtype) == "string") == (type_kind(side_type) == "string")
            expr = column if same_family else f"try_cast({column} as {re.sub(r'[^a-z0-9_(),]', '', side_type.lower())})"
            parts.append(f"{expr} = {spark_literal(value, side_type)}")
        cases.append(f"when {' and '.join(parts)} then {index}")
    candidate = "case\n            " + "\n            ".join(cases) + "\n        end" if cases else "cast(null as int)"
    any_null = " or ".join(f"{spark_ident(name)} is null" for name, _ in columns)
    return f"""select
    sj_candidate,
    count(*) as sj_rows,
    count_if(sj_null) as sj_null_rows
from (
    select
        {candidate} as sj_candidate,
        ({any_null}) as sj_null
    from {from_sql} as sj_source
) as sj_other
group by sj_candidate"""


@dataclass
class TopKeys:
    total_rows: int
    null_rows: int
    top: list[tuple[tuple[Any, ...], int]]


def parse_top_keys(rows: Sequence[Row], types: Sequence[str]) -> TopKeys:
    """Read :func:`top_keys_sql`'s rows: key texts back to config values."""
    n = len(types)
    total = nulls = 0
    top: list[tuple[tuple[Any, ...], int]] = []
    for row in rows:
        grouping, count, null_count = int(row[n]), int(row[n + 1]), int(row[n + 2])
        if grouping > 0:
            total, nulls = count, null_count
        else:
            top.append((tuple(key_value(str(text), dtype) for text, dtype in zip(row[:n], types, strict=True)), count))
    top.sort(key=lambda item: -item[1])
    return TopKeys(total, nulls, top)


# -- progress ---------------------------------------------------------------------------


@contextmanager
def phase(
    name: str, backend: SparkBackend | None = None, timings: dict[str, float] | None = None, key: str | None = None
) -> Iterator[None]:
    """Log the start and end of a phase, and a heartbeat every HEARTBEAT_SECONDS while it runs."""
    started = time.monotonic()
    logger.info("%s ...", name)
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(HEARTBEAT_SECONDS):
            detail = ""
            if backend is not None:
                try:
                    detail = backend.progress()
                except Exception:  # progress is best effort; never fail the profile for it
                    detail = ""
            logger.info("%s: %.0f s%s", name, time.monotonic() - started, f" ({detail})" if detail else "")

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=1)
        seconds = time.monotonic() - started
        if timings is not None and key is not None:
            timings[key] = round(seconds, 2)
        logger.info("%s: done in %.1f s", name, seconds)


# -- the profile ------------------------------------------------------------------------


@dataclass
class ProfileRequest:
    """Everything ``skewjoin profile`` was asked (the CLI options)."""

    table: str
    keys: list[str]
    side: str = "a"
    position: Literal["left", "right"] = "left"
    other: str | None = None
    other_keys: list[str] | None = None
    other_side: str | None = None
    fmt: str | None = None
    other_fmt: str | None = None
    sample: float | None = None
    total_slots: int | None = None
    dbt: DbtTarget | None = None
    min_share: float = DEFAULTS.min_share
    max_keys: int = DEFAULTS.max_keys
    max_broadcast_rows: int = DEFAULTS.max_broadcast_rows
    join_type: str = DEFAULTS.join_type


@dataclass(frozen=True)
class DbtTarget:
    """The dbt project and target whose slot count the config is for (the ``--project-dir``,
    ``--profiles-dir``, ``--profile`` and ``--target`` options; None picks dbt's default)."""

    project_dir: Path | None = None
    profiles_dir: Path | None = None
    profile: str | None = None
    target: str | None = None


@dataclass(frozen=True)
class SlotChoice:
    """The slot count to plan with, where it comes from, and whether the config carries it."""

    total_slots: int
    source: str
    written: bool


def choose_total_slots(request: ProfileRequest, backend: SparkBackend) -> SlotChoice:
    """``--total-slots``, else the dbt project's var or target's shuffle partitions, else none.

    With none, the config leaves ``total_slots`` out (the macro then takes the
    session's ``spark.sql.shuffle.partitions`` when the model runs) and the plan
    assumes the Thrift server's setting, or Spark's default for a local profile
    (whose own session says nothing about the user's cluster).
    """
    if request.total_slots is not None:
        return SlotChoice(request.total_slots, "--total-slots", True)
    why_none = "no --total-slots or dbt target given"
    if request.dbt is not None:
        dbt = request.dbt
        found = target_total_slots(dbt.project_dir, dbt.profiles_dir, dbt.profile, dbt.target)
        if found.total_slots is not None:
            return SlotChoice(found.total_slots, found.source, True)
        why_none = found.source
    if backend.kind == "thrift":
        server = shuffle_partitions(backend)
        if server is not None and server >= 2:
            return SlotChoice(server, f"spark.sql.shuffle.partitions of the {backend.description}; {why_none}", False)
    assumed = SPARK_DEFAULT_SHUFFLE_PARTITIONS
    return SlotChoice(assumed, f"Spark's default spark.sql.shuffle.partitions; {why_none}", False)


@dataclass
class ProfileResult:
    plan: Plan
    timings: dict[str, float]

    def report(self) -> str:
        return report(self.plan, self.timings)

    def json(self) -> dict[str, Any]:
        return to_json(self.plan, self.timings)


def profile(backend: SparkBackend, request: ProfileRequest, timings: dict[str, float] | None = None) -> ProfileResult:
    """Measure and plan (the work of ``skewjoin profile`` once a backend is up)."""
    timings = timings if timings is not None else {}
    other_alias = request.other_side or ("a" if request.side.lower() == "b" else "b")
    if other_alias.lower() == request.side.lower():
        raise ProfileError(f"--side and --other-side must differ; both are {request.side!r}")
    with phase(f"reading the schema of {request.table}", backend, timings, "schema"):
        from_sql, source = resolve_source(backend, request.table, request.fmt, "sj_profile_side")
        columns = pick_columns(describe(backend, from_sql), request.keys, request.table)
    names = [c for c, _ in columns]
    types = [t for _, t in columns]

    scan = "scanning " + (f"a {request.sample:.2%} sample of " if request.sample else "") + request.table
    with phase(scan, backend, timings, "scan"):
        rows = backend.sql(top_keys_sql(from_sql, names, request.max_keys, request.sample))
    top = parse_top_keys(rows, types)
    logger.info(
        "%s rows counted, %s with a NULL key, heaviest key %s rows",
        f"{top.total_rows:,}",
        f"{top.null_rows:,}",
        f"{top.top[0][1]:,}" if top.top else "-",
    )

    other_stats: OtherStats | None = None
    other_counts: dict[int, int] = {}
    if request.other is not None:
        wanted = request.other_keys or request.keys
        if len(wanted) != len(names):
            raise ProfileError(
                f"--other-keys names {len(wanted)} column(s) and --keys {len(names)}; give one per key column, in order"
            )
        with phase(f"reading the schema of {request.other}", backend, timings, "other_schema"):
            other_from, other_source = resolve_source(backend, request.other, request.other_fmt, "sj_profile_other")
            other_columns = pick_columns(describe(backend, other_from), wanted, request.other)
        candidates = [
            values for values, count in top.top if top.total_rows and count / top.total_rows >= request.min_share
        ]
        with phase(f"counting {len(candidates)} candidate key(s) in {request.other}", backend, timings, "other"):
            counted = backend.sql(other_counts_sql(other_from, other_columns, types, candidates))
        other_total = other_nulls = 0
        for candidate, count, null_count in counted:
            other_total += int(count)
            other_nulls += int(null_count)
            if candidate is not None:
                other_counts[int(candidate)] = int(count)
        other_stats = OtherStats(
            alias=other_alias,
            columns=tuple(c for c, _ in other_columns),
            types=tuple(t for _, t in other_columns),
            total_rows=other_total,
            null_rows=other_nulls,
            source=other_source,
        )
        stats = []
        for values, count in top.top:
            index = next((i for i, c in enumerate(candidates) if c == values), None)
            stats.append(KeyStat(values, count, None if index is None else other_counts.get(index, 0)))
    else:
        stats = [KeyStat(values, count) for values, count in top.top]

    with phase("choosing total_slots", None, timings, "conf"):
        slots = choose_total_slots(request, backend)
    logger.info("total_slots: %s", slots.source)

    with phase("planning", None, timings, "plan"):
        side = SideStats(
            alias=request.side,
            columns=tuple(names),
            types=tuple(types),
            total_rows=top.total_rows,
            null_rows=top.null_rows,
            top=tuple(stats),
            source=source,
            sample_fraction=request.sample,
            position=request.position,
        )
        options = PlanOptions(
            total_slots=slots.total_slots,
            total_slots_source=slots.source,
            write_total_slots=slots.written,
            min_share=request.min_share,
            max_keys=request.max_keys,
            max_broadcast_rows=request.max_broadcast_rows,
            join_type=request.join_type,
            other_alias=other_alias,
        )
        result = plan(side, options, other_stats)
    return ProfileResult(result, timings)


def run_profile(request: ProfileRequest, location: SparkLocation) -> ProfileResult:
    """Open the Spark at *location*, measure and plan, close it: all of ``skewjoin profile``."""
    timings: dict[str, float] = {}
    with phase(f"connecting to {location.describe()}", None, timings, "connect"):
        backend = location.open()
    try:
        return profile(backend, request, timings)
    finally:
        backend.close()

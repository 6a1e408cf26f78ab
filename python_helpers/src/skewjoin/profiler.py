"""``skewjoin profile``: measure the key skew of a join input and plan a ``skew_join`` config.

One aggregate query over the input (exact, or over a ``tablesample`` when
``--sample`` is given) returns the heaviest keys, the total and the NULL-key
rows together (``group by grouping sets ((keys), ())``, as the package's
``hot_keys: 'auto'`` does at run time). With ``--other``, one more query
counts the other input's rows of those keys. :mod:`skewjoin.planner` turns the
counts into hot keys, skew groups and slot ranges, and prints the config as
YAML and as a Jinja ``config()`` line.

Where the SQL runs:

- a local Spark session started here (PySpark), for a Parquet/ORC/CSV/JSON
  path or a table of a local warehouse (``--warehouse``, ``--metastore``);
- a running Spark Thrift Server (``--thrift HOST:PORT``, PyHive), for the
  relations dbt built there (``schema.table``) or paths it can read.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

import click

from skewjoin.local_spark import driver_java_options, first_lines, start_session
from skewjoin.planner import (
    JOIN_TYPES,
    KeyStat,
    OtherStats,
    Plan,
    PlanError,
    PlanOptions,
    SideStats,
    is_complex_type,
    key_value,
    plan,
    quote_spark_string,
    report,
    spark_ident,
    spark_literal,
    to_json,
    type_kind,
)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

logger = logging.getLogger(__name__)

FORMATS = ("parquet", "orc", "csv", "json")
DEFAULT_TOTAL_SLOTS = 200
HEARTBEAT_SECONDS = 10.0
_RELATION_NAME = re.compile(
    r"(?:`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_]*)(?:\.(?:`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_]*)){0,2}"
)

Row = tuple[Any, ...]


class ProfileError(click.ClickException):
    """The profile cannot be made (bad input, Spark refused a query); the message says what to do."""


# -- where SQL runs ---------------------------------------------------------------------


class Backend(Protocol):
    """Runs Spark SQL and returns rows as tuples."""

    description: str

    def sql(self, text: str) -> list[Row]: ...

    def shuffle_partitions(self) -> int | None: ...

    def progress(self) -> str: ...

    def resolve_table(self, name: str) -> tuple[str, str] | None: ...

    def close(self) -> None: ...


class LocalSpark:
    """A local Spark session (PySpark) started for the profile; :meth:`close` stops it.

    Meant for the command: in a process that already runs a Spark session,
    ``getOrCreate`` would hand that session over and ``close`` would stop it.
    """

    def __init__(
        self,
        conf: dict[str, str] | None = None,
        warehouse: Path | None = None,
        metastore: Path | None = None,
        driver_memory: str = "2g",
    ) -> None:
        from pyspark.sql import SparkSession

        self.warehouse = warehouse.resolve() if warehouse else None
        self._scratch = tempfile.TemporaryDirectory(prefix="skewjoin-profile-")
        settings: dict[str, str] = {
            "spark.master": "local[2]",
            "spark.driver.memory": driver_memory,
            "spark.ui.enabled": "false",
            "spark.ui.showConsoleProgress": "false",
            "spark.sql.warehouse.dir": str(self.warehouse or Path(self._scratch.name) / "warehouse"),
            "spark.driver.extraJavaOptions": driver_java_options(Path(self._scratch.name)),
            "spark.sql.catalogImplementation": "in-memory",
        }
        if metastore is not None:
            db_dir = metastore.resolve()
            if db_dir.name != "metastore_db" and (db_dir / "metastore_db").is_dir():
                db_dir = db_dir / "metastore_db"
            if not db_dir.is_dir():
                self._scratch.cleanup()
                raise ProfileError(f"--metastore {metastore}: no Derby metastore_db/ there")
            settings["spark.sql.catalogImplementation"] = "hive"
            settings["spark.hadoop.javax.jdo.option.ConnectionURL"] = f"jdbc:derby:;databaseName={db_dir};create=false"
        settings.update(conf or {})
        self.description = f"local Spark ({settings['spark.master']})"
        try:
            self.spark: SparkSession = start_session(settings, ProfileError, app_name="skewjoin profile")
        except ProfileError:
            self._scratch.cleanup()
            raise
        self._quiet_pyspark_error_log()

    @staticmethod
    def _quiet_pyspark_error_log() -> None:
        """PySpark logs every failed SQL statement as a JSON stack trace; we report it ourselves."""
        try:
            from pyspark.logger import PySparkLogger

            for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
                PySparkLogger.getLogger(name).setLevel(logging.CRITICAL)
        except ImportError:  # PySpark < 4
            pass

    def sql(self, text: str) -> list[Row]:
        from pyspark.errors import PySparkException

        logger.debug("sql: %s", text)
        try:
            return [tuple(row) for row in self.spark.sql(text).collect()]
        except PySparkException as exc:
            raise ProfileError(f"Spark refused a query: {first_lines(str(exc))}") from exc

    def shuffle_partitions(self) -> int | None:
        value = self.spark.conf.get("spark.sql.shuffle.partitions")
        return int(value) if value and value.isdigit() else None

    def progress(self) -> str:
        tracker = self.spark.sparkContext.statusTracker()
        parts = []
        for stage_id in sorted(tracker.getActiveStageIds()):
            info = tracker.getStageInfo(stage_id)
            if info is not None:
                parts.append(f"stage {stage_id}: {info.numCompletedTasks}/{info.numTasks} tasks")
        return ", ".join(parts)

    def resolve_table(self, name: str) -> tuple[str, str] | None:
        """A catalog table, or a table directory in --warehouse (dbt-spark's layout)."""
        if self.spark.catalog.tableExists(name):
            return _quote_relation(name), f"table {name} on {self.description}"
        if self.warehouse is None:
            return None
        parts = [p.strip("`") for p in _split_relation(name)]
        candidates = [self.warehouse.joinpath(*parts[:-1], parts[-1])]
        if len(parts) >= 2:
            candidates.insert(0, self.warehouse / f"{parts[-2]}.db" / parts[-1])
        else:
            candidates.append(self.warehouse / "default.db" / parts[-1])
        for path in candidates:
            if path.is_dir():
                logger.info("table %s not in the catalog; reading its warehouse directory %s", name, path)
                fmt = guess_format(path)
                view = register_path(self, str(path), fmt, "sj_profile_" + re.sub(r"\W", "_", parts[-1]))
                return view, f"table {name} ({fmt} files in {path})"
        return None

    def close(self) -> None:
        self.spark.stop()
        self._scratch.cleanup()


class ThriftSpark:
    """A running Spark Thrift Server reached through PyHive."""

    def __init__(self, address: str) -> None:
        from skewjoin.sql import connect

        host, sep, port = address.rpartition(":")
        if not sep or not host or not port.isdigit():
            raise ProfileError(f"--thrift expects HOST:PORT, e.g. 127.0.0.1:10000; got {address!r}")
        self.description = f"Spark Thrift Server {host}:{port}"
        try:
            self.conn = connect(host, int(port))
        except Exception as exc:  # PyHive raises thrift transport errors of several kinds
            raise ProfileError(
                f"cannot connect to the Spark Thrift Server on {host}:{port}: {first_lines(str(exc), 1)}; "
                "start one with `skewjoin spark-thrift start`"
            ) from exc

    def sql(self, text: str) -> list[Row]:
        from skewjoin.sql import SparkSqlError, run_sql

        try:
            return run_sql(self.conn, text)
        except SparkSqlError as exc:
            raise ProfileError(f"Spark refused a query: {first_lines(exc.spark_message)}") from exc

    def shuffle_partitions(self) -> int | None:
        rows = self.sql("set spark.sql.shuffle.partitions")
        value = str(rows[0][1]) if rows and len(rows[0]) > 1 else ""
        return int(value) if value.isdigit() else None

    def progress(self) -> str:
        return ""

    def resolve_table(self, name: str) -> tuple[str, str] | None:
        return _quote_relation(name), f"table {name} on {self.description}"  # Spark says whether it exists

    def close(self) -> None:
        self.conn.close()


# -- sources ----------------------------------------------------------------------------


def _split_relation(name: str) -> list[str]:
    return re.findall(r"`(?:[^`]|``)+`|[^.`]+", name)


def _quote_relation(name: str) -> str:
    return ".".join(p if p.startswith("`") else spark_ident(p) for p in _split_relation(name))


def guess_format(path: Path) -> str:
    """parquet | orc | csv | json from the file's or the directory's data files' extension."""
    names = (
        [path.name]
        if path.is_file()
        else sorted(p.name for p in path.rglob("*") if p.is_file() and not p.name.startswith(("_", ".")))
    )
    for name in names:
        for fmt in FORMATS:
            if name.lower().endswith(("." + fmt, "." + fmt + ".gz", "." + fmt + ".snappy")) or (
                fmt == "parquet" and ".parquet" in name.lower()
            ):
                return fmt
            if fmt == "orc" and ".orc" in name.lower():
                return fmt
    return "parquet"


def register_path(backend: Backend, path: str, fmt: str | None, view: str) -> str:
    """A temporary view over the data at *path*; returns its name."""
    local = Path(path)
    if fmt is None:
        fmt = guess_format(local) if local.exists() else "parquet"
    options = {"path": str(local.resolve()) if local.exists() else path}
    if fmt == "csv":
        options.update({"header": "true", "inferSchema": "true"})
    option_sql = ", ".join(f"{k} {quote_spark_string(v)}" for k, v in options.items())
    backend.sql(f"create or replace temporary view {view} using {fmt} options ({option_sql})")
    return view


def resolve_source(backend: Backend, table: str, fmt: str | None, view: str) -> tuple[str, str]:
    """(FROM text, description) of a path or a relation name."""
    if fmt is not None or os.path.exists(table) or "/" in table:
        if fmt is None and not os.path.exists(table) and isinstance(backend, LocalSpark):
            raise ProfileError(f"{table}: no such file or directory")
        from_sql = register_path(backend, table, fmt, view)
        return from_sql, f"{table} ({fmt or guess_format(Path(table))})"
    if not _RELATION_NAME.fullmatch(table):
        raise ProfileError(
            f"{table!r} is neither an existing path nor a table name (schema.table, `quoted name` allowed)"
        )
    resolved = backend.resolve_table(table)
    if resolved is None:
        hint = " (no --warehouse given)" if isinstance(backend, LocalSpark) and backend.warehouse is None else ""
        raise ProfileError(
            f"table {table} not found in {backend.description}{hint}; give a Parquet/ORC/CSV path, "
            "--warehouse DIR [--metastore DIR] for a local warehouse, or --thrift HOST:PORT for a running server"
        )
    return resolved


def describe(backend: Backend, from_sql: str) -> list[tuple[str, str]]:
    """[(column, type)] of a relation."""
    rows = backend.sql(f"describe query select * from {from_sql}")
    return [(str(r[0]), str(r[1])) for r in rows if r[0] and not str(r[0]).startswith("#")]


def pick_columns(columns: Sequence[tuple[str, str]], wanted: Sequence[str], what: str) -> list[tuple[str, str]]:
    """The (name, type) of each wanted key column, matched case-insensitively."""
    by_lower = {name.lower(): (name, dtype) for name, dtype in columns}
    picked = []
    for name in wanted:
        found = by_lower.get(name.strip("`").lower())
        if found is None:
            raise ProfileError(f"{what} has no column {name!r}; its columns are: {', '.join(c for c, _ in columns)}")
        if is_complex_type(found[1]):
            raise ProfileError(f"key column {found[0]} of {what} has type {found[1]}; join keys must be scalar")
        picked.append(found)
    return picked


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
    name: str, backend: Backend | None = None, timings: dict[str, float] | None = None, key: str | None = None
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
    min_share: float = 0.01
    max_keys: int = 20
    max_broadcast_rows: int = 100_000
    join_type: str = "inner"


@dataclass
class ProfileResult:
    plan: Plan
    timings: dict[str, float]

    def report(self) -> str:
        return report(self.plan, self.timings)

    def json(self) -> dict[str, Any]:
        return to_json(self.plan, self.timings)


def profile(backend: Backend, request: ProfileRequest, timings: dict[str, float] | None = None) -> ProfileResult:
    """Measure and plan (the work of ``skewjoin profile`` once a backend is up)."""
    timings = timings if timings is not None else {}
    other_alias = request.other_side or ("a" if request.side == "b" else "b")
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

    if request.total_slots is not None:
        total_slots, slots_source = request.total_slots, "--total-slots"
    else:
        with phase("reading spark.sql.shuffle.partitions", None, timings, "conf"):
            found = backend.shuffle_partitions()
        if found is not None and found >= 2:
            total_slots = found
            if isinstance(backend, LocalSpark):
                slots_source = (
                    "spark.sql.shuffle.partitions of this profiling session, not of your cluster: "
                    "pass --total-slots to match the Spark that runs the model"
                )
            else:
                slots_source = f"spark.sql.shuffle.partitions of the {backend.description}"
        else:
            total_slots, slots_source = DEFAULT_TOTAL_SLOTS, "default"

    with phase("planning", None, timings, "plan"):
        try:
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
                total_slots=total_slots,
                total_slots_source=slots_source,
                min_share=request.min_share,
                max_keys=request.max_keys,
                max_broadcast_rows=request.max_broadcast_rows,
                join_type=request.join_type,
                other_alias=other_alias,
            )
            result = plan(side, options, other_stats)
        except PlanError as exc:
            raise ProfileError(str(exc)) from exc
    return ProfileResult(result, timings)


# -- the command ------------------------------------------------------------------------


def _columns_option(value: str | None) -> list[str] | None:
    if value is None:
        return None
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise click.BadParameter("give at least one column name, e.g. customer_id or k1,k2")
    return names


def _alias_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        raise click.BadParameter(f"an alias is a plain SQL name such as a or orders; got {value!r}")
    return value


def _parse_conf(values: Sequence[str]) -> dict[str, str]:
    conf: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, got {item!r}", param_hint="--conf")
        conf[key.strip()] = value
    return conf


@click.command("profile", short_help="Find the hot keys of a join input and plan a skew_join config.")
@click.argument("table")
@click.option(
    "-k",
    "--keys",
    required=True,
    metavar="COLS",
    help="Join key column(s) of TABLE, comma-separated: customer_id, or k1,k2 for a multi-column key.",
)
@click.option(
    "--side",
    callback=_alias_option,
    default="a",
    show_default=True,
    metavar="ALIAS",
    help="TABLE's alias in skew_join (left_alias a, right_alias b by default); the config names this side.",
)
@click.option(
    "--position",
    type=click.Choice(["left", "right"]),
    default=None,
    help="TABLE's place in skew_join(left, right, ...).  [default: right when --side is b, else left]",
)
@click.option(
    "--other",
    "other_table",
    metavar="TABLE",
    help="The other join input (a path or a table, like TABLE). Its rows of each hot key are counted: "
    "few -> broadcast (hot_keys), many -> a skew group.",
)
@click.option("--other-keys", metavar="COLS", help="Key column(s) of --other, in --keys order.  [default: --keys]")
@click.option(
    "--other-side",
    metavar="ALIAS",
    callback=_alias_option,
    help="Alias of the other input.  [default: b, or a when --side is b]",
)
@click.option(
    "--join-type",
    type=click.Choice(JOIN_TYPES),
    default="inner",
    show_default=True,
    help="The join skew_join will do: outer joins may not copy a preserved side's rows to several slots.",
)
@click.option(
    "--sample",
    type=click.FloatRange(0, 1, min_open=True),
    metavar="FRACTION",
    help="Count a random sample (tablesample) of this fraction of the rows, e.g. 0.1: faster, shares "
    "are estimates with a 95% margin.  [default: every row, exact]",
)
@click.option(
    "--total-slots",
    type=click.IntRange(min=2),
    metavar="N",
    help="Shuffle partitions of the join the groups share.  "
    "[default: spark.sql.shuffle.partitions of the session, else 200]",
)
@click.option(
    "--min-share",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.01,
    metavar="FRACTION",
    show_default=True,
    help="A key (or NULL) with at least this fraction of the rows is handled.",
)
@click.option(
    "--max-keys",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    metavar="N",
    help="Look at the N heaviest keys.",
)
@click.option(
    "--max-broadcast-rows",
    type=click.IntRange(min=0),
    default=100_000,
    show_default=True,
    metavar="N",
    help="Budget of other-side rows the hot keys may broadcast in all (with --other).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Format of TABLE when it is a path.  [default: from the file names, else parquet]",
)
@click.option(
    "--other-format", "other_fmt", type=click.Choice(FORMATS), default=None, help="Format of --other when it is a path."
)
@click.option(
    "--thrift",
    metavar="HOST:PORT",
    help="Run the queries on this Spark Thrift Server (PyHive) instead of a local Spark; TABLE is then "
    "a relation there, e.g. the schema.table dbt built.",
)
@click.option(
    "--warehouse",
    type=click.Path(file_okay=False, path_type=Path),
    help="Local Spark warehouse directory holding TABLE (spark.sql.warehouse.dir).",
)
@click.option(
    "--metastore",
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory of the Derby metastore_db/ describing --warehouse (not while a server uses it).",
)
@click.option(
    "--conf",
    "conf",
    multiple=True,
    metavar="KEY=VALUE",
    help="Extra Spark config of the local session, repeatable, e.g. --conf spark.sql.shuffle.partitions=64.",
)
@click.option(
    "--driver-memory", default="2g", show_default=True, metavar="SIZE", help="Memory of the local Spark driver."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (measurements, plan, config) instead.")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines on stderr.")
def profile_command(
    table: str,
    keys: str,
    side: str,
    position: str | None,
    other_table: str | None,
    other_keys: str | None,
    other_side: str | None,
    join_type: str,
    sample: float | None,
    total_slots: int | None,
    min_share: float,
    max_keys: int,
    max_broadcast_rows: int,
    fmt: str | None,
    other_fmt: str | None,
    thrift: str | None,
    warehouse: Path | None,
    metastore: Path | None,
    conf: tuple[str, ...],
    driver_memory: str,
    as_json: bool,
    quiet: bool,
) -> None:
    """Find the heavy keys of TABLE and print a ready-to-paste skew_join config.

    TABLE is a Parquet/ORC/CSV/JSON path, a table of a local Spark warehouse
    (--warehouse), or with --thrift a relation on a running Spark Thrift
    Server. One aggregate query counts the rows of every key (exact, or a
    sample with --sample) and returns the heaviest, the total and the NULL
    keys. Each key with at least --min-share of the rows becomes a hot key
    (broadcast join) or, when --other shows the other input has too many rows
    of it, a skew group with its own slots (about share x total slots). NULL
    keys above --min-share become `null` in hot_keys: they bypass the join.

    \b
    Examples:
      skewjoin profile data/orders.parquet --keys customer_id
      skewjoin profile data/orders.parquet -k customer_id --other data/customers.parquet
      skewjoin profile skewjoin_it.orders -k customer_id --thrift 127.0.0.1:10000 --sample 0.1
      skewjoin profile orders -k region,customer_id --warehouse .spark/wh --json

    The report goes to stdout and ends with the config twice: YAML for a
    model's `config:` in a properties file, and a Jinja line
    {{ config(skew_join={...}) }} for the top of the model. Progress goes to
    stderr (-q to silence).
    """
    if not quiet and logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
    if not logging.getLogger().handlers:
        logging.basicConfig(stream=click.get_text_stream("stderr"), format="%(asctime)s %(message)s")
    key_list = _columns_option(keys)
    assert key_list is not None
    request = ProfileRequest(
        table=table,
        keys=key_list,
        side=side,
        position="right" if position == "right" or (position is None and side == "b") else "left",
        other=other_table,
        other_keys=_columns_option(other_keys),
        other_side=other_side,
        fmt=fmt,
        other_fmt=other_fmt,
        sample=None if sample is None or sample >= 1 else sample,
        total_slots=total_slots,
        min_share=min_share,
        max_keys=max_keys,
        max_broadcast_rows=max_broadcast_rows,
        join_type=join_type,
    )
    if other_keys is not None and other_table is None:
        raise click.BadParameter("--other-keys needs --other", param_hint="--other-keys")
    if thrift and (warehouse or metastore or conf):
        raise click.UsageError("--warehouse, --metastore and --conf configure the local Spark; --thrift uses a server")
    timings: dict[str, float] = {}
    backend_factory: Callable[[], Backend]
    if thrift:
        backend_factory = lambda: ThriftSpark(thrift)  # noqa: E731
    else:
        spark_conf = _parse_conf(conf)
        backend_factory = lambda: LocalSpark(spark_conf, warehouse, metastore, driver_memory)  # noqa: E731
    with phase(
        "connecting to " + ("the Spark Thrift Server " + thrift if thrift else "a local Spark session"),
        None,
        timings,
        "connect",
    ):
        backend = backend_factory()
    try:
        result = profile(backend, request, timings)
    finally:
        backend.close()
    if as_json:
        click.echo(json.dumps(result.json(), indent=2, ensure_ascii=False))
    else:
        click.echo(result.report(), nl=False)

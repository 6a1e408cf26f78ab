"""``skewjoin prune``: the Python twin of the ``prune_predicate`` macro (join-driven pruning, HIVE-5119).

Given a big table and filtered small relations joined to it, collect the
small relations' distinct join keys, intersect the sets that constrain the
same big columns, and write the predicate on the big table that the macro
``skewjoin.prune_predicate`` returns for the same inputs, character for
character; then list the big table's partitions that predicate keeps.

The pipeline is the macro's (macros/pruning/*.sql): spec (no query:
:func:`parse_requests`) -> resolve (column lists and types) -> plan (one key
query per group of small relations, :func:`prune`) -> render. The rules are
ports of the macros, named after them:

The SQL-text rules these use are in :mod:`skewjoin.literals` (types, names, query
text: one rule each for the whole package) and :mod:`skewjoin.sql_rules`:

- types (macros/_internal/types.sql): :func:`~skewjoin.literals.normalize_type`
  (``_sj_normalize_type``), :func:`~skewjoin.literals.type_kind`, :func:`common_type`
  (``_sj_common_type``), :func:`cast_expr` (``_sj_cast``), and
  :func:`prune_target_type` (``_sj_prune_target_type``);
- literals (macros/_internal/literals.sql): :func:`sql_literal`
  (``_sj_literal``: numbers are written ``cast(<n> as <type>)``, unlike
  :func:`skewjoin.literals.spark_literal`, the planner's config form),
  :func:`prune_literal` (``_sj_prune_literal``) and
  :func:`~skewjoin.literals.spark_ident` (``_sj_ident``); strings are quoted by
  :func:`skewjoin.literals.quote_spark_string`, the same escaping as
  ``_sj_quote_string``;
- rendering (render.sql, expressions.sql): :func:`indent` (``_sj_indent``),
  :func:`split_literals`, :func:`expr_refs`, :func:`check_fragment`.

The request and its checks are in :mod:`skewjoin.prune_spec`, the prune cache
in :mod:`skewjoin.prune_cache`.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from skewjoin.literals import normalize_type, quote_spark_string, spark_ident, type_kind
from skewjoin.spark_backend import Row, SparkBackend
from skewjoin.sql_rules import (
    cast_expr,
    common_type,
    did_you_mean,
    expr_refs,
    fail,
    indent,
    prune_literal,
    prune_target_type,
    with_ctes,
)

if TYPE_CHECKING:
    from skewjoin.prune_spec import PruneSpec, SmallSpec

logger = logging.getLogger(__name__)

DEFAULT_MAX_VALUES = 1000
DEFAULT_FALLBACK = "range"
FALLBACKS = ("range", "semi_join", "none")
PRUNE_JOIN_TYPES = ("inner", "right", "left semi")
#: the macro counts the kept partitions of tables with at most this many partitions
MAX_PARTITIONS = 10000
TIMESTAMP_TEXT = "yyyy-MM-dd HH:mm:ss.SSSSSSxxx"

# -- resolve (column lists and types) -----------------------------------------------------


@dataclass(frozen=True)
class Column:
    name: str
    type: str


@dataclass(frozen=True)
class Key:
    """One key column pair, resolved (``_sj_prune_resolve_keys``)."""

    big: str
    big_type: str
    small: str
    small_type: str
    common: str
    target: str
    pushable: bool
    big_expr: str
    small_expr: str


@dataclass
class Source:
    spec: SmallSpec
    keys: list[Key]


def describe_columns(backend: SparkBackend, from_sql: str) -> list[Column]:
    """``_sj_columns``: the columns of a relation as DESCRIBE QUERY gives them, types normalized."""
    rows = backend.sql(f"describe query select * from {from_sql} as sj_described")
    out = []
    for row in rows:
        name = str(row[0])
        if name and not name.startswith("#"):
            out.append(Column(name, normalize_type(row[1])))
    return out


def find_column(columns: Sequence[Column], name: str) -> Column | None:
    """``_sj_find_column``: case-insensitive, backticks ignored."""
    wanted = name.strip().strip("`").lower()
    return next((c for c in columns if c.name.lower() == wanted), None)


_LITERAL_KINDS = ("integral", "decimal", "fractional", "string", "boolean", "date", "timestamp")


def resolve_keys(
    spec: PruneSpec, src: SmallSpec, big_columns: Sequence[Column], src_columns: Sequence[Column], ansi: bool
) -> list[Key]:
    """The key pairs of one small relation against the real columns, sorted by big column."""
    argument = f"small[{src.index}].on"
    prefix = f"{spec.alias}." if spec.alias is not None else ""
    keys = []
    for big_name, small_name in src.pairs:
        bc, sc = find_column(big_columns, big_name), find_column(src_columns, small_name)
        if bc is None:
            names = [c.name for c in big_columns]
            fail(
                spec.name,
                argument,
                f"column '{big_name}' is not a column of the big table"
                f"{did_you_mean(big_name, names)}; its columns are: {', '.join(names)}",
                f"on: [[{names[0] if names else 'id'}, {small_name}]]",
            )
        if sc is None:
            names = [c.name for c in src_columns]
            fail(
                spec.name,
                argument,
                f"column '{small_name}' is not a column of {src.label}"
                f"{did_you_mean(small_name, names)}; its columns are: {', '.join(names)}",
                f"on: [[{big_name}, {names[0] if names else 'id'}]]",
            )
        common = common_type(bc.type, sc.type, ansi)
        if common is None:
            fail(
                spec.name,
                argument,
                f"big column {bc.name} ({bc.type}) and {src.label}.{sc.name} ({sc.type}) have "
                f"types Spark cannot compare consistently (ANSI mode {'on' if ansi else 'off'}); join on a key of "
                "a comparable type, or cast one side in a subquery so both keys share a type",
                f"on: [[{bc.name}, <a column of {src.label} of type {bc.type}>]]",
            )
        if type_kind(common) not in _LITERAL_KINDS and common != "timestamp_ntz":
            fail(
                spec.name,
                argument,
                f"the key {bc.name} is compared as {common}, a type whose values cannot be "
                "written as SQL literals exactly; prune on a key of a number, string, boolean, date or timestamp "
                "type",
                "on: [date_key]",
            )
        target = prune_target_type(bc.type, common)
        column_expr = prefix + spark_ident(bc.name)
        keys.append(
            Key(
                big=bc.name,
                big_type=bc.type,
                small=sc.name,
                small_type=sc.type,
                common=common,
                target=target if target is not None else common,
                pushable=target is not None,
                big_expr=column_expr if target is not None else cast_expr(column_expr, bc.type, common),
                small_expr=f"{src.alias}.{spark_ident(sc.name)}",
            )
        )
    return sorted(keys, key=lambda k: k.big.lower())  # Jinja's `sort(attribute='big')`: case-insensitive, stable


def partition_columns(backend: SparkBackend, table: str) -> list[str]:
    """``_sj_prune_partition_columns``: the partition columns DESCRIBE TABLE lists, [] for none."""
    columns = []
    in_section = False
    for row in backend.sql(f"describe table {table}"):
        name = str(row[0] or "").strip()
        if name == "# Partition Information":
            in_section = True
        elif in_section and name.startswith("#") and name != "# col_name":
            in_section = False
        elif in_section and name and not name.startswith("#"):
            columns.append(name)
        elif not name:
            in_section = False
    return columns


# -- the key queries (macros/pruning/prune_keys.sql) --------------------------------------


def group_key(keys: Sequence[Key]) -> str:
    """``_sj_prune_group_key``: the big columns (and target types) a source constrains."""
    return "|".join(f"{k.big.lower()}:{k.target}" for k in keys)


def _common_expr(k: Key) -> str:
    return cast_expr(k.small_expr, k.small_type, k.common)


def _target_expr(k: Key) -> tuple[str, str, bool]:
    """``_sj_prune_target_expr``: (value, check, narrowed)."""
    c = _common_expr(k)
    both_strings = type_kind(k.target) == "string" and type_kind(k.common) == "string"
    if k.target == k.common or both_strings:
        return c, f"{c} is not null", False
    v = f"try_cast({c} as {k.target})"
    return v, f"{c} is not null and cast({v} as {k.common}) = {c}", True


def keys_select(src: Source) -> str:
    """``_sj_prune_keys_select``: SELECT DISTINCT of one source's keys in the target types."""
    values, checks = [], []
    for i, k in enumerate(src.keys):
        value, check, _ = _target_expr(k)
        values.append(f"{value} as sj_k{i}")
        checks.append(check)
    conds = ([f"({src.spec.filter})"] if src.spec.filter is not None else []) + checks
    return (
        "select distinct\n    " + ",\n    ".join(values) + f"\nfrom {src.spec.from_text} as {src.spec.alias}"
        "\nwhere " + "\n    and ".join(conds)
    )


def intersection_select(sources: Sequence[Source]) -> str:
    """``_sj_prune_intersection_select``."""
    return "\nintersect\n".join(keys_select(src) for src in sources)


def value_text(expr: str, data_type: str) -> str:
    """``_sj_prune_value_text``: text that reads back as the same value (timestamps with their offset)."""
    if type_kind(data_type) == "timestamp":
        return f"date_format({expr}, '{TIMESTAMP_TEXT}')"
    return f"cast({expr} as string)"


def _text_expr(expr: str, data_type: str) -> str:
    return f"concat('v:', {value_text(expr, data_type)})"


def _stat_row(name: str, n: int, from_sql: str) -> str:
    values = ["concat('v:', cast(count(*) as string)) as sj_v0"] + [
        f"cast(null as string) as sj_v{i}" for i in range(1, n)
    ]
    return (
        f"select\n    'stat' as sj_kind,\n    '{name}' as sj_name,\n    "
        + ",\n    ".join(values)
        + f"\nfrom {from_sql}"
    )


def _source_stat_rows(src: Source, j: int, n: int) -> list[str]:
    """``_sj_prune_source_stat_rows``: the NULL-key rows and the values the big column cannot hold."""
    null_checks, unfit_values, unfit_checks = [], [], []
    narrowed = False
    for i, k in enumerate(src.keys):
        c = _common_expr(k)
        _, check, is_narrowed = _target_expr(k)
        null_checks.append(f"{c} is null")
        unfit_values.append(f"{c} as sj_c{i}")
        unfit_checks.append(check)
        narrowed = narrowed or is_narrowed
    where_filter = f"({src.spec.filter})\n    and " if src.spec.filter is not None else ""
    rel = f"{src.spec.from_text} as {src.spec.alias}"
    rows = [_stat_row(f"nulls_{j}", n, f"{rel}\nwhere {where_filter}({' or '.join(null_checks)})")]
    if narrowed:
        unfit_from = (
            f"(\n    select distinct {', '.join(unfit_values)}\n    from {rel}\n"
            f"    where {where_filter}not ({' or '.join(null_checks)})\n"
            f"        and not coalesce({' and '.join(unfit_checks)}, false)\n) as sj_unfit"
        )
        rows.append(_stat_row(f"unfit_{j}", n, unfit_from))
    return rows


@dataclass(frozen=True)
class SourceCounts:
    """What one small relation gave: distinct NULL-free keys the big column can hold, rows with a
    NULL key, distinct values the big column cannot hold."""

    distinct: int
    nulls: int
    unfit: int


@dataclass
class Collected:
    """``_sj_prune_collect``'s result for one group."""

    sources: list[SourceCounts]
    kept: int
    tuples: list[list[str]]
    min: list[str] | None
    max: list[str] | None
    seconds: float


def collect_sql(sources: Sequence[Source], max_values: int) -> str:
    """The key query of one group (``_sj_prune_collect``): per-source counts, the intersection's
    size, min and max, and up to max_values + 1 of its keys, every value as prefixed text."""
    keys = sources[0].keys
    n = len(keys)
    ctes: list[tuple[str, str]] = []
    rows: list[str] = []
    for j, src in enumerate(sources):
        ctes.append((f"sj_keys_{j}", keys_select(src)))
        rows.append(_stat_row(f"distinct_{j}", n, f"sj_keys_{j}"))
        rows += _source_stat_rows(src, j, n)
    ctes.append(("sj_kept", "\nintersect\n".join(f"select * from sj_keys_{j}" for j in range(len(sources)))))
    rows.append(_stat_row("kept", n, "sj_kept"))
    for agg in ("min", "max"):
        texts = [f"{_text_expr(f'{agg}(sj_k{i})', k.target)} as sj_v{i}" for i, k in enumerate(keys)]
        rows.append(
            f"select\n    '{agg}' as sj_kind,\n    cast(null as string) as sj_name,\n    "
            + ",\n    ".join(texts)
            + "\nfrom sj_kept"
        )
    texts = [f"{_text_expr(f'sj_k{i}', k.target)} as sj_v{i}" for i, k in enumerate(keys)]
    rows.append(
        "select * from (\n    select\n        'key' as sj_kind,\n        cast(null as string) as sj_name,\n        "
        + ",\n        ".join(texts)
        + f"\n    from sj_kept\n    limit {max_values + 1}\n) as sj_some_keys"
    )
    return with_ctes(ctes, "\nunion all\n".join(rows))


def read_collected(rows: Sequence[Row], n: int, n_sources: int, seconds: float) -> Collected:
    """The key query's rows (text values after their ``v:`` prefix) as the macro reads them."""
    stats: dict[str, int] = {}
    tuples: list[list[str]] = []
    bounds: dict[str, list[str]] = {}
    for row in rows:
        texts = [None if row[2 + i] is None else str(row[2 + i])[2:] for i in range(n)]
        if row[0] == "stat":
            stats[str(row[1])] = int(texts[0] or 0)
        elif row[0] == "key":
            tuples.append([str(t) for t in texts])  # key values are never NULL
        elif None not in texts:
            bounds[str(row[0])] = [str(t) for t in texts]
    counts = [
        SourceCounts(stats.get(f"distinct_{j}", 0), stats.get(f"nulls_{j}", 0), stats.get(f"unfit_{j}", 0))
        for j in range(n_sources)
    ]
    return Collected(counts, stats.get("kept", 0), sorted(tuples), bounds.get("min"), bounds.get("max"), seconds)


def collect(backend: SparkBackend, sources: Sequence[Source], max_values: int) -> Collected:
    """Run one group's key query."""
    started = time.monotonic()
    rows = backend.sql(collect_sql(sources, max_values))
    return read_collected(rows, len(sources[0].keys), len(sources), time.monotonic() - started)


# -- the plan (macros/pruning/prune_plan.sql) ----------------------------------------------


@dataclass(frozen=True)
class Conjunct:
    sql: str
    columns: tuple[str, ...]
    subquery: bool = False


@dataclass
class GroupPlan:
    """One group of small relations constraining the same big columns, and what it gives."""

    key: str
    sources: list[Source]
    collected: Collected
    conjuncts: list[Conjunct]
    empty: bool
    line: str


def _literals(k: Key, tuples: Sequence[Sequence[str]], i: int) -> list[str]:
    return [prune_literal(t[i], k.target) for t in tuples]


def group_predicate(
    spec: PruneSpec, sources: Sequence[Source], collected: Collected
) -> tuple[list[Conjunct], bool, str]:
    """``_sj_prune_group_predicate`` (with ``_sj_prune_in_lists``): (conjuncts, empty, record line)."""
    keys = sources[0].keys
    n = len(keys)
    columns = tuple(k.big.lower() for k in keys)
    shown = ", ".join(k.big_expr for k in keys)
    if collected.kept == 0:
        line = f"{shown}: the key set is empty, so no row of the big table can match: predicate false (reads nothing)"
        return [Conjunct("false", ())], True, line
    if collected.kept <= spec.max_values:
        conjuncts = []
        per_column = []
        for i, k in enumerate(keys):
            lits = list(dict.fromkeys(_literals(k, collected.tuples, i)))  # `unique(case_sensitive=true)`
            conjuncts.append(Conjunct(f"{k.big_expr} in ({', '.join(lits)})", (k.big.lower(),)))
            per_column.append(str(len(lits)))
        if n == 1:
            return conjuncts, False, f"{shown}: IN list of {collected.kept} values (<= max_values {spec.max_values})"
        tuples = [
            "(" + ", ".join(prune_literal(t[i], k.target) for i, k in enumerate(keys)) + ")" for t in collected.tuples
        ]
        conjuncts.append(Conjunct(f"({shown}) in ({', '.join(tuples)})", columns))
        line = (
            f"({shown}): IN list of {collected.kept} tuples (<= max_values {spec.max_values}): one IN list per column "
            f"({', '.join(per_column)} values; these reach the scan) and the exact tuple check"
        )
        return conjuncts, False, line
    above = (
        f"{shown if n == 1 else '(' + shown + ')'}: {collected.kept} {'values' if n == 1 else 'tuples'}, above "
        f"max_values {spec.max_values}: fallback {spec.fallback}"
    )
    if spec.fallback == "range":
        assert collected.min is not None and collected.max is not None
        conjuncts, ranges = [], []
        for i, k in enumerate(keys):
            lo, hi = prune_literal(collected.min[i], k.target), prune_literal(collected.max[i], k.target)
            conjuncts.append(Conjunct(f"{k.big_expr} between {lo} and {hi}", (k.big.lower(),)))
            ranges.append(f"{k.big} from {collected.min[i]} to {collected.max[i]}")
        return conjuncts, False, f"{above} (between the min and max key: {'; '.join(ranges)})"
    if spec.fallback == "semi_join":
        names = ", ".join(f"sj_keys.sj_k{i}" for i in range(n))
        sql = (
            f"{shown if n == 1 else '(' + shown + ')'} in (\n    select {names}\n    from (\n"
            f"{indent(intersection_select(sources), 8)}\n    ) as sj_keys\n)"
        )
        return (
            [Conjunct(sql, columns, True)],
            False,
            f"{above} (a semi join against the small relations' keys, left to Spark)",
        )
    return [], False, f"{above} (no predicate)"


def assemble(conjuncts: Sequence[Conjunct], empty: bool) -> str:
    """The predicate from all groups' conjuncts, laid out as ``_sj_prune_plan`` does."""
    if empty:
        return "false"
    if not conjuncts:
        return "true"
    return "(\n    " + "\n    and ".join(indent(c.sql, 4)[4:] for c in conjuncts) + "\n)"


def describe_source(spec: PruneSpec, src: Source) -> str:
    """``_sj_prune_describe_source``."""
    on = " and ".join(f"{spec.alias + '.' if spec.alias else ''}{k.big} = {k.small}" for k in src.keys)
    filter_text = f", filter: {src.spec.filter}" if src.spec.filter is not None else ", no filter"
    return f"{src.spec.label} ({src.spec.join_type} join on {on}{filter_text})"


def big_line(spec: PruneSpec, pcols: list[str] | None) -> str:
    """``_sj_prune_big_line``."""
    named = spec.big_from + (f" as {spec.alias}" if spec.alias else "")
    if not spec.big_is_table:
        return (
            f"big: a query ({spec.alias or 'no alias'}); partition metadata not read, the predicate reaches the "
            "scan through it"
        )
    if pcols is None:
        return f"big: {named}; partition metadata not read"
    if pcols:
        return f"big: {named}, partitioned by {', '.join(pcols)}"
    return f"big: {named}, not partitioned (no partition columns in DESCRIBE TABLE)"


def source_lines(spec: PruneSpec, sources: Sequence[Source], collected: Collected) -> list[str]:
    """``_sj_prune_source_lines``."""
    lines = []
    for src, c in zip(sources, collected.sources, strict=True):
        notes = []
        if c.nulls > 0:
            notes.append(f"{c.nulls} row(s) with a NULL key dropped (NULL never matches)")
        if c.unfit > 0:
            notes.append(f"{c.unfit} value(s) the big column cannot hold dropped (they never match)")
        lines.append(
            f"small[{src.spec.index}] {describe_source(spec, src)}: {c.distinct} distinct key(s)"
            + (f"; {'; '.join(notes)}" if notes else "")
        )
    if len(sources) > 1:
        idx = ", ".join(f"small[{src.spec.index}]" for src in sources)
        plural = "s" if len(sources[0].keys) > 1 else ""
        lines.append(f"intersection of {idx} (same big column{plural}): {collected.kept} key(s)")
    for k in sources[0].keys:
        if not k.pushable:
            lines.append(
                f"big column {k.big} ({k.big_type}) is compared as {k.common} by the join, which is not "
                f"one-to-one: the predicate compares {k.big_expr} (exact, but Spark cannot push it to the "
                "scan)"
            )
    return lines


# -- partitions (macros/pruning/prune_partitions.sql) --------------------------------------


def unescape_partition(text: str) -> str:
    """``_sj_prune_unescape``: undo Hive's partition path escaping (%XX)."""
    return re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text)


def list_partitions(backend: SparkBackend, table: str) -> list[dict[str, str | None]]:
    """``_sj_prune_list_partitions``: {column (lowercase): value or None} per partition, in SHOW PARTITIONS order."""
    partitions = []
    for row in backend.sql(f"show partitions {table}"):
        spec: dict[str, str | None] = {}
        for part in str(row[0]).split("/"):
            kv = part.split("=", 1)
            value = unescape_partition(kv[1]) if len(kv) == 2 else None
            spec[unescape_partition(kv[0]).lower()] = None if value == "__HIVE_DEFAULT_PARTITION__" else value
        partitions.append(spec)
    return partitions


@dataclass
class Partitions:
    """The big table's partitions and those the predicate keeps (None: not counted, as the macro)."""

    columns: list[str]
    total: int
    kept: int | None
    kept_partitions: list[dict[str, str | None]] | None
    line: str
    seconds: float
    all_partitions: list[dict[str, str | None]] = field(default_factory=list, repr=False)


def kept_partitions_sql(
    spec: PruneSpec,
    pcols: Sequence[str],
    big_columns: Sequence[Column],
    partitions: Sequence[Mapping[str, str | None]],
    conjuncts: Sequence[str],
) -> str:
    """The indexes of the partitions *conjuncts* keep: ``_sj_prune_count_partitions``' query over the
    partition values, returning which rows pass instead of how many."""
    rows = []
    for i, p in enumerate(partitions):
        values = [str(i)]
        for name in pcols:
            v = p.get(name.lower())
            values.append("cast(null as string)" if v is None else quote_spark_string(v))
        rows.append("(" + ", ".join(values) + ")")
    typed = ["sj_partition_index"]
    raw = ["sj_partition_index"]
    for i, name in enumerate(pcols):
        column = find_column(big_columns, name)
        raw.append(f"sj_p{i}")
        typed.append(f"{cast_expr(f'sj_p{i}', 'string', column.type if column else 'string')} as {spark_ident(name)}")
    return (
        "select sj_partition_index\nfrom (\n    select\n        " + ",\n        ".join(typed)
        + "\n    from values\n        " + ",\n        ".join(rows) + f"\n        as sj_parts ({', '.join(raw)})"
        + f"\n) as {spec.alias or 'sj_big'}\nwhere " + "\n    and ".join(conjuncts)
    )  # fmt: skip


def count_partitions(
    backend: SparkBackend,
    spec: PruneSpec,
    pcols: Sequence[str],
    big_columns: Sequence[Column],
    conjuncts: Sequence[str],
) -> tuple[int, list[dict[str, str | None]] | None, list[dict[str, str | None]]]:
    """(total, kept partitions or None when not counted, all partitions)."""
    partitions = list_partitions(backend, spec.big_from)
    total = len(partitions)
    if not conjuncts:
        return total, list(partitions), partitions
    if total == 0:
        return 0, [], partitions
    if total > MAX_PARTITIONS:
        return total, None, partitions
    rows = backend.sql(kept_partitions_sql(spec, pcols, big_columns, partitions, conjuncts))
    kept = sorted(int(r[0]) for r in rows)
    return total, [partitions[i] for i in kept], partitions


def partition_plan(
    backend: SparkBackend,
    spec: PruneSpec,
    pcols: list[str],
    big_columns: Sequence[Column],
    conjuncts: Sequence[Conjunct],
    empty: bool,
) -> Partitions:
    """``_sj_prune_partition_line``: count (and list) the partitions the conjuncts keep."""
    started = time.monotonic()
    plower = [c.lower() for c in pcols]
    on_partitions = [c for c in conjuncts if c.columns and all(col in plower for col in c.columns)]
    subquery = any(c.subquery for c in on_partitions)
    constrained: list[str] = []
    for c in conjuncts:
        constrained += [col for col in c.columns if col in plower and col not in constrained]
    if empty:
        total, kept, every = count_partitions(backend, spec, pcols, big_columns, ["false"])
        line = f"partitions: {total} in total, 0 kept (the predicate is false)"
    elif on_partitions:
        total, kept, every = count_partitions(backend, spec, pcols, big_columns, [c.sql for c in on_partitions])
        shown = len(kept) if kept is not None else "not counted (more than 10000)"
        if subquery:
            line = (
                f"partitions: {total} in total, {shown} hold keys of the semi join on partition column(s) "
                f"{', '.join(constrained)}; whether Spark skips the others is its own run-time choice (dynamic "
                "partition pruning)"
            )
        else:
            line = (
                f"partitions: {total} in total, {shown} kept by the literal predicate on partition column(s) "
                f"{', '.join(constrained)} (Spark lists and reads only those)"
            )
    else:
        total, kept, every = count_partitions(backend, spec, pcols, big_columns, [])
        line = (
            f"partitions: {total} in total, all kept: no predicate on a partition column ({', '.join(pcols)}); "
            "the predicate filters rows at the scan"
        )
    count = len(kept) if kept is not None else None
    return Partitions(pcols, total, count, kept, line, time.monotonic() - started, every)


# -- one request ---------------------------------------------------------------------------


@dataclass
class PruneResult:
    """Everything one request gave: the predicate, the record lines, each small relation's counts,
    and the partitions."""

    spec: PruneSpec
    ansi: bool
    big_columns: list[Column]
    sources: list[Source]
    groups: list[GroupPlan]
    predicate: str
    empty: bool
    lines: list[str]
    partitions: Partitions | None
    seconds: float

    def counts(self, src: Source) -> SourceCounts:
        for g in self.groups:
            for s, c in zip(g.sources, g.collected.sources, strict=True):
                if s is src:
                    return c
        raise KeyError(src.spec.index)


def spark_conf(backend: SparkBackend, key: str, default: str) -> str:
    """``_sj_spark_conf``: a setting's effective value as ``SET key`` reports it (a local session's
    ``conf.get`` says nothing of a default never set, such as Spark 4's ANSI mode)."""
    rows = backend.sql(f"set {key}")
    if not rows or rows[0][1] is None or str(rows[0][1]) == "<undefined>":
        return default
    return str(rows[0][1])


def resolve(backend: SparkBackend, spec: PruneSpec) -> tuple[bool, list[Column], list[Source], list[str] | None]:
    """``_sj_prune_resolve``: (ANSI mode, big columns, resolved sources, partition columns or None)."""
    ansi = spark_conf(backend, "spark.sql.ansi.enabled", "false").lower() == "true"
    big_columns = describe_columns(backend, spec.big_from)
    sources = []
    for src in spec.sources:
        src_columns = describe_columns(backend, src.from_text)
        for alias, column in expr_refs(src.filter or ""):
            if alias.lower() != src.alias.lower() and find_column(src_columns, alias) is None:
                fail(
                    spec.name,
                    f"small[{src.index}].filter",
                    f"the filter uses '{alias}.{column}', but "
                    f"{src.label} is named '{src.alias}' here; write bare column names or set 'alias'",
                    f'filter: "{column} is not null"',
                )
        sources.append(Source(src, resolve_keys(spec, src, big_columns, src_columns, ansi)))
    pcols = partition_columns(backend, spec.big_from) if spec.big_is_table else None
    return ansi, big_columns, sources, pcols


def prune(backend: SparkBackend, spec: PruneSpec) -> PruneResult:
    """Resolve, collect and plan one request: ``_sj_prune_plan`` with run-time queries on."""
    started = time.monotonic()
    ansi, big_columns, sources, pcols = resolve(backend, spec)
    lines = [big_line(spec, pcols)]
    groups: dict[str, list[Source]] = {}
    for src in sources:
        groups.setdefault(group_key(src.keys), []).append(src)
    plans: list[GroupPlan] = []
    conjuncts: list[Conjunct] = []
    seconds = 0.0
    for gk, members in groups.items():
        collected = collect(backend, members, spec.max_values)
        seconds += collected.seconds
        lines += source_lines(spec, members, collected)
        g_conjuncts, g_empty, line = group_predicate(spec, members, collected)
        lines.append(line)
        plans.append(GroupPlan(gk, members, collected, g_conjuncts, g_empty, line))
        conjuncts += g_conjuncts
    empty = any(g.empty for g in plans)
    predicate = assemble(conjuncts, empty)
    partitions = None
    if pcols:
        partitions = partition_plan(backend, spec, pcols, big_columns, conjuncts, empty)
        lines.append(partitions.line)
        seconds += partitions.seconds
    lines.append(f"key queries: {seconds:.2f} s")
    return PruneResult(
        spec, ansi, big_columns, sources, plans, predicate, empty, lines, partitions, time.monotonic() - started
    )

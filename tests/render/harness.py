"""Render the package's macros the way dbt does, with no Spark and no dbt run.

What is real: the macro files (every ``macros/**/*.sql``, split into macro
blocks by dbt's own block extractor), dbt's Jinja environment
(``dbt_common.clients.jinja.get_environment``: sandboxed, ``jinja2.ext.do``,
dbt's macro naming), dbt's ``return()`` (``MacroReturn``, caught by
``BaseMacroGenerator.call_macro`` as in dbt), dbt's ``modules``, ``tojson`` and
``fromjson``, and dbt-spark's ``SparkRelation`` for ``ref()``.

What is fake: the adapter (``dispatch``, ``type``), ``config``, ``var``,
``log``, ``exceptions`` and ``run_query``, which :class:`FakeSpark` answers from
the test's tables. It is strict where dbt would be lenient, so that a test
can never pass by accident:

- an undefined name or attribute raises (``StrictUndefined``);
- ``skewjoin.<name>`` of a macro that does not exist is undefined (so
  ``is defined`` is false, and calling it raises);
- a query FakeSpark has no answer for raises :class:`UnexpectedQuery` (an
  ``AssertionError``, never mistaken for a compile error);
- ``exceptions.raise_compiler_error`` raises :class:`RaisedCompilerError`,
  so a test expecting a compile error tells it apart from any other failure.
"""

from __future__ import annotations

import datetime
import decimal
import json
import os
import re
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
import jinja2.meta
import jinja2.nodes
from dbt.adapters.spark.relation import SparkRelation
from dbt.context.base import BaseContext, get_context_modules
from dbt_common.clients.jinja import BaseMacroGenerator, extract_toplevel_blocks, get_environment
from dbt_common.exceptions import CompilationError

PACKAGE = "skewjoin"
SCHEMA = "skewjoin_it"
REPO_ROOT = Path(__file__).resolve().parents[2]
MACRO_DIR = REPO_ROOT / "macros"
PROJECT_DIR = REPO_ROOT / "integration_tests"

# The integration project's vars (integration_tests/dbt_project.yml).
PROJECT_VARS: dict[str, Any] = {
    "skewjoin_total_slots": 20, "skewjoin_min_parallelism": 1, "skewjoin_verify": False,
}

# Settings a fresh Spark 4 session reports (the Thrift server's defaults).
DEFAULT_CONF: dict[str, str] = {
    "spark.sql.ansi.enabled": "true", "spark.sql.shuffle.partitions": "200", "spark.master": "local[*]",
    "spark.sql.adaptive.enabled": "true", "spark.sql.adaptive.coalescePartitions.initialPartitionNum": "<undefined>",
    "spark.sql.adaptive.coalescePartitions.enabled": "true",
    # AQE's skew join (read by 'auto''s forecast, aqe_forecast.sql), as a fresh Spark 4 session reports them
    "spark.sql.adaptive.skewJoin.enabled": "true", "spark.sql.adaptive.skewJoin.skewedPartitionFactor": "5.0",
    "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes": "268435456b",
    "spark.sql.adaptive.advisoryPartitionSizeInBytes": "67108864b",
    "spark.shuffle.minNumPartitionsToHighlyCompress": "<undefined>",
    "spark.shuffle.accurateBlockSkewedFactor": "<undefined>", "spark.sql.adaptive.forceOptimizeSkewedJoin": "false",
}

# The invocation id of every render (dbt makes one per command).
INVOCATION_ID = "00000000-0000-4000-8000-000000000000"

# Names dbt's context provides that the harness provides too; test_harness.py
# checks that every name the macros read is one of them.
CONTEXT_NAMES = (
    PACKAGE, "adapter", "api", "config", "exceptions", "execute", "flags", "fromjson", "fromyaml", "graph",
    "invocation_id", "local_md5", "log", "model", "modules", "ref", "return", "run_query", "selected_resources",
    "source", "target", "this", "tojson", "var",
)  # fmt: skip


class UnexpectedQuery(AssertionError):
    """A macro ran a query the test's fake Spark has no answer for."""


class RaisedCompilerError(CompilationError):
    """What ``exceptions.raise_compiler_error`` raises (dbt raises CompilationError)."""


# -- the macros --------------------------------------------------------------------------


@dataclass(frozen=True)
class MacroSource:
    name: str
    path: Path
    sql: str


def _environment() -> jinja2.Environment:
    env = get_environment()  # dbt's own: sandboxed, do + loopcontrols, dbt_macro__ naming
    env.undefined = jinja2.StrictUndefined
    return env


@dataclass
class Package:
    """Every macro of ``macros/**/*.sql``, compiled once."""

    sources: dict[str, MacroSource]
    env: jinja2.Environment
    macro_dir: Path
    templates: dict[str, jinja2.Template] = field(default_factory=dict)

    def template(self, name: str) -> jinja2.Template:
        if name not in self.templates:
            self.templates[name] = self.env.from_string(self.sources[name].sql, globals={})
        return self.templates[name]

    def free_names(self) -> dict[str, set[str]]:
        """For each macro, the names it reads from the context (not its arguments or its own sets)."""
        out = {}
        for name, source in self.sources.items():
            tree = self.env.parse(source.sql)
            stored = {n.name for n in tree.find_all(jinja2.nodes.Name) if n.ctx in ("store", "param")}
            out[name] = set(jinja2.meta.find_undeclared_variables(tree)) - stored
        return out


def load_package(macro_dir: Path = MACRO_DIR) -> Package:
    """Split every macro file into its macro blocks, as dbt's macro parser does."""
    sources: dict[str, MacroSource] = {}
    paths = sorted(macro_dir.rglob("*.sql"))
    if not paths:
        raise AssertionError(f"no macro files under {macro_dir}")
    for path in paths:
        blocks = extract_toplevel_blocks(path.read_text(), allowed_blocks={"macro"}, collect_raw_data=False)
        for block in blocks:
            name = block.block_name  # type: ignore[union-attr]
            if name in sources:
                raise AssertionError(f"macro {name} defined twice: {sources[name].path} and {path}")
            sources[name] = MacroSource(name=name, path=path, sql=block.full_block)  # type: ignore[union-attr]
    return Package(sources=sources, env=_environment(), macro_dir=macro_dir)


@cache
def package() -> Package:
    """The package's macros (``$SKEWJOIN_UNIT_MACROS``: another macros/ directory to test)."""
    return load_package(Path(os.environ.get("SKEWJOIN_UNIT_MACROS", MACRO_DIR)))


class MacroGenerator(BaseMacroGenerator):
    """dbt's macro call: a fresh module of the macro's template over the
    context, ``return()`` caught (BaseMacroGenerator.call_macro)."""

    def __init__(self, package: Package, name: str, context: dict[str, Any]) -> None:
        super().__init__(context)
        self.package = package
        self.name = name

    def get_template(self) -> jinja2.Template:
        return self.package.template(self.name)

    def get_name(self) -> str:
        return self.name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.call_macro(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<macro {PACKAGE}.{self.name}>"


class Namespace:
    """``skewjoin``: its attributes are the package's macros, nothing else.
    An unknown name is undefined to Jinja (``is defined`` is false; a call raises)."""

    def __init__(self, package: Package, context: dict[str, Any]) -> None:
        self._macros = {name: MacroGenerator(package, name, context) for name in package.sources}

    # Jinja's sandbox refuses attributes that start with an underscore, so the
    # macros are items (as in dbt, whose namespaces are mappings): jinja reads
    # `skewjoin._sj_x` as skewjoin['_sj_x'] once attribute lookup fails.
    def __getitem__(self, name: str) -> MacroGenerator:
        try:
            return self._macros[name]
        except KeyError:
            raise KeyError(f"no macro {PACKAGE}.{name}") from None

    def __contains__(self, name: object) -> bool:
        return name in self._macros


# -- the fake adapter and context objects -------------------------------------------------


class Adapter:
    DISPATCH_ORDER = {"spark": ["spark", "default"], "databricks": ["databricks", "spark", "default"]}

    def __init__(self, namespace: Namespace, adapter_type: str, tables: dict[str, Any] | None = None) -> None:
        self._namespace = namespace
        self._type = adapter_type
        self._tables = tables

    def type(self) -> str:
        return self._type

    def get_relation(self, database: str | None, schema: str, identifier: str) -> Any:
        """A table of the fake Spark, or None (a test that gives no tables gets no catalog)."""
        if self._tables is None:
            raise UnexpectedQuery(f"adapter.get_relation({database}, {schema}, {identifier}): no catalog here")
        if f"{schema}.{identifier}" in self._tables:
            return SparkRelation.create(schema=schema, identifier=identifier)
        return None

    def dispatch(self, macro_name: str, macro_namespace: str | None = None) -> MacroGenerator:
        if macro_namespace != PACKAGE:
            raise AssertionError(f"adapter.dispatch({macro_name!r}, {macro_namespace!r}): namespace is not {PACKAGE}")
        prefixes = self.DISPATCH_ORDER.get(self._type, [self._type, "default"])
        for prefix in prefixes:
            name = f"{prefix}__{macro_name}"
            if name in self._namespace:
                return self._namespace[name]
        raise CompilationError(f"No macro named '{macro_name}' found within namespace: '{macro_namespace}'")


class Exceptions:
    def __init__(self, warnings: list[str]) -> None:
        self._warnings = warnings

    def raise_compiler_error(self, msg: str, node: Any = None) -> None:
        raise RaisedCompilerError(msg, node)

    def warn(self, msg: str, node: Any = None) -> str:
        self._warnings.append(msg)
        return ""


class Config:
    """``config.get(key, default)``, and ``config(...)`` in a rendered model
    (dbt reads those at parse time; the model's config when it compiles)."""

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = values

    def __call__(self, *args: Any, **kwargs: Any) -> str:
        if args:
            self._values.update(args[0])
        self._values.update(kwargs)
        return ""

    def get(self, key: str, default: Any = None, validator: Any = None) -> Any:
        return self._values.get(key, default)

    def require(self, key: str) -> Any:
        if key not in self._values:
            raise CompilationError(f"required config {key!r} is not set")
        return self._values[key]


class Var:
    _NOT_SET = object()

    def __init__(self, values: dict[str, Any]) -> None:
        self._values = values

    def __call__(self, name: str, default: Any = _NOT_SET) -> Any:
        if name in self._values:
            return self._values[name]
        if default is not Var._NOT_SET:
            return default
        raise CompilationError(f"Required var '{name}' not found in config")

    def has_var(self, name: str) -> bool:
        return name in self._values


# -- fake Spark ---------------------------------------------------------------------------


@dataclass
class Table:
    """A table (or view, or path) as Spark would describe it.

    columns: [(name, spark type)]; rows: for queries that read data (hot-key
    detection); partition_by: partition columns (DESCRIBE TABLE, SHOW
    PARTITIONS from the rows' values); stats_bytes / file_bytes / files:
    catalog statistics and file sizes; kind: MANAGED, EXTERNAL or VIEW;
    splits: input splits (spark_partition_id() values of a scan);
    column_stats: per column, what ``describe table extended t col`` adds
    (``histogram``, ``bin_0``..., ``num_nulls``), as Spark writes it.
    """

    columns: list[tuple[str, str]]
    rows: list[tuple[Any, ...]] | None = None
    partition_by: list[str] = field(default_factory=list)
    stats_bytes: int | None = None
    file_bytes: int | None = None
    files: int = 1
    provider: str = "parquet"
    kind: str = "MANAGED"
    splits: int = 1
    column_stats: dict[str, dict[str, str]] = field(default_factory=dict)

    def column_index(self, name: str) -> int:
        for i, (column, _) in enumerate(self.columns):
            if column.lower() == name.lower():
                return i
        raise UnexpectedQuery(f"no column {name} in {self.columns}")


@dataclass
class Result:
    """What ``run_query`` returns: enough of an agate table for the macros."""

    column_names: tuple[str, ...]
    rows: list[tuple[Any, ...]]

    @property
    def columns(self) -> list[list[Any]]:
        return [[row[i] for row in self.rows] for i in range(len(self.column_names))]


def spark_text(value: Any) -> str | None:
    """``cast(value as string)`` as Spark writes it."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return repr(value)
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, (int, decimal.Decimal, datetime.date, str)):
        return str(value)
    raise UnexpectedQuery(f"no Spark text for {value!r}")


_DESCRIBE_QUERY = re.compile(r"describe query select \* from (?P<from>.+) as sj_described", re.S)
_SET = re.compile(r"set (?P<key>[\w.]+)")
_DESCRIBE_COLUMN = re.compile(r"describe table extended (?P<name>\S+) (?P<column>\S+)")
_DESCRIBE_TABLE = re.compile(r"describe table (?P<extended>extended )?(?P<name>\S+)")
_SHOW_PARTITIONS = re.compile(r"show partitions (?P<name>\S+)")
_SHOW_TABLES = re.compile(r"show tables in (?P<schema>\S+) like '(?P<name>\w+)'")
_ANALYZE = re.compile(r"analyze table (?P<name>\S+) compute statistics noscan")
_HOT_KEYS = re.compile(
    r"select\s+(?P<keys>(?:concat\('v:', cast\(\w+\.[\w`]+ as string\)\) as sj_key_\d+,\s*)+)"
    r"grouping_id\(\) as sj_grouping,\s*count\(\*\) as sj_rows,\s*count\(distinct sj_split\) as sj_splits\s*"
    r"from \(\s*select\s+.*?spark_partition_id\(\) as sj_split\s*from (?P<from>.+?)(?: tablesample \([0-9.]+ percent\))? as \w+\s*"
    r"\) as \w+\s*group by grouping sets \(.*\)\s*order by sj_rows desc\s*limit (?P<limit>\d+)",
    re.S,
)
# skew_join: 'auto': one side's rows, NULL-key rows, splits and heaviest keys (the extras listed first)
_SKEW_COUNTS = re.compile(
    r"select \*\s+from \(\s*select\s+(?P<keys>(?:concat\('v:', cast\(sj_k\d+ as string\)\) as sj_key_\d+,\s*)+)"
    r"grouping_id\(\) as sj_grouping,\s*count\(\*\) as sj_rows,\s*count_if\(.*?\) as sj_null_rows,\s*"
    r"count\(distinct sj_split\) as sj_splits\s*from \(\s*select\s+(?P<exprs>.*?),\s*"
    r"spark_partition_id\(\) as sj_split\s*from (?P<from>.+?)(?: tablesample \([0-9.]+ percent\))? as \w+\s*"
    r"\) as \w+\s*group by grouping sets \(.*?\)\s*\) as sj_counts\s*where sj_grouping <> 0 or sj_null_rows = 0\s*"
    r"order by sj_grouping desc(?:, coalesce\((?P<extras>.*)\, false\) desc)?, sj_rows desc\s*limit (?P<limit>\d+)",
    re.S,
)
# 'auto' and hot_keys 'auto' above sample_above_bytes (detection_sample.sql): the key counts of a sample
_SAMPLE_PASS = re.compile(
    r"select \*\s+from \(\s*select\s+(?:sj_key_\d+,\s*)+grouping_id\(\) as sj_grouping,\s*count\(\*\) as sj_rows\s*"
    r"from \(\s*select\s+(?P<exprs>(?:coalesce\(concat\('v:', cast\(.*? as string\)\), 'n:'\) as sj_key_\d+,?\s*)+)"
    r"from (?P<from>.+?) as \w+\s*where rand\((?P<seed>\d+)\) < (?P<fraction>[0-9.eE+-]+)\s*\) as sj_drawn\s*"
    r"group by grouping sets \(\([\w, ]+\), \(\)\)\s*\) as \w+\s*"
    r"(?P<no_nulls>where sj_grouping <> 0 or not \(.*?\)\s*)?"
    r"order by sj_grouping desc, sj_rows desc\s*limit (?P<limit>\d+)",
    re.S,
)
# ... and the exact pass: every row's count, NULL keys and splits, and the candidates' rows
_EXACT_PASS = re.compile(
    r"select \*\s+from \(\s*select\s+(?:sj_key_\d+,\s*)+grouping_id\(\) as sj_grouping,\s*count\(\*\) as sj_rows,\s*"
    r"count_if\(sj_null\) as sj_null_rows,\s*concat\('s:', concat_ws\(' ', collect_set\(cast\(sj_split as string\)\)\)\) "
    r"as sj_split_list"
    r".*?(?:sj_t0|\((?:sj_t\d+(?:, )?)+\)) in \((?P<wanted>.*)\) as sj_hit,.*?"
    r"select\s+(?P<exprs>(?:coalesce\(concat\('v:', cast\(.*? as string\)\), 'n:'\) as sj_t\d+,\s*)+)"
    r".*? as sj_null,\s*spark_partition_id\(\) as sj_split\s*from (?P<from>.+?) as \w+\s*\) as sj_keys.*"
    r"group by grouping sets \(\([\w, ]+\)\)\s*\) as \w+",
    re.S,
)
_SPLITS = re.compile(
    r"select count\(distinct sj_split\) as sj_splits\s+from \(select spark_partition_id\(\) as sj_split "
    r"from (?P<from>.+) as sj_probe\) as sj_probe",
    re.S,
)
# the default parallelism (how many tasks Spark gives a range()), asked before a hot-key spread
_PARALLELISM = re.compile(
    r"select max\(sj_split\) \+ 1 as sj_parallelism\s+from \(select spark_partition_id\(\) as sj_split "
    r"from range\(0, \d+\)\) as sj_range",
    re.S,
)
# skew groups' slot placement: the partition each candidate slot value sends each named key to
_SLOT_PLACEMENT = re.compile(
    r"select sj_key, sj_partition, min\(sj_value\) as sj_value\s+from \(.*?"
    r"pmod\(hash\(sj_keys\.sj_literal, sj_candidates\.id\), (?P<partitions>\d+)\) as sj_partition\s+"
    r"from \(values (?P<values>.+)\) as sj_keys \(sj_key, sj_literal\)\s+"
    r"cross join range\(0, (?P<candidates>\d+)\) as sj_candidates\s+\) as sj_placed\s+"
    r"group by sj_key, sj_partition",
    re.S,
)
# skew_join 'auto': how far a planned random group's salt spreads its driver's rows (identical_rows.sql)
_SALT_REACH = re.compile(
    r"select\s+count\(\*\) as sj_rows,\s*count\(distinct sj_row\) as sj_distinct_rows,\s*"
    r"count\(distinct sj_split\) as sj_splits,\s*count\(distinct sj_slot\) as sj_slots_reached\s*"
    r"from \(\s*select\s+xxhash64\((?P<columns>[^)]*)\) as sj_row,\s*"
    r"pmod\(pmod\(xxhash64\([^)]*\), (?P<slots>\d+)\) \+ spark_partition_id\(\), \d+\) as sj_slot,\s*"
    r"spark_partition_id\(\) as sj_split\s*"
    r"from (?P<from>.+?)(?: tablesample \([0-9.]+ percent\))? as \w+\s*"
    r"where \w+\.`?(?P<column>\w+)`? = (?P<value>-?\d+|'(?:[^'\\]|\\.)*')\s*\) as sj_salt_reach",
    re.S,
)
# 'auto' and hot_keys 'auto' above sample_above_bytes, where Spark has approx_top_k (detection_sketch.sql)
_SHOW_FUNCTIONS = re.compile(r"show functions like '(?P<name>\w+)'")
_SKETCH_PASS = re.compile(
    r"select \*\s+from \(\s*select\s+count\(\*\) as sj_rows,\s*count_if\(sj_k is null\) as sj_null_rows,\s*"
    r"count_if\(sj_first\) as sj_splits"
    r"(?:,\s*to_json\(transform\(approx_top_k\(sj_k, (?P<limit>\d+), (?P<tracked>\d+)\),\s*x -> array\(coalesce\("
    r"concat\('v:', cast\(x\.item as string\)\), 'n:'\), cast\(x\.count as string\)\)\)\) as sj_top)?"
    r"(?P<exact>(?:,\s*count_if\(.*?\) as sj_exact_\d+)*)\s*"
    r"from \(\s*select\s+(?P<expr>.*?) as sj_k,\s*monotonically_increasing_id\(\) = "
    r"shiftleft\(cast\(spark_partition_id\(\) as bigint\), 33\) as sj_first\s*"
    r"from (?P<from>.+?) as \w+\s*\) as sj_keys\s*\) as \w+",
    re.S,
)
_EXPLAIN_RANGE = re.compile(r"explain select \* from range\(0, 100000\) as sj_parallelism")
_EXPLAIN_COST = re.compile(r"explain cost select \* from (?P<from>.+) as sj_sized", re.S)
_FILE_BYTES = re.compile(
    r"select\s+cast\(count\(\*\) as string\) as sj_files,.*?from (?P<from>\S+) as sj_scan(?:\s*\) as sj_file_list)?", re.S
)


def fake_partition(key: int, value: int, partitions: int) -> int:
    """The fake Spark's partition of (the placement query's key number, slot value)."""
    return ((value + 1) * 2654435761 + key * 40503) % 4294967291 % partitions


class FakeSpark:
    """Answers the queries the macros send, from the test's tables.

    tables: keyed by the text the macros put after FROM (``skewjoin_it.name``
    for ``ref('name')``, a table name, ``parquet.`/path```) or, for a query
    input, by the query text itself. ``answer(pattern, rows)`` adds a canned
    answer for any other query (a regex matched against the whole query).
    Every query is recorded in ``queries``.
    """

    def __init__(self, tables: dict[str, Table], conf: dict[str, str] | None = None) -> None:
        self.tables = tables
        self.conf = {**DEFAULT_CONF, **(conf or {})}
        self.queries: list[str] = []
        self.canned: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Result] | Result]] = []

    def answer(self, pattern: str, result: Result | Callable[[re.Match[str]], Result]) -> None:
        self.canned.append((re.compile(pattern, re.S), result))

    def table(self, from_text: str) -> Table:
        text = from_text.strip()
        if text.startswith("(") and text.endswith(")"):
            inner = text[1:-1].strip()
            if inner in self.tables:
                return self.tables[inner]
        if text in self.tables:
            return self.tables[text]
        raise UnexpectedQuery(f"no table {text!r} in this test's fake Spark (known: {sorted(self.tables)})")

    def run_query(self, sql: str) -> Result:
        sql = str(sql)
        self.queries.append(sql)
        for pattern, result in self.canned:
            m = pattern.fullmatch(sql.strip())
            if m:
                return result(m) if callable(result) else result
        text = sql.strip()
        handlers: list[tuple[re.Pattern[str], Callable[[re.Match[str]], Result]]] = [
            (_DESCRIBE_QUERY, self._describe_query),
            (_SET, self._set),
            (_DESCRIBE_COLUMN, self._describe_column),
            (_DESCRIBE_TABLE, self._describe_table),
            (_SHOW_PARTITIONS, self._show_partitions),
            (_SHOW_TABLES, self._show_tables),
            (_ANALYZE, self._analyze),
            (_HOT_KEYS, self._hot_keys),
            (_SKEW_COUNTS, self._skew_counts),
            (_SAMPLE_PASS, self._sample_pass),
            (_EXACT_PASS, self._exact_pass),
            (_SHOW_FUNCTIONS, self._show_functions),
            (_SKETCH_PASS, self._sketch_pass),
            (_SPLITS, self._splits),
            (_PARALLELISM, self._parallelism),
            (_EXPLAIN_RANGE, self._explain_range),
            (_FILE_BYTES, self._file_bytes),
            (_SLOT_PLACEMENT, self._slot_placement),
            (_SALT_REACH, self._salt_reach),
            (_EXPLAIN_COST, self._explain_cost),
        ]
        for pattern, handler in handlers:
            m = pattern.fullmatch(text)
            if m:
                return handler(m)
        raise UnexpectedQuery(f"the fake Spark has no answer for:\n{sql}")

    def _describe_query(self, m: re.Match[str]) -> Result:
        table = self.table(m.group("from"))
        return Result(("col_name", "data_type", "comment"), [(n, t, None) for n, t in table.columns])

    def _set(self, m: re.Match[str]) -> Result:
        key = m.group("key")
        if key not in self.conf:
            raise UnexpectedQuery(f"set {key}: not a setting this test declares (conf: {sorted(self.conf)})")
        return Result(("key", "value"), [(key, self.conf[key])])

    def _describe_table(self, m: re.Match[str]) -> Result:
        table = self.table(m.group("name"))
        rows: list[tuple[Any, ...]] = [(n, t, None) for n, t in table.columns]
        if table.partition_by:
            rows.append(("# Partition Information", "", ""))
            rows.append(("# col_name", "data_type", "comment"))
            rows += [(n, t, None) for n, t in table.columns if n in table.partition_by]
        if m.group("extended"):
            rows.append(("", "", ""))
            rows.append(("# Detailed Table Information", "", ""))
            rows.append(("Table", m.group("name").split(".")[-1], ""))
            rows.append(("Type", table.kind, ""))
            if table.kind != "VIEW":
                rows.append(("Provider", table.provider, ""))
            if table.stats_bytes is not None:
                rows.append(("Statistics", f"{table.stats_bytes} bytes", ""))
        return Result(("col_name", "data_type", "comment"), rows)

    def _describe_column(self, m: re.Match[str]) -> Result:
        """``describe table extended t col``: the column's statistics, as the test gives them (histogram
        NULL, as Spark says for a column never analyzed, unless the test gives one)."""
        table = self.table(m.group("name"))
        column = m.group("column").strip("`")
        (data_type,) = [t for n, t in table.columns if n == column]
        stats = {"min": "NULL", "max": "NULL", "num_nulls": "NULL", "distinct_count": "NULL", "histogram": "NULL"}
        stats.update(table.column_stats.get(column, {}))
        rows = [("col_name", column), ("data_type", data_type), ("comment", "NULL"), *stats.items()]
        return Result(("info_name", "info_value"), rows)

    def _show_tables(self, m: re.Match[str]) -> Result:
        """``show tables in s like 'name'``: the row of s.name when the test declares that table."""
        schema, name = m.group("schema").strip("`"), m.group("name")
        rows = [(schema, name, False)] if f"{schema}.{name}" in self.tables else []
        return Result(("namespace", "tableName", "isTemporary"), rows)

    def _show_partitions(self, m: re.Match[str]) -> Result:
        table = self.table(m.group("name"))
        if not table.partition_by:
            raise UnexpectedQuery(f"show partitions of the unpartitioned {m.group('name')}")
        seen: list[str] = []
        for row in table.rows or []:
            parts = []
            for name in table.partition_by:
                value = spark_text(row[table.column_index(name)])
                parts.append(f"{name}={'__HIVE_DEFAULT_PARTITION__' if value is None else value}")
            spec = "/".join(parts)
            if spec not in seen:
                seen.append(spec)
        return Result(("partition",), [(s,) for s in sorted(seen)])

    def _analyze(self, m: re.Match[str]) -> Result:
        table = self.table(m.group("name"))
        if table.kind == "VIEW":
            raise UnexpectedQuery(f"analyze table of the view {m.group('name')}")
        table.stats_bytes = table.file_bytes
        return Result((), [])

    def _hot_keys(self, m: re.Match[str]) -> Result:
        table = self.table(m.group("from"))
        if table.rows is None:
            raise UnexpectedQuery(f"hot-key detection reads {m.group('from')}, which has no rows in this test")
        columns = re.findall(r"cast\(\w+\.`?(\w+)`? as string\)", m.group("keys"))
        idx = [table.column_index(c) for c in columns]
        counts = Counter(tuple(row[i] for i in idx) for row in table.rows)
        n = len(columns)
        detail = [
            tuple(None if v is None else "v:" + str(spark_text(v)) for v in key) + (0, count, table.splits)
            for key, count in counts.items()
        ]
        total = (None,) * n + ((1 << n) - 1, len(table.rows), table.splits)
        rows = sorted([total, *detail], key=lambda r: -r[n + 1])[: int(m.group("limit"))]
        names = tuple(f"sj_key_{i}" for i in range(n)) + ("sj_grouping", "sj_rows", "sj_splits")
        return Result(names, rows)

    def _skew_counts(self, m: re.Match[str]) -> Result:
        table = self.table(m.group("from"))
        if table.rows is None:
            raise UnexpectedQuery(f"skew measuring reads {m.group('from')}, which has no rows in this test")
        columns = [re.findall(r"\w+\.`?(\w+)`?", e)[0] for e in m.group("exprs").split(" as sj_k")[:-1]]
        idx = [table.column_index(c) for c in columns]
        n = len(columns)
        keys = [tuple(row[i] for i in idx) for row in table.rows]
        counts = Counter(tuple("v:" + str(spark_text(v)) for v in key) for key in keys if None not in key)
        extras: list[tuple[str, ...]] = []
        for group in re.findall(r"\(((?:sj_key_\d+ = '(?:[^'\\]|\\.)*'(?: and )?)+)\)", m.group("extras") or ""):
            texts = re.findall(r"= '((?:[^'\\]|\\.)*)'", group)
            extras.append(tuple(re.sub(r"\\(.)", r"\1", t) for t in texts))
        nulls = sum(1 for key in keys if None in key)
        total = (None,) * n + ((1 << n) - 1, len(table.rows), nulls, table.splits)
        detail = sorted(((*key, 0, count, 0, table.splits) for key, count in counts.items()),
                        key=lambda r: (r[:n] not in extras, -r[n + 1]))  # fmt: skip
        rows = [total, *detail][: int(m.group("limit"))]
        names = tuple(f"sj_key_{i}" for i in range(n)) + ("sj_grouping", "sj_rows", "sj_null_rows", "sj_splits")
        return Result(names, rows)

    @staticmethod
    def _key_columns(table: Table, exprs: str) -> list[int]:
        return [table.column_index(re.findall(r"\w+\.`?(\w+)`?", e)[0])
                for e in re.findall(r"cast\((.*?) as string\)\), 'n:'\)", exprs)]  # fmt: skip

    def _sample_pass(self, m: re.Match[str]) -> Result:
        """The key counts of the rows the fake draws: row i is drawn when crc32(seed, i) / 2**32 is
        under the fraction (Spark's rand() is another draw: the Spark tier checks the real one)."""
        table = self.table(m.group("from"))
        if table.rows is None:
            raise UnexpectedQuery(f"a sample pass reads {m.group('from')}, which has no rows in this test")
        idx = self._key_columns(table, m.group("exprs"))
        n = len(idx)
        seed, fraction = int(m.group("seed")), float(m.group("fraction"))
        drawn = [tuple(row[i] for i in idx) for k, row in enumerate(table.rows)
                 if zlib.crc32(f"{seed}:{k}".encode()) / 2**32 < fraction]  # fmt: skip
        counts = Counter(drawn)
        detail = [
            (*("n:" if v is None else "v:" + str(spark_text(v)) for v in key), 0, count)
            for key, count in counts.items()
            if not (m.group("no_nulls") and None in key)
        ]
        detail.sort(key=lambda r: -r[n + 1])
        rows = [(*(None,) * n, (1 << n) - 1, len(drawn)), *detail][: int(m.group("limit"))]
        return Result((*(f"sj_key_{i}" for i in range(n)), "sj_grouping", "sj_rows"), rows)

    def _exact_pass(self, m: re.Match[str]) -> Result:
        """Every row counted (row i read in split i % splits), by candidate key or 'x' for the others."""
        table = self.table(m.group("from"))
        if table.rows is None:
            raise UnexpectedQuery(f"an exact pass reads {m.group('from')}, which has no rows in this test")
        idx = self._key_columns(table, m.group("exprs"))
        n = len(idx)
        literals = [re.sub(r"\\(.)", r"\1", t) for t in re.findall(r"'((?:[^'\\]|\\.)*)'", m.group("wanted"))]
        wanted = {tuple(literals[i : i + n]) for i in range(0, len(literals), n)}
        groups: dict[tuple[str, ...], list[Any]] = {}
        for k, row in enumerate(table.rows):
            key = tuple("n:" if row[i] is None else "v:" + str(spark_text(row[i])) for i in idx)
            group = groups.setdefault(key if key in wanted else ("x",) * n, [0, 0, set()])
            group[0] += 1
            group[1] += int(any(row[i] is None for i in idx))
            group[2].add(k % table.splits)
        names = (*(f"sj_key_{i}" for i in range(n)), "sj_grouping", "sj_rows", "sj_null_rows", "sj_split_list")
        return Result(names, [(*key, 0, g[0], g[1], "s:" + " ".join(str(x) for x in sorted(g[2])))
                              for key, g in sorted(groups.items())])  # fmt: skip

    def _show_functions(self, m: re.Match[str]) -> Result:
        """Spark 4.1 and later has approx_top_k; ``conf['fake.functions']`` lists what this one has."""
        names = self.conf.get("fake.functions", "approx_top_k").split(",")
        return Result(("function",), [(m.group("name"),)] if m.group("name") in names else [])

    def _sketch_pass(self, m: re.Match[str]) -> Result:
        """One read: rows, NULL keys, splits (row i in split i % splits), the top keys as a sketch that
        tracks every key lists them (exact counts, ties by text), and the exact rows of the named keys."""
        table = self.table(m.group("from"))
        if table.rows is None:
            raise UnexpectedQuery(f"a sketch pass reads {m.group('from')}, which has no rows in this test")
        col = table.column_index(re.findall(r"\w+\.`?(\w+)`?", m.group("expr"))[0])
        texts = ["n:" if row[col] is None else "v:" + str(spark_text(row[col])) for row in table.rows]
        counts = Counter(texts)
        out: list[Any] = [len(texts), counts.get("n:", 0), len({k % table.splits for k in range(len(texts))})]
        if m.group("limit"):
            top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[: int(m.group("limit"))]
            out.append(json.dumps([[text, str(n)] for text, n in top]))
        for test in re.findall(r"count_if\((.*?)\) as sj_exact_\d+", m.group("exact")):
            lit = re.fullmatch(r"sj_k <=> (?:cast\()?(?P<v>'(?:[^'\\]|\\.)*'|[^ ]+?)(?: as [\w(),]+\))?", test)
            text = re.fullmatch(r".* = '(?P<t>(?:[^'\\]|\\.)*)'", test)
            if lit is not None:
                v = lit.group("v")
                want = "n:" if v == "null" else "v:" + (re.sub(r"\\(.)", r"\1", v[1:-1]) if v.startswith("'") else v)
            elif text is not None:
                want = re.sub(r"\\(.)", r"\1", text.group("t"))
            else:
                raise UnexpectedQuery(f"a sketch pass counts {test!r}, which this fake does not read")
            out.append(counts.get(want, 0))
        names = ["sj_rows", "sj_null_rows", "sj_splits"] + (["sj_top"] if m.group("limit") else [])
        names += [f"sj_exact_{i}" for i in range(len(out) - len(names))]
        return Result(tuple(names), [tuple(out)])

    def _splits(self, m: re.Match[str]) -> Result:
        return Result(("sj_splits",), [(self.table(m.group("from")).splits,)])

    def _explain_range(self, m: re.Match[str]) -> Result:
        """The physical plan of a range(): its splits are the default parallelism."""
        splits = int(self.conf.get("spark.default.parallelism", "2"))
        return Result(("plan",), [(f"== Physical Plan ==\n*(1) Range (0, 100000, step=1, splits={splits})\n",)])

    def _parallelism(self, m: re.Match[str]) -> Result:
        return Result(("sj_parallelism",), [(int(self.conf.get("spark.default.parallelism", "2")),)])

    def _slot_placement(self, m: re.Match[str]) -> Result:
        """Not Spark's murmur3 (the Spark tier checks that): a fixed scramble of
        (key position, candidate value), so placements are deterministic and collide
        as hashes do. Answers, per key and partition, the smallest value reaching it."""
        partitions, candidates = int(m.group("partitions")), int(m.group("candidates"))
        keys = len(re.findall(r"\((\d+), ", m.group("values")))
        best: dict[tuple[int, int], int] = {}
        for key in range(keys):
            for value in range(candidates):
                best.setdefault((key, fake_partition(key, value, partitions)), value)
        return Result(("sj_key", "sj_partition", "sj_value"), [(k, p, v) for (k, p), v in sorted(best.items())])

    def _salt_reach(self, m: re.Match[str]) -> Result:
        """The group's rows (key column = the literal), their distinct rows, and the slots the salt
        (the row's hash modulo the slots, moved on by its split) reaches, row i of the table read in
        split i % splits. Not Spark's xxhash64 (the Spark tier checks the real reach): a fixed
        scramble (crc32), so the answer is deterministic."""
        table = self.table(m.group("from"))
        if table.rows is None:
            raise UnexpectedQuery(f"salt reach reads {m.group('from')}, which has no rows in this test")
        idx = table.column_index(m.group("column"))
        value = m.group("value")
        wanted = value[1:-1] if value.startswith("'") else value
        picked = [(i, row) for i, row in enumerate(table.rows) if spark_text(row[idx]) == wanted]
        slots = int(m.group("slots"))
        splits = {i % table.splits for i, _ in picked}
        salts = {(zlib.crc32(repr(row).encode()) % slots + i % table.splits) % slots for i, row in picked}
        return Result(("sj_rows", "sj_distinct_rows", "sj_splits", "sj_slots_reached"),
                      [(len(picked), len({row for _, row in picked}), len(splits), len(salts))])  # fmt: skip

    def _explain_cost(self, m: re.Match[str]) -> Result:
        """Spark's size estimate of a side: its statistics, else its files' bytes, else Spark's unknown."""
        table = self.table(m.group("from"))
        size = table.stats_bytes if table.stats_bytes is not None else table.file_bytes
        stats = f"{float(size)} B" if size is not None else "8.0 EiB"
        plan = (f"== Optimized Logical Plan ==\nRelation {m.group('from')}[...] parquet, Statistics(sizeInBytes={stats})\n\n"
                "== Physical Plan ==\n*(1) ColumnarToRow\n")  # fmt: skip
        return Result(("plan",), [(plan,)])

    def _file_bytes(self, m: re.Match[str]) -> Result:
        table = self.table(m.group("from"))
        if table.file_bytes is None:
            raise UnexpectedQuery(f"file sizes of {m.group('from')}, which this test does not give")
        return Result(("sj_files", "sj_bytes"), [(str(table.files), str(table.file_bytes))])


# -- rendering ----------------------------------------------------------------------------


def collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text)


class Renderer:
    """One model's compile: a context over the package's macros and a fake Spark.

    ``render(source)`` renders a Jinja string like ``dbt compile --inline``;
    ``compile_error(source)`` expects ``exceptions.raise_compiler_error`` and
    returns its message, whitespace-collapsed.
    """

    def __init__(
        self,
        tables: dict[str, Table],
        *,
        vars: dict[str, Any] | None = None,
        config: dict[str, Any] | None = None,
        conf: dict[str, str] | None = None,
        adapter_type: str = "spark",
        model: str = "unit_model",
        execute: bool = True,
        pkg: Package | None = None,
    ) -> None:
        self.package = pkg or package()
        self.spark = FakeSpark(tables, conf)
        self.logs: list[str] = []
        self.warnings: list[str] = []
        self.config_values: dict[str, Any] = dict(config or {})
        self.model_name = model
        context: dict[str, Any] = {}
        namespace = Namespace(self.package, context)
        this = SparkRelation.create(schema=SCHEMA, identifier=model)
        context.update(
            {
                PACKAGE: namespace,
                "adapter": Adapter(namespace, adapter_type, self.spark.tables),
                "api": {"Relation": SparkRelation},
                "config": Config(self.config_values),
                "exceptions": Exceptions(self.warnings),
                "execute": execute,
                "flags": SimpleNamespace(WHICH="run"),
                "fromjson": BaseContext.fromjson,
                "fromyaml": BaseContext.fromyaml,
                # the project's nodes and the run's selection: no node here, so no relation is built by the run
                "graph": {"nodes": {}, "sources": {}},
                "invocation_id": INVOCATION_ID,
                "local_md5": BaseContext.local_md5,
                "log": self._log,
                "model": {"name": model, "unique_id": f"model.unit.{model}", "resource_type": "model"},
                "modules": get_context_modules(),
                "ref": self._ref,
                "return": BaseContext._return,
                "run_query": self._run_query,
                "selected_resources": [],
                "source": self._source,
                "target": {"name": "unit", "type": adapter_type, "schema": SCHEMA, "database": None, "threads": 1},
                "this": this,
                "tojson": BaseContext.tojson,
                "var": Var({**PROJECT_VARS, **(vars or {})}),
            }
        )
        assert set(context) == set(CONTEXT_NAMES)
        self.context = context
        self.execute = execute

    @property
    def macros(self) -> Namespace:
        return self.context[PACKAGE]

    def _log(self, msg: Any, info: bool = False) -> str:
        self.logs.append(str(msg))
        return ""

    def _run_query(self, sql: str) -> Result:
        if not self.execute:
            raise UnexpectedQuery(f"run_query at parse time (execute is false):\n{sql}")
        return self.spark.run_query(sql)

    def _ref(self, *names: str, **kwargs: Any) -> SparkRelation:
        name = names[-1]
        key = f"{SCHEMA}.{name}"
        if key not in self.spark.tables:
            raise UnexpectedQuery(f"ref({name!r}): no table {key} in this test")
        return SparkRelation.create(schema=SCHEMA, identifier=name)

    def _source(self, source_name: str, table_name: str) -> SparkRelation:
        key = f"{source_name}.{table_name}"
        if key not in self.spark.tables:
            raise UnexpectedQuery(f"source({source_name!r}, {table_name!r}): no table {key} in this test")
        return SparkRelation.create(schema=source_name, identifier=table_name)

    def render(self, source: str) -> str:
        if isinstance(self.context["model"], dict):
            self.context["model"].setdefault("raw_code", source)  # dbt's node dict has the model's code
        template = self.package.env.from_string(source)
        return str(template.render(self.context))

    def render_model(self, path: str | Path) -> str:
        """Render a model file of integration_tests/ (path relative to it)."""
        return self.render((PROJECT_DIR / path).read_text())

    def compile_error(self, source: str) -> str:
        try:
            out = self.render(source)
        except RaisedCompilerError as exc:
            return collapse(str(exc.msg))
        raise AssertionError(f"compiled although it should not:\n{out[:3000]}")

    def call(self, macro: str, *args: Any, **kwargs: Any) -> Any:
        """Call a public macro of the package from Python."""
        return self.macros[macro](*args, **kwargs)


def assert_clear_compile_error(message: str, macro: str, model: str, argument: str | None, expected: str) -> None:
    """The message names the macro and the model, the argument, says
    `expected` and shows the right form (as support.assert_clear_compile_error)."""
    assert f"skewjoin.{macro} in model '{model}'" in message, message
    if argument is not None:
        assert f"argument `{argument}`" in message, message
    assert expected in message, message
    assert "Right form, for example:" in message, message


def decision_record(sql: str, macro: str) -> str:
    m = re.search(r"/\* skewjoin\." + macro + r" decision record.*?\*/", sql, flags=re.S)
    assert m, f"no {macro} decision record in:\n{sql[:2000]}"
    return m.group(0)


def strip_record(sql: str) -> str:
    return re.sub(r"/\* skewjoin\.\w+ decision record.*?\*/", "", sql, flags=re.S).strip()

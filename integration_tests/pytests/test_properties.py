"""Property-based differential tests: every macro against the plain Spark join.

Hypothesis draws small tables (0 to a few hundred rows: NULL keys, duplicate
rows, hot keys, keys of string, int, bigint, decimal, date, timestamp and
boolean, mixed types across the two sides, multi-column keys, hostile and very
long strings) and configurations (one to four skew groups with mixed drivers,
every distribution, slot counts and percentages, overlapping `when`s; hot keys
present in the data, absent from it, NULL, declared or 'auto'; every join
type; star joins of a fact and one to four dimensions with every join type,
filters, forced and refused broadcasts, budgets, pruning on and off; pruning
sets that are empty, of one value, above max_values with each fallback, from
one to three small relations). The property: the model's rows equal the plain
Spark join's (for pruning: the same query without the predicate) as a
multiset, or compilation stops with one of the package's documented errors
("skewjoin.<macro> in model ..."). Nothing else -- a Spark error, a lost or
duplicated row -- is allowed.

Speed: the inputs are global temporary views over VALUES (shared by every
session of the Thrift server, so dbt's connection describes them and the
test's connection queries them), and the macro is compiled once per
configuration *shape* (column names and types fixed) and reused for several
data examples. Hot keys 'auto' read the data at compile time, so those
examples compile each time and are fewer. The server's cost is mostly per
statement, so a shape's data examples are loaded side by side (views named
per data set) and compared in two statements: the compiled queries over each
data set's views as one UNION ALL tagged by data set, the plain joins as
another; each data set's rows are then compared on their own, as a multiset
(the compiled query and the plain join are never unioned with each other,
so no column type is coerced). A pruned query and the same query without
the predicate (the same columns) are read in one statement, tagged.

Runs:
    default (in `make test`): a fixed, derandomized set of examples (minutes);
    SKEWJOIN_PROPERTY_PROFILE=long: ten times as many, with fresh random seeds;
    SKEWJOIN_PROPERTY_EXAMPLES=N: N shapes for the main property (others scale).
Failing cases found by these properties are kept as explicit regression tests
in test_regressions.py.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import jinja2
import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st
from property_strategies import (
    HOSTILE_PIECES,
    PruneShape,
    Shape,
    StarShape,
    Tables,
    hostile_text,
    prune_shapes,
    prune_tables,
    shapes,
    spark_literal,
    star_shapes,
    star_tables,
    tables,
)
from render.golden import stable
from support import inline_compiled_sql

from skewjoin.config_text import to_jinja
from skewjoin.errors import SparkSqlError
from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import compare_multisets, normalize_row
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark

PROFILE = os.environ.get("SKEWJOIN_PROPERTY_PROFILE", "default")
if PROFILE not in ("default", "long"):
    raise pytest.UsageError(f"SKEWJOIN_PROPERTY_PROFILE must be default or long, got {PROFILE!r}")
LONG = PROFILE == "long"
_MAIN_SHAPES_DEFAULT = 60
MAIN_SHAPES = int(os.environ.get("SKEWJOIN_PROPERTY_EXAMPLES") or (_MAIN_SHAPES_DEFAULT * (10 if LONG else 1)))
SCALE = MAIN_SHAPES / _MAIN_SHAPES_DEFAULT
DATA_PER_SHAPE = 3
TOTAL_SLOTS_VAR = 20  # integration_tests/dbt_project.yml: vars.skewjoin_total_slots
SHUFFLE_PARTITIONS = 200  # the test server's spark.sql.shuffle.partitions (Spark's default)


def examples(n: int) -> int:
    return max(1, round(n * SCALE))


def prop_settings(n: int) -> settings:
    """Settings of one property: *n* examples (scaled), no deadline (Spark), no
    example database; derandomized (the same examples every run) unless long."""
    return settings(
        max_examples=examples(n),
        deadline=None,
        derandomize=not LONG,
        database=None,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
            HealthCheck.filter_too_much,
        ],
    )


DOCUMENTED_ERROR = re.compile(r"skewjoin\.(skew_join|prune_predicate|star_join) in model '[^']*', argument `[^`]+`: ")
NONDETERMINISTIC = re.compile(
    r"(?<![\w.])(rand|randn|random|uuid|shuffle|monotonically_increasing_id|spark_partition_id|"
    r"input_file_name|now|current_timestamp|current_date|localtimestamp|unix_timestamp)\s*\(|"
    r"(?<![\w.])(current_timestamp|current_date|localtimestamp)(?![\w(])",
    re.IGNORECASE,
)


# The one nondeterministic call the package writes: the salt of a spread row
# hashes the input split it is read in (macros/_internal/salt.sql), the last
# argument of the hot spread's xxhash64, and added to a group's slot (its hash
# modulo the slots). It depends on which split holds the row, never on
# row order or a random draw; check_salts_are_deterministic holds it to that.
SALT_SPLIT = re.compile(r",\s*spark_partition_id\(\)\)|\+\s*spark_partition_id\(\),")


def _code_only(sql: str) -> str:
    """The SQL without comments and string literals (so values cannot match)."""
    sql = re.sub(r"/\*.*?\*/", " ", sql, flags=re.S)
    sql = re.sub(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"", "''", sql, flags=re.S)
    return re.sub(r"--[^\n]*", " ", sql)


def assert_deterministic_sql(sql: str) -> None:
    found = NONDETERMINISTIC.search(SALT_SPLIT.sub(" ", _code_only(sql)))
    assert found is None, f"compiled SQL calls the non-deterministic {found.group(0)!r}:\n{sql}"


# The property's views (property_strategies: sj_prop_left, sj_prop_right, sj_prop_fact,
# sj_prop_dim<i>, sj_prop_big, sj_prop_small<i>), in SQL and in their `create` statements
_VIEW_REF = re.compile(r"\b(global_temp\.sj_prop_[a-z]+\d*)\b")
_VIEW_CREATED = re.compile(r"^(create or replace global temporary view sj_prop_[a-z]+\d*)\b")


def over_views(sql: str, suffix: str) -> str:
    """*sql* reading the property's views named with *suffix* (another data set loaded beside
    the first) instead of the first data set's views; every reference is renamed."""
    if not suffix:
        return sql
    out = _VIEW_REF.sub(lambda m: m.group(1) + suffix, sql)
    left = [name for name in re.findall(r"sj_prop_\w+", _code_only(out)) if not name.endswith(suffix)]
    assert not left, f"views not renamed to {suffix}: {left}\n{sql}"
    return out


def views_named(statements: list[str], suffix: str) -> list[str]:
    """`create ... view` statements for views named with *suffix*."""
    out = [_VIEW_CREATED.sub(lambda m: m.group(1) + suffix, s) for s in statements]
    assert all(s != t for s, t in zip(statements, out, strict=True)) or not suffix, statements
    return out


def tagged_union(queries: list[str]) -> str:
    """One statement returning each query's rows led by its number in *queries*."""
    return "\nunion all\n".join(f"select {i} as sj_data_set, * from (\n{q}\n)" for i, q in enumerate(queries))


@dataclass
class Compiled:
    sql: str | None
    error: str | None


@dataclass
class PropertyRunner:
    """One Spark session for the data, one dbt project for compiling, a cache
    of compiled SQL per shape, and a tally of what the properties did."""

    project: DbtProject
    conn: Any
    cache: dict[str, Compiled] = field(default_factory=dict)
    tally: Counter[str] = field(default_factory=Counter)

    def sql(self, statement: str) -> list[tuple[Any, ...]]:
        return run_sql(self.conn, statement)

    def load(self, shape: Shape, data: Tables, suffix: str = "", **kwargs: Any) -> None:
        for statement in views_named(data.view_sql(shape, **kwargs), suffix):
            self.sql(statement)

    def compile(self, inline: str, cache_key: str | None = None) -> Compiled:
        if cache_key is not None and cache_key in self.cache:
            return self.cache[cache_key]
        result = self.project.run(["compile", "--inline", inline], expect_failure=True)
        if result.success:
            out = Compiled(sql=inline_compiled_sql(result), error=None)
        else:
            parts = [str(result.exception)] if result.exception is not None else []
            for r in getattr(result.result, "results", None) or []:
                if r.message:
                    parts.append(str(r.message))
            out = Compiled(sql=None, error=" ".join(parts) or "dbt compile failed without a message")
        self.tally["compiles"] += 1
        if cache_key is not None:
            self.cache[cache_key] = out
        return out

    def compile_shape(self, shape: Shape) -> Compiled:
        key = repr((shape.inline_sql(), shape.left_columns(), shape.right_columns()))
        return self.compile(shape.inline_sql(), cache_key=key)

    def assert_each_equals_plain_join(self, shape: Shape | StarShape, pairs: list[tuple[str, str]]) -> None:
        """Each (compiled SQL, plain join) pair returns the same multiset of rows, the pairs
        being the same SQL over the views of several data sets (:func:`over_views`): the
        compiled queries run as one statement (a UNION ALL tagged by the data set's number),
        the plain joins as another, and each data set's rows are compared on their own, as
        :meth:`assert_equals_plain_join` compares them (the two sides are never unioned with
        each other, so their column types are not coerced). Spark's cost is mostly per
        statement: two statements instead of two per data set. If a union fails on Spark,
        each pair runs alone (the error then names its data set)."""
        if len(pairs) == 1:
            self.assert_equals_plain_join(shape, *pairs[0])
            return
        try:
            actual = self.sql(tagged_union([sql for sql, _ in pairs]))
            expected = self.sql(tagged_union([plain for _, plain in pairs]))
        except SparkSqlError:
            for sql, plain in pairs:
                self.assert_equals_plain_join(shape, sql, plain)
            self.tally["unions run alone"] += 1
            return
        for i, (sql, plain) in enumerate(pairs):
            mine = [row[1:] for row in actual if row[0] == i]
            theirs = [row[1:] for row in expected if row[0] == i]
            diff = compare_multisets(mine, theirs)
            assert diff.equal, (
                f"{diff}\n-- data set #{i + 1}; shape: {shape.describe()}\n-- compiled:\n{sql}\n-- plain join:\n{plain}"
            )
            self.tally["comparisons"] += 1
            self.tally["rows compared"] += diff.actual_count
        assert len(actual) == sum(1 for row in actual if 0 <= row[0] < len(pairs))

    def assert_pruned_equals_unpruned(self, shape: PruneShape, sql: str, unpruned: str) -> None:
        """The pruned query's rows equal the same query's without the predicate, both read in one
        statement (tagged 0 and 1): the two differ only in the big table's WHERE, so their columns
        have the same types and the union coerces nothing. If the union fails on Spark, each runs
        alone (the error then says which)."""
        try:
            rows = self.sql(tagged_union([sql, unpruned]))
        except SparkSqlError:
            self.assert_equals_plain_join(shape, sql, unpruned)
            self.tally["unions run alone"] += 1
            return
        diff = compare_multisets([r[1:] for r in rows if r[0] == 0], [r[1:] for r in rows if r[0] == 1])
        assert diff.equal, f"{diff}\n-- shape: {shape.describe()}\n-- compiled:\n{sql}\n-- without the predicate:\n{unpruned}"
        self.tally["comparisons"] += 1
        self.tally["rows compared"] += diff.actual_count

    def assert_equals_plain_join(self, shape: Shape | StarShape | PruneShape, sql: str, plain: str | None = None) -> int:
        plain = plain or shape.plain_join_sql()
        try:
            actual = self.sql(sql)
        except SparkSqlError as exc:
            message = exc.spark_message[:3000]
            raise AssertionError(f"the compiled model failed on Spark: {message}\n{shape.describe()}\n{sql}") from None
        expected = self.sql(plain)
        diff = compare_multisets(actual, expected)
        assert diff.equal, f"{diff}\n-- shape: {shape.describe()}\n-- compiled:\n{sql}\n-- plain join:\n{plain}"
        self.tally["comparisons"] += 1
        self.tally["rows compared"] += diff.actual_count
        return diff.actual_count


@pytest.fixture(scope="module")
def prop(dbt_project: DbtProject) -> Iterator[PropertyRunner]:
    dbt_project.deps()
    conn = dbt_project.thrift.connect()
    try:
        yield PropertyRunner(project=dbt_project, conn=conn)
    finally:
        conn.close()


def shape_events(shape: Shape) -> None:
    """Hypothesis statistics (--hypothesis-show-statistics): what the shapes covered."""
    spec = shape.spec or {}
    event(f"join {shape.join_type}")
    event(f"{len(shape.keys)} key column(s)")
    for k in shape.keys:
        event(f"key type {k.types.label}")
    event(f"{len(spec.get('groups') or [])} group(s)")
    hot = spec.get("hot_keys")
    event("hot keys: " + ("none" if not hot else "per side" if isinstance(hot, dict) else "list"))
    event(f"expected refusal: {shape.expect_error}")


def check_refusal(shape: Shape | StarShape | PruneShape, compiled: Compiled) -> None:
    """A failed compile must be a documented error, and only for a shape the
    documented rules refuse."""
    assert compiled.error is not None
    assert DOCUMENTED_ERROR.search(compiled.error), (
        f"compilation failed with an undocumented error:\n{compiled.error}\n-- shape: {shape.describe()}\n{shape.inline_sql()}"
    )
    assert shape.expect_error is not None, (
        f"a legal configuration was refused:\n{compiled.error}\n-- shape: {shape.describe()}\n{shape.inline_sql()}"
    )


def accepted(prop: PropertyRunner, shape: Shape | StarShape | PruneShape, compiled: Compiled) -> bool:
    """Whether the shape compiled (its SQL deterministic), tallied; a refusal must be a
    documented one for a shape the documented rules refuse (:func:`check_refusal`)."""
    if compiled.sql is None:
        check_refusal(shape, compiled)
        prop.tally["refused"] += 1
        return False
    prop.tally["compiled"] += 1
    assert_deterministic_sql(compiled.sql)
    return True


# -- the harness's own literals -------------------------------------------------------


_TYPED_VALUES = st.one_of(
    hostile_text().map(lambda v: (v, "string")),
    st.integers(-(2**31), 2**31 - 1).map(lambda v: (v, "int")),
    st.integers(-(2**63), 2**63 - 1).map(lambda v: (v, "bigint")),
    st.integers(-(10**18) + 1, 10**18 - 1).map(lambda n: (Decimal(n).scaleb(-4), "decimal(18,4)")),
    st.dates(min_value=dt.date(1000, 1, 1)).map(lambda v: (v, "date")),
    st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2200, 1, 1)).map(lambda v: (v, "timestamp")),
    st.booleans().map(lambda v: (v, "boolean")),
    st.sampled_from(["string", "int", "date", "timestamp", "decimal(18,4)", "boolean"]).map(lambda t: (None, t)),
)


def test_spark_literals_round_trip(prop: PropertyRunner) -> None:
    """Every literal the harness writes into VALUES reads back as exactly its value."""

    @prop_settings(12)
    @given(st.lists(_TYPED_VALUES, min_size=1, max_size=40))
    def run(values: list[tuple[Any, str]]) -> None:
        select = ", ".join(f"{spark_literal(v, t)} as c{i}" for i, (v, t) in enumerate(values))
        (row,) = prop.sql(f"select {select}")
        assert len(row) == len(values)
        for got, (value, sql_type) in zip(row, values, strict=True):
            if sql_type == "date" and value is not None:
                assert got == value.isoformat()
            elif sql_type == "timestamp" and value is not None:
                assert got == value
            else:
                assert got == value, (got, value, sql_type)
        prop.tally["literals"] += len(values)

    run()
    assert prop.tally["literals"] >= examples(12)


def test_jinja_literals_round_trip(prop: PropertyRunner) -> None:
    """Config values written into `dbt compile --inline` text reach the macro unchanged:
    checked with Jinja's own expression compiler on many values, then through dbt.
    The writer is the one `skewjoin profile` prints its configs with."""
    env = jinja2.Environment()
    config_values = st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), hostile_text()),
        lambda children: st.one_of(st.lists(children, max_size=3), st.dictionaries(hostile_text(), children, max_size=3)),
        max_leaves=8,
    )

    @prop_settings(200)
    @given(config_values)
    def run(value: Any) -> None:
        assert env.compile_expression(to_jinja(value))() == value

    run()
    values = [*HOSTILE_PIECES, "".join(HOSTILE_PIECES), "x" * 5000 + "'", "{{ 1 }}", "{% raw %}", "'\\''"]
    result = prop.project.run(["compile", "--inline", "{{ tojson(" + to_jinja(values) + ") }}"])
    import json

    assert json.loads(inline_compiled_sql(result)) == values


# -- skew_join: groups and declared hot keys ------------------------------------------


def _slotted_queries(sql: str, shape: Shape) -> list[str]:
    """Queries returning each side's rows with their group and slot: the
    compiled query with its final SELECT replaced by `select * from <alias>_slotted`."""
    cut = sql.rfind("\n)\n\n")
    assert cut > 0, sql
    head = sql[: cut + 2]
    return [f"{head}\nselect *, spark_partition_id() as sj_read_split from {alias}_slotted"
            for alias in (shape.left_alias, shape.right_alias)]  # fmt: skip


def _slots_by_row_and_split(rows: list[Any], where: str, shape: Shape) -> dict[Any, Any]:
    """{(row, split): slot}; fails if one row in one split got two slots (a salt that is not a
    function of the row and its split: a random draw, or the row's position)."""
    out: dict[Any, Any] = {}
    for r in rows:
        key = (normalize_row(r[:-2]), r[-1])
        slot = r[-2]
        if key in out and out[key] != slot:
            raise AssertionError(f"{where}: the row {key[0]} in split {key[1]} got slots {out[key]} and {slot}\n"
                                 f"{shape.describe()}")  # fmt: skip
        out.setdefault(key, slot)
    return out


def check_salts_are_deterministic(prop: PropertyRunner, shape: Shape, data: Tables, sql: str) -> None:
    """Each row's group and slot are a function of the row and of the input split it is read in
    (salt.sql): identical rows in one split get one slot; the same rows read again in another order
    and split into other partitions give every (row, split) pair both reads share the same slot; and
    every slot is in range. A multicast side's rows hold every slot of their group (explode), so
    only their range is checked."""
    queries = _slotted_queries(sql, shape)
    # the second read: the same rows in reverse order, in 3 partitions, in views of their own;
    # both reads of a side in one statement (tagged 0 and 1)
    prop.load(shape, data, suffix="_reread", reverse=True, partitions=3)
    first, second = [], []
    for q in queries:
        rows = prop.sql(tagged_union([q, over_views(q, "_reread")]))
        first.append([row[1:] for row in rows if row[0] == 0])
        second.append([row[1:] for row in rows if row[0] == 1])
    total = (shape.spec or {}).get("total_slots") or TOTAL_SLOTS_VAR
    # a group naming its keys takes slot values placed on the server's shuffle partitions (0 to 8P - 1)
    bound = max(total, 8 * SHUFFLE_PARTITIONS) if "slots placed on" in sql else total
    for q, a, b in zip(queries, first, second, strict=True):
        multicast = _multicast(q)
        assert len(a) == len(b), f"the slotted side has {len(a)} rows, then {len(b)}\n{shape.describe()}"
        if not multicast:
            one = _slots_by_row_and_split(a, "first read", shape)
            two = _slots_by_row_and_split(b, "second read", shape)
            for key in one.keys() & two.keys():
                assert one[key] == two[key], (
                    f"the row {key[0]} in split {key[1]} got slot {one[key]}, then {two[key]}\n{shape.describe()}"
                )
        for row in a:
            assert 0 <= row[-2] < bound, f"slot {row[-2]} outside 0..{bound - 1}: {row}"
    prop.tally["salt checks"] += 1


def _multicast(query: str) -> bool:
    """Whether the side the query reads is multicast (its slotted CTE explodes an array of slots)."""
    alias = query.rsplit(" from ", 1)[1].strip().removesuffix("_slotted")
    cte = query.split(f"\n{alias}_slotted as (", 1)[1]
    return "explode(" in cte.split("\n)", 1)[0]


def test_skew_join_equals_plain_join(prop: PropertyRunner) -> None:
    """The main property: skew groups and declared hot keys, every join type."""

    @prop_settings(MAIN_SHAPES)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        shape = data.draw(shapes(), label="shape")
        note(shape.inline_sql())
        shape_events(shape)
        first = data.draw(tables(shape), label="tables #1")
        prop.load(shape, first)
        compiled = prop.compile_shape(shape)
        if not accepted(prop, shape, compiled):
            return
        # the other data sets in views of their own, compared with the first in two statements
        suffixes = [""]
        for i in range(2, DATA_PER_SHAPE + 1):
            more = data.draw(tables(shape), label=f"tables #{i}")
            suffixes.append(f"_data{i}")
            prop.load(shape, more, suffix=suffixes[-1])
        plain = shape.plain_join_sql()
        prop.assert_each_equals_plain_join(shape, [(over_views(compiled.sql, x), over_views(plain, x)) for x in suffixes])
        if (shape.spec or {}).get("groups"):
            check_salts_are_deterministic(prop, shape, first, compiled.sql)

    prop.tally.clear()
    run()
    print(f"skew_join property: {dict(prop.tally)}")
    # the generators must mostly produce configurations that compile and compare
    assert prop.tally["compiled"] >= prop.tally["refused"], dict(prop.tally)
    assert prop.tally["comparisons"] >= examples(MAIN_SHAPES), dict(prop.tally)
    assert prop.tally["salt checks"] >= 1, dict(prop.tally)


def _has_auto(spec: dict[str, Any] | None) -> bool:
    hot = (spec or {}).get("hot_keys")
    return isinstance(hot, dict) and any(v == "auto" for v in hot.values() if isinstance(v, str))


def test_skew_join_auto_hot_keys_equal_plain_join(prop: PropertyRunner) -> None:
    """Hot keys 'auto' read the data at compile time: one compile per example."""

    @prop_settings(10)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        shape = data.draw(shapes(allow_auto=True), label="shape")
        if not _has_auto(shape.spec):
            spec = dict(shape.spec or {})
            # one side, or both (whose keys may then share one branch: hot_plan.sql's fold)
            sides = data.draw(st.sampled_from([(shape.left_alias,), (shape.right_alias,),
                                               (shape.left_alias, shape.right_alias)]), label="auto sides")  # fmt: skip
            spec["hot_keys"] = {alias: "auto" for alias in sides}
            spec.setdefault("hot_keys_options", {"min_share": 0.1, "max_keys": 3})
            shape.spec = spec
        note(shape.inline_sql())
        tables_ = data.draw(tables(shape), label="tables")
        prop.load(shape, tables_)
        compiled = prop.compile(shape.inline_sql())
        if not accepted(prop, shape, compiled):
            return
        prop.assert_equals_plain_join(shape, compiled.sql)

    prop.tally.clear()
    run()
    print(f"skew_join 'auto' property: {dict(prop.tally)}")
    assert prop.tally["comparisons"] >= 1, dict(prop.tally)


def test_same_skew_join_compiles_to_the_same_sql(prop: PropertyRunner) -> None:
    """Compiling the same configuration twice gives byte-identical SQL (salts included), the seconds
    the records report aside."""

    @prop_settings(4)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        shape = data.draw(shapes(), label="shape")
        prop.load(shape, data.draw(tables(shape), label="tables"))
        first = prop.compile(shape.inline_sql())
        second = prop.compile(shape.inline_sql())
        # the records' seconds (what each query took) are the one part that is not a function of the inputs
        assert first.error == second.error
        assert stable(first.sql or "") == stable(second.sql or "")
        prop.tally["recompiled"] += 1

    prop.tally.clear()
    run()
    assert prop.tally["recompiled"] >= 1


# -- star_join ---------------------------------------------------------------------------


def test_star_join_equals_plain_star_join(prop: PropertyRunner) -> None:
    """Fact and 1-4 dimensions: every join type, filters, forced and refused
    broadcasts, budgets, pruning on and off, role-playing and multi-column keys.
    Compiled once per shape unless pruning reads the data at compile time."""

    @prop_settings(24)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        shape = data.draw(star_shapes(), label="star shape")
        note(shape.inline_sql())
        per_example = shape.uses_data_at_compile_time()
        star = data.draw(star_tables(shape), label="star tables #1")
        for statement in star.view_sql(shape):
            prop.sql(statement)
        key = None if per_example else repr((shape.inline_sql(), [shape.dim_columns(d) for d in shape.dims], shape.fact_columns()))
        compiled = prop.compile(shape.inline_sql(), cache_key=key)
        if not accepted(prop, shape, compiled):
            return
        # the other data sets (unless pruning read the first at compile time) in views of their own,
        # compared with the first in two statements
        suffixes = [""]
        for i in range(2, 1 + (1 if per_example else DATA_PER_SHAPE)):
            star = data.draw(star_tables(shape), label=f"star tables #{i}")
            suffixes.append(f"_data{i}")
            for statement in views_named(star.view_sql(shape), suffixes[-1]):
                prop.sql(statement)
        plain = shape.plain_join_sql()
        prop.assert_each_equals_plain_join(shape, [(over_views(compiled.sql, x), over_views(plain, x)) for x in suffixes])

    prop.tally.clear()
    run()
    print(f"star_join property: {dict(prop.tally)}")
    assert prop.tally["comparisons"] >= examples(24), dict(prop.tally)
    assert prop.tally["compiled"] >= prop.tally["refused"], dict(prop.tally)
    assert prop.tally["rows compared"] >= prop.tally["comparisons"], dict(prop.tally)


# -- prune_predicate -----------------------------------------------------------------------


def test_pruned_query_equals_unpruned_query(prop: PropertyRunner) -> None:
    """The query with prune_predicate on the big table returns the rows of the
    same query without it: one to three small relations (filtered, cascading,
    inner, right and left semi joins; left, full and anti joins refused), key
    sets empty, of one value, and above max_values (range, semi join, none)."""

    @prop_settings(24)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        shape = data.draw(prune_shapes(), label="pruning shape")
        note(shape.inline_sql())
        t = data.draw(prune_tables(shape), label="pruning tables")
        for statement in t.view_sql(shape):
            prop.sql(statement)
        compiled = prop.compile(shape.inline_sql())
        if not accepted(prop, shape, compiled):
            return
        prop.assert_pruned_equals_unpruned(shape, compiled.sql, shape.query("true"))
        where = compiled.sql[compiled.sql.index("where") : compiled.sql.index(")\nselect")]
        body = where.split("*/")[-1]
        kind = (
            "semi join" if "select" in body else "range" if "between" in body
            else "in list" if " in (" in body else "false" if "false" in body else "none (true)"
        )  # fmt: skip
        prop.tally[f"predicate: {kind}"] += 1
        if os.environ.get("SKEWJOIN_PROPERTY_DEBUG"):
            with open(os.environ["SKEWJOIN_PROPERTY_DEBUG"], "a") as fh:
                fh.write(f"==== {shape.describe()}\n{where}\n")

    prop.tally.clear()
    run()
    print(f"prune_predicate property: {dict(prop.tally)}")
    assert prop.tally["comparisons"] >= examples(24) // 2, dict(prop.tally)
    assert prop.tally["rows compared"] >= prop.tally["comparisons"], dict(prop.tally)

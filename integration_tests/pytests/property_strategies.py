"""Generators for the property-based tests of skewjoin (test_properties.py).

Three layers, each a plain value that the tests can print and rebuild:

- literal writers: ``spark_literal`` (a Spark SQL literal of a typed value,
  strings with backslash escapes) and ``to_jinja`` (from skewjoin.planner: a
  Jinja expression for a config value, written into ``dbt compile --inline``
  text, as ``skewjoin profile`` writes its configs). Both are
  checked by round trips through Spark and Jinja in test_properties.py, so the
  harness cannot be the source of a false failure.
- ``Shape``: what is fixed for one compiled query -- the key columns and
  their types on each side, the join type, aliases, output columns, the skew
  specification, and the key values the specification may name (``pool``).
  ``shapes()`` draws them; ``Shape.inline_sql()`` is the macro call.
- ``Tables``: the rows of both inputs for one shape (NULL keys, duplicate
  rows, one or several hot keys, values only one side has, hostile and long
  strings). ``tables(shape)`` draws them; ``Tables.view_sql()`` writes them as
  ``create or replace global temporary view ... as select ... from values``,
  with every column cast to its declared type, so column names and types stay
  fixed per shape and the compiled SQL can be reused for many data examples.

Global temporary views are shared by every session of the Spark Thrift
Server, so the dbt connection (which describes the inputs at compile time)
and the test's own connection (which runs the queries) see the same tables.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from hypothesis import strategies as st

from skewjoin.config_text import to_jinja

LEFT_VIEW = "global_temp.sj_prop_left"
RIGHT_VIEW = "global_temp.sj_prop_right"

# -- literals ---------------------------------------------------------------------------

_SPARK_ESCAPES = {"\\": "\\\\", "'": "\\'", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\x00": "\\u0000", "$": "\\u0024"}


def spark_string_literal(value: str) -> str:
    """A Spark SQL string literal holding exactly *value*.

    Spark reads string literals with backslash escapes (``\\'``, ``\\\\``,
    ``\\n``, ``\\uXXXX``) and concatenates adjacent literals (``'a' 'b'`` is
    ``'ab'``), so doubling a quote would be wrong; every backslash and quote
    is escaped instead, and control characters that could end a line too; a
    dollar is written \\u0024 (Spark substitutes ${name} in the statement text).
    """
    return "'" + "".join(_SPARK_ESCAPES.get(ch, ch) for ch in value) + "'"


def spark_literal(value: Any, sql_type: str) -> str:
    """A literal of *sql_type* holding *value* (``None`` is a typed NULL)."""
    if value is None:
        return f"cast(null as {sql_type})"
    if sql_type == "string":
        return spark_string_literal(str(value))
    if sql_type == "boolean":
        return "true" if value else "false"
    if sql_type in ("int", "bigint", "smallint", "tinyint"):
        return f"cast({int(value)} as {sql_type})"
    if sql_type.startswith("decimal"):
        return f"cast('{Decimal(value)}' as {sql_type})"
    if sql_type in ("double", "float"):
        return f"cast('{float(value)!r}' as {sql_type})"
    if sql_type == "date":
        return f"date'{value.isoformat()}'"
    if sql_type == "timestamp":
        return f"timestamp'{value.isoformat(sep=' ')}'"
    raise ValueError(f"no literal writer for {sql_type}")


# -- values -----------------------------------------------------------------------------

HOSTILE_PIECES = [
    "'", '"', "\\", "\\'", "''", "--", "/*", "*/", "${", "${spark.sql.shuffle.partitions}", "${env:HOME}", "{{", "}}", "{%", "%}", "{#", "#}",
    "\n", "\r\n", "\t", "\\n", "\\u0041", "`", ";", "%", "_", " ", "é", "日本", "😀", "\u200b", "\x00",
    "x", "0", "NULL", "null", "select", "*/ or 1=1 --",
]  # fmt: skip

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
BIGINT_MIN, BIGINT_MAX = -(2**63), 2**63 - 1


def hostile_text() -> st.SearchStrategy[str]:
    """Strings with quotes, backslashes, comment and template markers, control
    characters, unicode, the empty string, and very long strings."""
    pieces = st.lists(st.one_of(st.sampled_from(HOSTILE_PIECES), st.text(max_size=3)), max_size=5).map("".join)
    long = st.tuples(st.integers(1000, 6000), st.sampled_from(HOSTILE_PIECES)).map(lambda t: "x" * t[0] + t[1])
    return st.one_of(st.just(""), pieces, long)


def _decimal(max_abs: int, scale: int) -> st.SearchStrategy[Decimal]:
    unit = 10**scale
    edge = max_abs * unit - 1
    return st.one_of(
        st.sampled_from([0, 1, -1, edge, -edge, unit, 5 * unit // 2]), st.integers(-edge, edge)
    ).map(lambda n: Decimal(n).scaleb(-scale))


def _ints(lo: int, hi: int) -> st.SearchStrategy[int]:
    return st.one_of(st.sampled_from([0, 1, -1, 7, lo, hi]), st.integers(lo, hi))


_DOUBLES = st.one_of(
    st.sampled_from([0.0, -0.0, 1.5, -2.25, float("nan"), float("inf"), float("-inf"), 1e300, 5e-324]),
    st.floats(width=32, allow_nan=False, allow_infinity=False),
)
_DATES = st.dates(min_value=dt.date(1000, 1, 1), max_value=dt.date(9999, 12, 31))
_TIMESTAMPS = st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2200, 12, 31))


@dataclass(frozen=True)
class TypePair:
    """The types of one key column on each side, and what their values look like.

    ``common`` draws values both sides can hold (so rows can match);
    ``left_only``/``right_only`` draw values only that side holds (or none).
    """

    left: str
    right: str

    @property
    def label(self) -> str:
        return self.left if self.left == self.right else f"{self.left}_vs_{self.right}"

    def common(self) -> st.SearchStrategy[Any]:
        types = {self.left, self.right}
        if types == {"string"}:
            return hostile_text()
        if types == {"boolean"}:
            return st.booleans()
        if types == {"bigint"}:
            return _ints(BIGINT_MIN, BIGINT_MAX)
        if types <= {"int", "bigint", "string"} or types == {"int", "decimal(18,4)"}:
            return _ints(INT_MIN, INT_MAX)
        if types == {"decimal(18,4)"}:
            return _decimal(10**14, 4)
        if types == {"decimal(10,2)", "decimal(18,4)"}:
            return _decimal(10**8, 2)
        if types <= {"date", "timestamp"} and "date" in types:
            return _DATES
        if types == {"timestamp"}:
            return _TIMESTAMPS
        if types == {"double"}:
            return _DOUBLES
        if types == {"float", "double"}:
            # values a float holds exactly, so that both sides can match
            return _DOUBLES.filter(lambda x: x != x or abs(x) in (0.0, float("inf")) or (abs(x) < 3e38 and abs(x) > 1e-38))
        if types == {"int", "double"}:
            return _ints(INT_MIN, INT_MAX)
        raise ValueError(f"no value strategy for {self}")

    def only(self, side: str) -> st.SearchStrategy[Any] | None:
        mine, other = (self.left, self.right) if side == "left" else (self.right, self.left)
        if mine == other:
            return None
        if mine == "bigint" and other in ("int", "string"):
            return st.one_of(st.integers(INT_MAX + 1, BIGINT_MAX), st.integers(BIGINT_MIN, INT_MIN - 1))
        if mine == "decimal(18,4)" and other == "decimal(10,2)":
            return _decimal(10**14, 4).filter(lambda d: d != d.quantize(Decimal("0.01")) or abs(d) >= 10**8)
        if mine == "decimal(18,4)" and other == "int":
            return _decimal(10**14, 4).filter(lambda d: d != d.to_integral_value() or not INT_MIN <= d <= INT_MAX)
        if mine == "double" and other in ("int", "float"):
            return st.sampled_from([0.1, -0.5, 1e300, float("nan")])
        if mine == "timestamp" and other == "date":
            return _TIMESTAMPS.filter(lambda t: t.time() != dt.time(0))
        return None

    def side_value(self, side: str, value: Any, variant: int) -> Any:
        """*value* (of the common domain) as a value of this side's type."""
        sql_type = self.left if side == "left" else self.right
        if value is None:
            return None
        if sql_type == "string" and isinstance(value, int) and not isinstance(value, bool):
            # numeric text the other side's integers equal (Spark casts the string to bigint)
            forms = [str(value), f" {value}", f"{value} ", f"+{value}" if value >= 0 else str(value), f"0{value}" if value >= 0 else str(value)]
            return forms[variant % len(forms)]
        if sql_type == "float" and isinstance(value, float):
            import struct

            return struct.unpack("f", struct.pack("f", value))[0] if value == value and abs(value) != float("inf") else value
        if sql_type == "timestamp" and isinstance(value, dt.date) and not isinstance(value, dt.datetime):
            return dt.datetime(value.year, value.month, value.day)
        return value


TYPE_PAIRS = [
    TypePair("string", "string"),
    TypePair("int", "int"),
    TypePair("bigint", "bigint"),
    TypePair("decimal(18,4)", "decimal(18,4)"),
    TypePair("date", "date"),
    TypePair("timestamp", "timestamp"),
    TypePair("boolean", "boolean"),
    TypePair("int", "bigint"),
    TypePair("bigint", "int"),
    TypePair("decimal(10,2)", "decimal(18,4)"),
    TypePair("int", "decimal(18,4)"),
    TypePair("string", "int"),
    TypePair("int", "string"),
    TypePair("date", "timestamp"),
    TypePair("double", "double"),
    TypePair("float", "double"),
    TypePair("int", "double"),
]


def common_type(pair: TypePair) -> str:
    """The type Spark compares the two keys in (ANSI mode on, as on Spark 4)."""
    types = {pair.left, pair.right}
    if len(types) == 1:
        return pair.left
    if types == {"int", "bigint"} or types == {"string", "int"}:
        return "bigint"
    if types == {"decimal(10,2)", "decimal(18,4)"}:
        return "decimal(18,4)"
    if types == {"int", "decimal(18,4)"}:
        return "decimal(18,4)"
    if types == {"date", "timestamp"}:
        return "timestamp"
    if "double" in types:
        return "double"
    raise ValueError(pair)


# -- shapes -----------------------------------------------------------------------------

JOIN_TYPES = ["inner", "left", "right", "full", "left semi", "left anti"]
JOIN_SPELLINGS = {
    "inner": ["inner", "inner join", "join"],
    "left": ["left", "left outer", "left outer join"],
    "right": ["right", "right outer join"],
    "full": ["full", "full outer", "outer"],
    "left semi": ["left semi", "semi"],
    "left anti": ["left anti", "anti", "left anti join"],
}
SQL_JOIN = {
    "inner": "inner join", "left": "left outer join", "right": "right outer join",
    "full": "full outer join", "left semi": "left semi join", "left anti": "left anti join",
}  # fmt: skip
# which sides' rows an outer join keeps even without a match
PRESERVED = {"inner": (), "left": ("left",), "right": ("right",), "full": ("left", "right"),
             "left semi": ("left",), "left anti": ("left",)}  # fmt: skip
ALIASES = [("a", "b"), ("o", "c"), ("l", "r"), ("a", "a_hot"), ("hot", "a"), ("a", "a_no")]
KEY_NAMES = ["k", "key", "k2", "date"]  # `key` and `date` need backticks in Spark SQL


def ident(name: str) -> str:
    return name if name in ("k", "k2", "id", "rid", "v", "w") else f"`{name}`"


@dataclass(frozen=True)
class KeyCol:
    left_name: str
    right_name: str
    types: TypePair


@dataclass
class Shape:
    """Everything fixed for one compiled query (see the module docstring)."""

    keys: tuple[KeyCol, ...]
    join_spelling: str
    join_type: str
    left_alias: str
    right_alias: str
    right_has_v: bool
    columns: list[str] | None
    pool: list[tuple[Any, ...]]  # key tuples (common domain) the data and the spec use
    absent: list[tuple[Any, ...]]  # key tuples no row holds
    spec: dict[str, Any] | None
    on_pairs: bool  # write `on` as [left, right] pairs
    expect_error: str | None = None  # why the macro should refuse this shape, or None
    notes: list[str] = field(default_factory=list)

    # columns of the inputs, in order: (name, type)
    def left_columns(self) -> list[tuple[str, str]]:
        return [("id", "int"), *((k.left_name, k.types.left) for k in self.keys), ("v", "string")]

    def right_columns(self) -> list[tuple[str, str]]:
        cols = [("rid", "int"), *((k.right_name, k.types.right) for k in self.keys), ("w", "string")]
        if self.right_has_v:
            cols.append(("v", "string"))
        return cols

    def on_arg(self) -> list[Any]:
        if self.on_pairs:
            return [[k.left_name, k.right_name] for k in self.keys]
        return [k.left_name for k in self.keys]

    def inline_sql(self, left: str = LEFT_VIEW, right: str = RIGHT_VIEW) -> str:
        args = [
            to_jinja(left),
            to_jinja(right),
            "on=" + to_jinja(self.on_arg()),
            "join_type=" + to_jinja(self.join_spelling),
        ]
        if self.columns is not None:
            args.append("columns=" + to_jinja(self.columns))
        if (self.left_alias, self.right_alias) != ("a", "b"):
            args += ["left_alias=" + to_jinja(self.left_alias), "right_alias=" + to_jinja(self.right_alias)]
        if self.spec is not None:
            args.append("skew=" + to_jinja(self.spec))
        return "{{ skewjoin.skew_join(" + ", ".join(args) + ") }}"

    def select_list(self) -> list[str]:
        """The output columns, written here independently of the macro:
        explicit ``columns``, else every column of the left side and (unless a
        semi/anti join) the non-key columns of the right side."""
        if self.columns is not None:
            return list(self.columns)
        la, ra = self.left_alias, self.right_alias
        out = [f"{la}.{ident(n)}" for n, _ in self.left_columns()]
        if self.join_type not in ("left semi", "left anti"):
            right_keys = {k.right_name for k in self.keys}
            out += [f"{ra}.{ident(n)}" for n, _ in self.right_columns() if n not in right_keys]
        return out

    def plain_join_sql(self, left: str = LEFT_VIEW, right: str = RIGHT_VIEW) -> str:
        """The oracle: the plain Spark join, written independently of the macro."""
        la, ra = self.left_alias, self.right_alias
        on = " and ".join(f"{la}.{ident(k.left_name)} = {ra}.{ident(k.right_name)}" for k in self.keys)
        return (
            f"select {', '.join(self.select_list())}\n"
            f"from {left} as {la}\n{SQL_JOIN[self.join_type]} {right} as {ra}\n    on {on}"
        )

    def describe(self) -> str:
        keys = ", ".join(f"{k.left_name}/{k.right_name} {k.types.label}" for k in self.keys)
        return f"{self.join_type} join on ({keys}); spec {json.dumps(self.spec, default=str)[:400]}"


def _key_literal(shape: Shape, side: str, index: int, value: Any) -> str:
    k = shape.keys[index]
    sql_type = k.types.left if side == "left" else k.types.right
    return spark_literal(k.types.side_value(side, value, 0), sql_type)


def _when_atom(draw: st.DrawFn, shape: Shape, side: str, index: int) -> str:
    """One condition on key column *index* of *side*, as a user would write it."""
    k = shape.keys[index]
    alias = shape.left_alias if side == "left" else shape.right_alias
    col = f"{alias}.{ident(k.left_name if side == 'left' else k.right_name)}"
    sql_type = k.types.left if side == "left" else k.types.right
    values = [t[index] for t in shape.pool + shape.absent if t[index] is not None] or [None]

    def lit() -> str:
        return _key_literal(shape, side, index, draw(st.sampled_from(values)))

    templates = ["eq", "in", "is_null", "ne", "not_eq", "coalesce", "null_safe"]
    if sql_type not in ("boolean",):
        templates += ["gt", "between"]
    if sql_type == "string":
        templates += ["length", "prefix"]
    if sql_type in ("int", "bigint"):
        templates += ["pmod"]
    kind = draw(st.sampled_from(templates))
    if kind == "eq":
        return f"{col} = {lit()}"
    if kind == "in":
        return f"{col} in ({lit()}, {lit()})"
    if kind == "is_null":
        return f"{col} is null"
    if kind == "ne":
        return f"{col} <> {lit()}"
    if kind == "not_eq":
        return f"not ({col} = {lit()})"
    if kind == "coalesce":
        first = lit()
        return f"coalesce({col}, {first}) = {first}"
    if kind == "null_safe":
        return f"{col} <=> {lit()}"
    if kind == "gt":
        return f"{col} > {lit()}"
    if kind == "between":
        return f"{col} between {lit()} and {lit()}"
    if kind == "length":
        return f"length({col}) > {draw(st.integers(0, 3))}"
    if kind == "prefix":
        return f"substr({col}, 1, 1) = {spark_string_literal(draw(st.sampled_from(['x', chr(39), '', 'é'])))}"
    if kind == "pmod":
        return f"pmod({col}, 3) = {draw(st.integers(0, 2))}"
    raise AssertionError(kind)


@st.composite
def when_condition(draw: st.DrawFn, shape: Shape, side: str) -> str:
    atoms = [_when_atom(draw, shape, side, draw(st.integers(0, len(shape.keys) - 1)))]
    if draw(st.integers(0, 3)) == 0:
        atoms.append(_when_atom(draw, shape, side, draw(st.integers(0, len(shape.keys) - 1))))
        return f"({atoms[0]}) {draw(st.sampled_from(['and', 'or']))} ({atoms[1]})"
    return atoms[0]


@st.composite
def distribute_expression(draw: st.DrawFn, shape: Shape, side: str) -> str:
    alias = shape.left_alias if side == "left" else shape.right_alias
    payload = "v" if side == "left" else "w"
    row_id = "id" if side == "left" else "rid"
    key = ident(shape.keys[0].left_name if side == "left" else shape.keys[0].right_name)
    return draw(st.sampled_from([
        f"{alias}.{payload}", f"upper({alias}.{payload})", f"length({alias}.{payload})",
        f"{alias}.{row_id}", f"{alias}.{key}", f"coalesce({alias}.{payload}, '')",
        f"concat({alias}.{payload}, '--', {alias}.{row_id})",
    ]))  # fmt: skip


def group_slots(group: dict[str, Any], total_slots: int) -> int:
    """A group's slot count as the documented rule computes it (percent rounds half up)."""
    if "slots" in group:
        return int(group["slots"])
    return max(int(float(group["percent"]) * total_slots / 100 + 0.5), 1)


def expected_refusal(shape: Shape, total_slots_default: int = 20) -> str | None:
    """Why skew_join should refuse this shape at compile time (None: it must compile).

    Mirrors the documented rules: percentages add up to at most 100; at least
    one slot stays for the rows in no group; outer joins split only the
    preserved side and multicast only the null-supplying one (a group
    multicasts its other side when it distributes by random or an expression
    over more than one slot)."""
    spec = shape.spec or {}
    groups = spec.get("groups") or []
    if not groups:
        return None
    total = spec.get("total_slots") or total_slots_default
    if sum(float(g["percent"]) for g in groups if "percent" in g) > 100:
        return "over 100%"
    if sum(group_slots(g, total) for g in groups) >= total:
        return "at least one slot must stay"
    for g in groups:
        driver = g["_driver"]
        other = "right" if driver == "left" else "left"
        if g.get("distribute", "random") != "keys" and group_slots(g, total) > 1 and other in PRESERVED[shape.join_type]:
            return "split only the preserved side"
    return None


def _strip_private(spec: dict[str, Any]) -> dict[str, Any]:
    out = dict(spec)
    if "groups" in out:
        out["groups"] = [{k: v for k, v in g.items() if not k.startswith("_")} for g in out["groups"]]
    return out


def _config_value(pair: TypePair, value: Any) -> Any:
    """A key value as a user writes it in a config (numbers, strings, booleans)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    return str(value) if not isinstance(value, dt.datetime) else value.isoformat(sep=" ")


def _respelled(pair: TypePair, value: Any) -> Any:
    """The same key value as another user writes it: an integer compared as a decimal or a double as a float
    (1 -> 1.0), a decimal's text without its trailing zeros ('1.5000' -> '1.5', '2.0000' -> '2'); other
    values as they are."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        fractional = any(t.startswith(("decimal", "double", "float")) for t in (pair.left, pair.right))
        return float(value) if fractional and abs(value) < 2**53 else value
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]+\.[0-9]+", value):
        return value.rstrip("0").rstrip(".")
    return value


def _configurable(value: Any) -> bool:
    """A value a user can write as a hot key (no NaN or infinity: they have no literal)."""
    return not (isinstance(value, float) and (value != value or abs(value) == float("inf")))


@st.composite
def hot_key_values(draw: st.DrawFn, shape: Shape) -> list[Any]:
    """Hot keys for one side: values present in the pool, absent from the data, NULL."""
    candidates = [t for t in shape.pool[:3] + shape.absent[:2] if all(_configurable(v) for v in t)]
    chosen = draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=3)) if candidates else []
    if draw(st.integers(0, 3)) == 0:
        chosen.append(tuple(None for _ in shape.keys))
    if len(shape.keys) > 1 and candidates and draw(st.integers(0, 3)) == 0:
        partial = list(draw(st.sampled_from(candidates)))
        partial[draw(st.integers(0, len(partial) - 1))] = None
        chosen.append(tuple(partial))
    out: list[Any] = []
    for t in chosen:
        vals = [_config_value(k.types, v) for k, v in zip(shape.keys, t, strict=True)]
        out.append(vals[0] if len(shape.keys) == 1 else vals)
    return out


@st.composite
def skew_spec(draw: st.DrawFn, shape: Shape, allow_auto: bool = False) -> dict[str, Any] | None:
    """A skew specification: one to four groups and/or hot keys (or nothing)."""
    kind = draw(st.sampled_from(["groups", "groups", "hot", "both", "both", "empty"]))
    spec: dict[str, Any] = {}
    if kind == "empty":
        return draw(st.sampled_from([None, {}]))
    if kind in ("groups", "both"):
        if draw(st.booleans()):
            spec["total_slots"] = draw(st.sampled_from([2, 3, 8, 24, 40]))
        groups = []
        for i in range(draw(st.integers(1, 4))):
            driver = draw(st.sampled_from(["left", "right"]))
            # outer joins: mostly pick the legal driver, sometimes the one that must be refused
            preserved = PRESERVED[shape.join_type]
            if preserved and len(preserved) == 1 and draw(st.integers(0, 4)) > 0:
                driver = preserved[0]
            g: dict[str, Any] = {"when": draw(when_condition(shape, driver)), "_driver": driver}
            if draw(st.booleans()):
                g["slots"] = draw(st.integers(1, 6))
            else:
                g["percent"] = draw(st.sampled_from([5, 10, 12.5, 20, 25, 33.3, 50]))
            dist = draw(st.sampled_from(["random", "keys", "expression", "default"]))
            if shape.join_type == "full" and draw(st.integers(0, 4)) > 0:
                dist = "keys"
            if dist == "expression":
                g["distribute"] = draw(distribute_expression(shape, driver))
            elif dist != "default":
                g["distribute"] = dist
            if draw(st.integers(0, 3)) == 0:
                g["name"] = draw(st.sampled_from(["hot", "Hot key!", f"g{i}"]))
            groups.append(g)
        spec["groups"] = groups
    if kind in ("hot", "both"):
        form = draw(st.sampled_from(["list", "left", "right", "both"] + (["auto_left", "auto_right"] if allow_auto else [])))
        la, ra = shape.left_alias, shape.right_alias
        if form == "list":
            spec["hot_keys"] = draw(hot_key_values(shape))
        elif form == "left":
            spec["hot_keys"] = {la: draw(hot_key_values(shape))}
        elif form == "right":
            spec["hot_keys"] = {ra: draw(hot_key_values(shape))}
        elif form == "both":
            left_keys = draw(hot_key_values(shape))
            # the same values hot on both sides, each side's written its own way (1 and 1.0, '1.5000' and
            # '1.5'): each value's rows are joined once
            same = draw(st.booleans())
            types = [k.types for k in shape.keys]
            right_keys = (
                [
                    [_respelled(t, v) for t, v in zip(types, k, strict=True)]
                    if isinstance(k, list)
                    else _respelled(types[0], k)
                    for k in left_keys
                ]
                if same
                else draw(hot_key_values(shape))
            )
            spec["hot_keys"] = {la: left_keys, ra: right_keys}
        elif form == "auto_left":
            spec["hot_keys"] = {la: "auto"}
        else:
            spec["hot_keys"] = {ra: "auto", la: draw(hot_key_values(shape))} if draw(st.booleans()) else {ra: "auto"}
        if draw(st.booleans()):
            options: dict[str, Any] = {"spread": draw(st.sampled_from(["always", "never", "auto"]))}
            if draw(st.booleans()):
                options["spread_partitions"] = draw(st.integers(1, 6))
            if form.startswith("auto"):
                options["min_share"] = draw(st.sampled_from([0.05, 0.2, 0.5]))
                options["max_keys"] = draw(st.integers(1, 4))
            spec["hot_keys_options"] = options
    return spec


@st.composite
def shapes(draw: st.DrawFn, allow_auto: bool = False, join_types: Sequence[str] = JOIN_TYPES) -> Shape:
    n_keys = draw(st.sampled_from([1, 1, 1, 2, 3]))
    names = draw(st.permutations(KEY_NAMES))[:n_keys]
    pairs = [draw(st.sampled_from(TYPE_PAIRS)) for _ in range(n_keys)]
    on_pairs = draw(st.integers(0, 3)) == 0
    keys = tuple(
        KeyCol(name, ("r" + name.strip("`")) if on_pairs else name, pair) for name, pair in zip(names, pairs, strict=True)
    )
    join_type = draw(st.sampled_from(list(join_types)))
    left_alias, right_alias = draw(st.sampled_from(ALIASES))
    # a pool of distinct key tuples, the first ones hot; absent tuples differ from all of them
    tuples = st.tuples(*(p.common() for p in pairs))
    pool_and_absent = draw(st.lists(tuples, min_size=1, max_size=7, unique_by=_tuple_identity))
    n_absent = draw(st.integers(0, min(2, len(pool_and_absent) - 1)))
    pool = pool_and_absent[: len(pool_and_absent) - n_absent]
    absent = pool_and_absent[len(pool_and_absent) - n_absent :]
    shape = Shape(
        keys=keys, join_spelling=draw(st.sampled_from(JOIN_SPELLINGS[join_type])), join_type=join_type,
        left_alias=left_alias, right_alias=right_alias, right_has_v=draw(st.booleans()), columns=None,
        pool=pool, absent=absent, spec=None, on_pairs=on_pairs,
    )  # fmt: skip
    if draw(st.integers(0, 3)) == 0:
        la, ra = left_alias, right_alias
        cols = [f"{la}.id", f"{la}.{ident(keys[0].left_name)}", f"upper({la}.v) as v_upper"]
        if join_type not in ("left semi", "left anti"):
            cols += [f"{ra}.w as w_out", f"{ra}.{ident(keys[-1].right_name)} as rkey", f"{ra}.rid"]
        shape.columns = draw(st.permutations(cols))[: draw(st.integers(1, len(cols)))]
    spec = draw(skew_spec(shape, allow_auto=allow_auto))
    shape.spec = spec
    shape.expect_error = expected_refusal(shape) if spec else None
    shape.spec = _strip_private(spec) if spec else spec
    return shape


def _tuple_identity(t: tuple[Any, ...]) -> tuple[Any, ...]:
    """Values that Spark's equality would consider equal map to one identity."""
    return tuple((type(v).__name__ if isinstance(v, bool) else "", v) for v in t)


# -- tables -----------------------------------------------------------------------------


@dataclass
class Tables:
    left: list[tuple[Any, ...]]
    right: list[tuple[Any, ...]]

    def view_sql(self, shape: Shape, left: str = LEFT_VIEW, right: str = RIGHT_VIEW, reverse: bool = False,
                 partitions: int | None = None) -> list[str]:  # fmt: skip
        """``create or replace global temporary view`` statements for both sides."""
        out = []
        for view, rows, columns in ((left, self.left, shape.left_columns()), (right, self.right, shape.right_columns())):
            name = view.split(".", 1)[1]
            out.append(f"create or replace global temporary view {name} as\n" + _select_values(rows[::-1] if reverse else rows, columns, partitions))
        return out


def _select_values(rows: list[tuple[Any, ...]], columns: list[tuple[str, str]], partitions: int | None) -> str:
    cols = ", ".join(f"cast(c{i} as {t}) as {ident(n)}" for i, (n, t) in enumerate(columns))
    names = ", ".join(f"c{i}" for i in range(len(columns)))
    hint = f"/*+ repartition({partitions}) */ " if partitions else ""
    if not rows:
        nulls = ", ".join(f"cast(null as {t})" for _, t in columns)
        return f"select {hint}{cols} from values ({nulls}) as t({names}) where false"
    values = ",\n".join("(" + ", ".join(spark_literal(v, t) for v, (_, t) in zip(row, columns, strict=True)) + ")" for row in rows)
    return f"select {hint}{cols} from values\n{values}\nas t({names})"


@st.composite
def tables(draw: st.DrawFn, shape: Shape, max_left: int = 200, max_right: int = 60) -> Tables:
    """Rows for both inputs of *shape*: keys from the shape's pool (the first
    entries hot), NULL keys (whole or partial), values only one side holds,
    duplicate rows, and payloads with hostile or very long strings."""
    payloads = draw(st.lists(hostile_text(), min_size=1, max_size=4))
    payloads.append(None)

    def side_rows(side: str, max_rows: int) -> list[tuple[Any, ...]]:
        size = draw(st.integers(0, 9))
        n = 0 if size == 0 else draw(st.integers(1, 8)) if size < 4 else draw(st.integers(1, max_rows))
        hot_weight = draw(st.integers(0, 12))
        n_hot = draw(st.integers(1, min(3, len(shape.pool))))
        choices: list[tuple[Any, ...]] = []
        for t in shape.pool[:n_hot]:
            choices += [t] * hot_weight
        choices += shape.pool
        nulls = draw(st.integers(0, 2))
        choices += [tuple(None for _ in shape.keys)] * nulls
        if len(shape.keys) > 1 and shape.pool and draw(st.booleans()):
            t = list(shape.pool[0])
            t[draw(st.integers(0, len(t) - 1))] = None
            choices.append(tuple(t))
        for i, k in enumerate(shape.keys):
            only = k.types.only(side)
            if only is not None and draw(st.booleans()):
                t = list(shape.pool[0])
                t[i] = draw(only)
                choices.append(tuple(t))
        rows: list[tuple[Any, ...]] = []
        picks = draw(st.lists(st.integers(0, len(choices) - 1), min_size=n, max_size=n))
        variant = draw(st.integers(0, 4))
        for row_id, pick in enumerate(picks):
            key = tuple(
                k.types.side_value(side, v, variant + row_id) for k, v in zip(shape.keys, choices[pick], strict=True)
            )
            payload = payloads[(row_id * 7 + pick) % len(payloads)]
            if side == "left":
                rows.append((row_id, *key, payload))
            else:
                extra = (payloads[(row_id + 1) % len(payloads)],) if shape.right_has_v else ()
                rows.append((row_id, *key, payload, *extra))
        if rows and draw(st.booleans()):
            for i in draw(st.lists(st.integers(0, len(rows) - 1), max_size=5)):
                rows.append(rows[i])
        return rows

    return Tables(left=side_rows("left", max_left), right=side_rows("right", max_right))


# -- star_join --------------------------------------------------------------------------

FACT_VIEW = "global_temp.sj_prop_fact"
STAR_BUDGETS = [None, 0, 1, "512k", "10m", 10485760]


def _dim_view(i: int) -> str:
    return f"global_temp.sj_prop_dim{i}"


@dataclass
class Dim:
    alias: str
    view: str
    keys: list[tuple[int, str]]  # (fact key index, dimension column)
    join_type: str
    join_spelling: str | None  # None: argument left out (inner)
    filter: str | None
    broadcast: Any  # None: argument left out
    columns: list[str] | None  # the dimension's columns to output (None: default)


@dataclass
class StarShape:
    """One star_join call: a fact with 1-3 key columns, 1-4 dimensions."""

    fact_alias: str
    fact_keys: list[TypePair]  # fact column fk<i> has type fact_keys[i].left
    pools: list[list[Any]]  # per fact key column, the values the data use
    dims: list[Dim]
    budget: Any
    prune: bool | None
    expect_error: str | None = None

    def fact_columns(self) -> list[tuple[str, str]]:
        return [("fid", "int"), *((f"fk{i}", p.left) for i, p in enumerate(self.fact_keys)), ("m", "string")]

    def dim_columns(self, d: Dim) -> list[tuple[str, str]]:
        cols = [(name, self.fact_keys[i].right) for i, name in d.keys]
        return [*cols, ("name", "string"), ("n", "int")]

    def uses_data_at_compile_time(self) -> bool:
        """Pruning (on by default) reads the filtered dimensions' keys at compile time."""
        return self.prune is not False and any(d.filter and d.join_type in ("inner", "left semi") for d in self.dims)

    def inline_sql(self) -> str:
        dims = []
        for d in self.dims:
            item: dict[str, Any] = {"relation": d.view, "alias": d.alias}
            item["on"] = [[f"fk{i}", name] if name != f"fk{i}" else name for i, name in d.keys]
            if d.join_spelling is not None:
                item["join_type"] = d.join_spelling
            if d.filter is not None:
                item["filter"] = d.filter
            if d.broadcast is not None:
                item["broadcast"] = d.broadcast
            if d.columns is not None:
                item["columns"] = d.columns
            dims.append(item)
        args = [to_jinja(FACT_VIEW), to_jinja(dims)]
        if self.fact_alias != "f":
            args.append("fact_alias=" + to_jinja(self.fact_alias))
        if self.budget is not None:
            args.append("broadcast_budget=" + to_jinja(self.budget))
        if self.prune is not None:
            args.append("prune=" + to_jinja(self.prune))
        return "{{ skewjoin.star_join(" + ", ".join(args) + ") }}"

    def select_list(self) -> list[str]:
        """Default output, written from the documented rule: the fact's columns,
        then each dimension's non-key columns (all of them for right and full
        joins; its `columns` if given), a taken name renamed <alias>_<name>."""
        fa = self.fact_alias
        out = [f"{fa}.{n}" for n, _ in self.fact_columns()]
        taken = [n for n, _ in self.fact_columns()]
        for d in self.dims:
            if d.join_type in ("left semi", "left anti"):
                continue
            names = [n for n, _ in self.dim_columns(d)]
            if d.columns is not None:
                wanted = d.columns
            elif d.join_type in ("right", "full"):
                wanted = names
            else:
                key_names = {name for _, name in d.keys}
                wanted = [n for n in names if n not in key_names]
            for n in wanted:
                if n in taken:
                    out.append(f"{d.alias}.{n} as {d.alias}_{n}")
                    taken.append(f"{d.alias}_{n}")
                else:
                    out.append(f"{d.alias}.{n}")
                    taken.append(n)
        return out

    def plain_join_sql(self) -> str:
        """The oracle: the star join as written, dimensions filtered then joined in order."""
        fa = self.fact_alias
        lines = [f"select {', '.join(self.select_list())}", f"from {FACT_VIEW} as {fa}"]
        for d in self.dims:
            source = f"(select * from {d.view} as {d.alias} where {d.filter})" if d.filter else d.view
            on = " and ".join(f"{fa}.fk{i} = {d.alias}.{name}" for i, name in d.keys)
            lines.append(f"{SQL_JOIN[d.join_type]} {source} as {d.alias} on {on}")
        return "\n".join(lines)

    def describe(self) -> str:
        return " | ".join(f"{d.join_type} {d.alias} filter={d.filter!r} broadcast={d.broadcast}" for d in self.dims)


def _star_filter(draw: st.DrawFn, alias: str, key_col: str, pool: list[Any], pair: TypePair) -> str | None:
    kind = draw(st.sampled_from(["none", "none", "n_gt", "n_null", "name_ne", "key_in", "bare", "coalesce"]))
    if kind == "none":
        return None
    if kind == "n_gt":
        return f"{alias}.n > {draw(st.integers(-1, 4))}"
    if kind == "n_null":
        return f"{alias}.n is not null"
    if kind == "name_ne":
        return f"{alias}.name <> {spark_string_literal(draw(hostile_text()))}"
    if kind == "key_in":
        values = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2))
        return f"{alias}.{key_col} in ({', '.join(spark_literal(pair.side_value('right', v, 0), pair.right) for v in values)})"
    if kind == "bare":
        return f"n in ({draw(st.integers(0, 3))}, {draw(st.integers(0, 3))})"
    return f"coalesce({alias}.n, 0) < {draw(st.integers(0, 3))}"


@st.composite
def star_shapes(draw: st.DrawFn) -> StarShape:
    n_keys = draw(st.integers(1, 3))
    fact_keys = [draw(st.sampled_from(TYPE_PAIRS)) for _ in range(n_keys)]
    pools = [draw(st.lists(p.common(), min_size=1, max_size=4, unique=True)) for p in fact_keys]
    aliases = draw(st.sampled_from([["d1", "d2", "d3", "d4"], ["s", "d", "c", "p"], ["dim", "f2", "x", "y"]]))
    dims = []
    for i in range(draw(st.integers(1, 4))):
        first = draw(st.integers(0, n_keys - 1))
        key_idx = [first]
        if n_keys > 1 and draw(st.integers(0, 3)) == 0:
            key_idx.append((first + 1) % n_keys)
        same_name = draw(st.booleans())
        keys = [(k, f"fk{k}" if same_name else f"dk{j}") for j, k in enumerate(key_idx)]
        join_type = draw(st.sampled_from(JOIN_TYPES))
        spelling = None if join_type == "inner" and draw(st.booleans()) else draw(st.sampled_from(JOIN_SPELLINGS[join_type]))
        alias = aliases[i]
        broadcast = draw(st.sampled_from([None, None, "auto", True, False]))
        if broadcast is True and join_type in ("right", "full") and draw(st.integers(0, 3)) > 0:
            broadcast = None
        columns = None
        if join_type not in ("left semi", "left anti") and draw(st.integers(0, 3)) == 0:
            columns = draw(st.sampled_from([["name"], ["n", "name"], [keys[0][1]]]))
        dims.append(Dim(
            alias=alias, view=_dim_view(i + 1), keys=keys, join_type=join_type, join_spelling=spelling,
            filter=_star_filter(draw, alias, keys[0][1], pools[first], fact_keys[first]),
            broadcast=broadcast, columns=columns,
        ))  # fmt: skip
    shape = StarShape(
        fact_alias=draw(st.sampled_from(["f", "fact", "sales"])), fact_keys=fact_keys, pools=pools, dims=dims,
        budget=draw(st.sampled_from(STAR_BUDGETS)), prune=draw(st.sampled_from([None, False, True])),
    )  # fmt: skip
    if any(d.broadcast is True and d.join_type in ("right", "full") for d in dims):
        shape.expect_error = "a preserved dimension cannot be broadcast"
    return shape


@dataclass
class StarTables:
    fact: list[tuple[Any, ...]]
    dims: list[list[tuple[Any, ...]]]

    def view_sql(self, shape: StarShape) -> list[str]:
        out = [f"create or replace global temporary view {FACT_VIEW.split('.')[1]} as\n" + _select_values(self.fact, shape.fact_columns(), None)]
        for d, rows in zip(shape.dims, self.dims, strict=True):
            out.append(f"create or replace global temporary view {d.view.split('.')[1]} as\n" + _select_values(rows, shape.dim_columns(d), None))
        return out


@st.composite
def star_tables(draw: st.DrawFn, shape: StarShape, max_fact: int = 120, min_copies: int = 0) -> StarTables:
    """Fact rows with hot, NULL and unmatched keys; dimension rows holding each
    pool value 0-2 times (duplicates multiply fact rows), NULL keys, values
    only the dimension has, NULL and hostile attributes."""
    names = [*draw(st.lists(hostile_text(), min_size=1, max_size=3)), None]
    size = draw(st.integers(0, 9))
    n_fact = 0 if size == 0 else draw(st.integers(1, 8)) if size < 4 else draw(st.integers(1, max_fact))
    fact = []
    for fid in range(n_fact):
        keys = []
        for i, pair in enumerate(shape.fact_keys):
            choice = draw(st.integers(0, len(shape.pools[i]) + 1))
            value = shape.pools[i][0] if choice == len(shape.pools[i]) else None if choice > len(shape.pools[i]) else shape.pools[i][choice]
            keys.append(pair.side_value("left", value, fid))
        fact.append((fid, *keys, names[fid % len(names)]))
    if fact and draw(st.booleans()):
        fact += [fact[i] for i in draw(st.lists(st.integers(0, len(fact) - 1), max_size=4))]
    dims = []
    for d in shape.dims:
        rows = []
        key_pools = [shape.pools[i] for i, _ in d.keys]
        pairs = [shape.fact_keys[i] for i, _ in d.keys]
        combos: list[tuple[Any, ...]] = [()]
        for pool in key_pools:
            combos = [(*c, v) for c in combos for v in pool][:8]
        for j, combo in enumerate(combos):
            for _ in range(draw(st.integers(min_copies, 2))):
                key = tuple(p.side_value("right", v, j) for p, v in zip(pairs, combo, strict=True))
                rows.append((*key, names[(j + len(rows)) % len(names)], draw(st.one_of(st.none(), st.integers(-2, 5)))))
        if draw(st.booleans()):
            rows.append((*(None for _ in d.keys), names[0], 1))
        for j, pair in enumerate(pairs):
            only = pair.only("right")
            if only is not None and draw(st.booleans()):
                key = [p.side_value("right", c, 0) for p, c in zip(pairs, combos[0], strict=True)]
                key[j] = draw(only)
                rows.append((*key, names[-1], 2))
        dims.append(rows)
    return StarTables(fact=fact, dims=dims)


# -- prune_predicate --------------------------------------------------------------------

BIG_VIEW = "global_temp.sj_prop_big"


@dataclass
class Small:
    alias: str
    view: str
    keys: list[tuple[int, str]]  # (big key index, small column)
    filter: str | None
    join_type: str | None  # per-relation override
    alias_given: bool


@dataclass
class PruneShape:
    """One prune_predicate call and the query that uses it."""

    big_alias: str
    big_keys: list[TypePair]
    pools: list[list[Any]]
    smalls: list[Small]
    join_type: str | None  # the argument (None: left out, inner)
    max_values: int | None
    fallback: str | None
    expect_error: str | None = None

    def big_columns(self) -> list[tuple[str, str]]:
        return [("bid", "int"), *((f"bk{i}", p.left) for i, p in enumerate(self.big_keys)), ("payload", "string")]

    def small_columns(self, s: Small) -> list[tuple[str, str]]:
        return [*((name, self.big_keys[i].right) for i, name in s.keys), ("name", "string"), ("n", "int")]

    def effective_join(self, s: Small) -> str:
        return s.join_type or self.join_type or "inner"

    def inline_predicate(self) -> str:
        small = []
        for s in self.smalls:
            item: dict[str, Any] = {"relation": s.view, "on": [[f"bk{i}", name] if name != f"bk{i}" else name for i, name in s.keys]}
            if s.filter is not None:
                item["filter"] = s.filter
            if s.alias_given:
                item["alias"] = s.alias
            if s.join_type is not None:
                item["join_type"] = s.join_type
            small.append(item)
        args = [to_jinja(BIG_VIEW), to_jinja(self.big_alias), to_jinja(small)]
        if self.join_type is not None:
            args.append("join_type=" + to_jinja(self.join_type))
        if self.max_values is not None:
            args.append("max_values=" + to_jinja(self.max_values))
        if self.fallback is not None:
            args.append("fallback=" + to_jinja(self.fallback))
        return "skewjoin.prune_predicate(" + ", ".join(args) + ")"

    def query(self, predicate: str) -> str:
        """The big table filtered by *predicate* in a CTE (as documented for a
        right join; valid for every allowed join type), then joined to every
        small relation, each with its filter, in order."""
        ba = self.big_alias
        cols = [f"{ba}.{n}" for n, _ in self.big_columns()]
        joins = []
        for s in self.smalls:
            jt = self.effective_join(s)
            if jt not in ("left semi", "left anti"):
                cols += [f"{s.alias}.name", f"{s.alias}.n"]
            source = f"(select * from {s.view} as {s.alias} where {s.filter})" if s.filter else s.view
            on = " and ".join(f"{ba}.bk{i} = {s.alias}.{name}" for i, name in s.keys)
            joins.append(f"{SQL_JOIN[jt]} {source} as {s.alias} on {on}")
        return "\n".join([
            f"with sj_big as (select * from {BIG_VIEW} as {ba} where {predicate})",
            f"select {', '.join(cols)}", f"from sj_big as {ba}", *joins,
        ])  # fmt: skip

    def inline_sql(self) -> str:
        """The query with the macro call as its predicate. The query's own text (a filter may
        hold `{{`, `{%` or `{#` in a string literal) is written as a dbt model must write it: each
        `{` that would open a Jinja delimiter as the expression `{{ '{' }}`."""
        marker = "\x00predicate\x00"
        text = re.sub(r"\{(?=[{%#])", "{{ '{' }}", self.query(marker))
        return text.replace(marker, "{{ " + self.inline_predicate() + " }}")

    def describe(self) -> str:
        return " | ".join(f"{self.effective_join(s)} {s.alias} filter={s.filter!r}" for s in self.smalls) + f" max_values={self.max_values} fallback={self.fallback}"


@st.composite
def prune_shapes(draw: st.DrawFn) -> PruneShape:
    n_keys = draw(st.integers(1, 2))
    big_keys = [draw(st.sampled_from(TYPE_PAIRS)) for _ in range(n_keys)]
    pools = [draw(st.lists(p.common(), min_size=1, max_size=5, unique=True)) for p in big_keys]
    big_alias = draw(st.sampled_from(["f", "big", "s1"]))
    allowed = ["inner", "inner", "right", "left semi"]
    join_type = draw(st.sampled_from([None, *allowed]))
    smalls = []
    for i in range(draw(st.sampled_from([1, 1, 2, 2, 3]))):
        first = draw(st.integers(0, n_keys - 1))
        idx = [first] if n_keys == 1 or draw(st.booleans()) else [0, 1]
        same_name = draw(st.booleans())
        keys = [(k, f"bk{k}" if same_name else f"sk{j}") for j, k in enumerate(idx)]
        alias = f"s{i + 1}" if big_alias != f"s{i + 1}" else f"t{i + 1}"
        override = draw(st.sampled_from([None, None, None, None, *allowed]))
        if draw(st.integers(0, 9)) == 0:
            override = draw(st.sampled_from(["left", "full", "left anti"]))
        smalls.append(Small(
            alias=alias, view=f"global_temp.sj_prop_small{i + 1}", keys=keys,
            # the filter is on the small relation's first key column, which joins big key idx[0] (not
            # `first` when both keys are joined): its literal takes that key's pool and type
            filter=_star_filter(draw, alias, keys[0][1], pools[idx[0]], big_keys[idx[0]]),
            join_type=override, alias_given=True,
        ))  # fmt: skip
    above = draw(st.integers(0, 2)) == 0
    if above:
        # one unfiltered small relation and max_values 1: every key set of two
        # or more values is above max_values and takes the fallback
        smalls = smalls[:1]
        smalls[0].filter = None
        if len(pools[smalls[0].keys[0][0]]) < 2:
            pools[smalls[0].keys[0][0]] = [*pools[smalls[0].keys[0][0]], *draw(st.lists(big_keys[smalls[0].keys[0][0]].common(), min_size=2, max_size=3, unique=True))]
    for s in smalls:
        # a filter with bare columns needs no alias
        if s.filter is not None and s.filter.startswith("n in") and draw(st.booleans()):
            s.alias_given = False
    shape = PruneShape(
        big_alias=big_alias, big_keys=big_keys, pools=pools, smalls=smalls, join_type=join_type,
        max_values=1 if above else draw(st.sampled_from([None, 1, 2, 3, 1000])),
        fallback=draw(st.sampled_from(["range", "semi_join", "semi_join", "none"] if above else [None, "range", "semi_join", "none"])),
    )  # fmt: skip
    if any(shape.effective_join(s) in ("left", "full", "left anti") for s in smalls):
        shape.expect_error = "preserves the big table"
    return shape


@dataclass
class PruneTables:
    big: list[tuple[Any, ...]]
    smalls: list[list[tuple[Any, ...]]]

    def view_sql(self, shape: PruneShape) -> list[str]:
        out = [f"create or replace global temporary view {BIG_VIEW.split('.')[1]} as\n" + _select_values(self.big, shape.big_columns(), None)]
        for s, rows in zip(shape.smalls, self.smalls, strict=True):
            out.append(f"create or replace global temporary view {s.view.split('.')[1]} as\n" + _select_values(rows, shape.small_columns(s), None))
        return out


@st.composite
def prune_tables(draw: st.DrawFn, shape: PruneShape) -> PruneTables:
    star_like = StarShape(
        fact_alias=shape.big_alias, fact_keys=shape.big_keys, pools=shape.pools,
        dims=[Dim(alias=s.alias, view=s.view, keys=s.keys, join_type="inner", join_spelling=None, filter=s.filter,
                  broadcast=None, columns=None) for s in shape.smalls],
        budget=None, prune=None,
    )  # fmt: skip
    t = draw(star_tables(star_like, max_fact=150, min_copies=1))
    return PruneTables(big=t.fact, smalls=t.dims)

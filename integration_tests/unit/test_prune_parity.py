"""skewjoin.pruning (the Python twin of `prune_predicate`) against the Jinja macros it ports, over
generated inputs (hypothesis), no Spark: type normalization, the common type of two keys (ANSI on
and off), the target type, the never-failing cast, literals (hostile strings, numbers, NaN, dates,
timestamps, values with no literal), identifiers, indentation, the sort of key tuples, the
predicate of one group (IN lists, tuples, empty set, range, semi join, none), and the prune
cache's key set. That the whole predicate is the macro's on real Spark:
integration_tests/pytests/test_prune_helper.py."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skewjoin.errors import PruneSpecError
from skewjoin.literals import is_query_text, normalize_type, quote_spark_string, spark_ident, type_kind
from skewjoin.prune_cache import key_set
from skewjoin.prune_spec import PruneSpec, SmallSpec
from skewjoin.pruning import (
    Collected,
    Column,
    Key,
    Source,
    SourceCounts,
    group_predicate,
    read_collected,
)
from skewjoin.sql_rules import cast_expr, common_type, indent, prune_literal, prune_target_type

from .harness import RaisedCompilerError, Renderer

SETTINGS = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

# -- generated inputs ---------------------------------------------------------------------------

BASE_TYPES = [
    "tinyint", "smallint", "int", "integer", "bigint", "long", "short", "byte", "float", "real", "double", "decimal",
    "dec", "numeric", "string", "boolean", "bool", "date", "timestamp", "timestamp_ltz", "timestamp_ntz", "binary",
    "array<int>", "map<string,int>", "string collate utf8_lcase", "interval day", "variant", "void",
]  # fmt: skip


@st.composite
def spark_types(draw: st.DrawFn) -> str:
    """A type as DESCRIBE or a user writes it: any case, spaces around parentheses and commas."""
    kind = draw(st.sampled_from(["base", "decimal", "numeric", "char"]))
    if kind == "base":
        text = draw(st.sampled_from(BASE_TYPES))
    elif kind == "decimal":
        p = draw(st.integers(1, 38))
        text = f"{draw(st.sampled_from(['decimal', 'dec', 'numeric', 'DECIMAL']))}({p},{draw(st.integers(0, p))})"
    elif kind == "numeric":
        text = f"numeric({draw(st.integers(1, 38))})"
    else:
        text = f"{draw(st.sampled_from(['varchar', 'char', 'VarChar']))}({draw(st.integers(1, 300))})"
    spaces = st.sampled_from(["", " ", "  ", "\t"])
    text = "".join(ch if ch not in "()," else draw(spaces) + ch + draw(spaces) for ch in text)
    text = draw(st.sampled_from([text, text.upper(), text.title()]))
    return draw(spaces) + text + draw(spaces)


HOSTILE = st.lists(
    st.sampled_from(list("ab'\"\\$ {}\n\r\t\x00-/*;%_é✓🚀") + ["${", "\\u0024", "*/", "/*", "--"]), max_size=10
).map("".join)
NUMBER_TEXT = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.decimals(allow_nan=False, allow_infinity=False, places=4).map(str),
    st.floats().map(lambda f: repr(f).replace("inf", "Infinity").replace("nan", "NaN")),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1.0E10", "1e-5", ".5", "5.", "+3", "1,5", "0x10", " 7 ", ""]),
)  # fmt: skip
TEXT_FOR = {
    "int": st.integers(-(2**31), 2**31 - 1).map(str),
    "bigint": st.integers(-(2**63), 2**63 - 1).map(str),
    "decimal(10,2)": st.decimals(min_value=-(10**7), max_value=10**7, places=2).map(str),
    "double": st.sampled_from(
        [
            "0.5",
            "1.0E10",
            "-2.25",
            "NaN",
            "Infinity",
            "-Infinity",
            "3.0",
            "-0.0",
            "4.9E-324",
        ]
    ),
    "string": HOSTILE,
    "date": st.dates().map(str),
    "timestamp": st.datetimes().map(lambda d: d.strftime("%Y-%m-%d %H:%M:%S.%f") + "+00:00"),
    "boolean": st.sampled_from(["true", "false"]),
}


def _jinja_or_error(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except RaisedCompilerError:
        return "<error>"


def _python_or_error(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except PruneSpecError:
        return "<error>"


@pytest.fixture(scope="module")
def r(pkg: Any) -> Renderer:
    return Renderer({}, pkg=pkg)


# -- types ------------------------------------------------------------------------------------


@SETTINGS
@given(t=spark_types())
def test_normalize_type_and_kind(r: Renderer, t: str) -> None:
    assert normalize_type(t) == r.call("_sj_normalize_type", t)
    assert type_kind(t) == r.call("_sj_type_kind", t)


@SETTINGS
@given(left=spark_types(), right=spark_types(), ansi=st.booleans())
@example(left="bigint", right="decimal(38,10)", ansi=True)
@example(left="string", right="decimal(10,2)", ansi=False)
def test_common_type(r: Renderer, left: str, right: str, ansi: bool) -> None:
    assert common_type(left, right, ansi) == r.call("_sj_common_type", left, right, ansi)


@SETTINGS
@given(big=spark_types(), small=spark_types(), ansi=st.booleans(), any_common=spark_types())
def test_target_type_and_cast(r: Renderer, big: str, small: str, ansi: bool, any_common: str) -> None:
    common = common_type(big, small, ansi)
    for c in ([common] if common is not None else []) + [any_common]:
        assert prune_target_type(big, c) == r.call("_sj_prune_target_type", big, c)
        assert cast_expr("a.k", big, c) == r.call("_sj_cast", "a.k", big, c)


# -- literals, names, layout ------------------------------------------------------------------


@SETTINGS
@given(
    data=st.data(),
    t=st.sampled_from(sorted(TEXT_FOR) + ["float", "smallint", "decimal(38,0)", "varchar(5)"]),
)
def test_prune_literal(r: Renderer, data: st.DataObject, t: str) -> None:
    base = {
        "float": "double",
        "smallint": "int",
        "decimal(38,0)": "bigint",
        "varchar(5)": "string",
    }.get(t, t)
    text = data.draw(st.one_of(TEXT_FOR[base], NUMBER_TEXT, HOSTILE))
    ours = _python_or_error(lambda: prune_literal(text, t))
    theirs = _jinja_or_error(lambda: r.call("_sj_prune_literal", "prune_predicate", text, t))
    assert ours == theirs


@SETTINGS
@given(value=st.one_of(HOSTILE, st.text()))
def test_quote_string(r: Renderer, value: str) -> None:
    assert quote_spark_string(value) == r.call("_sj_quote_string", value)


@SETTINGS
@given(
    name=st.one_of(
        st.text(alphabet="aZ_9` .", max_size=6),
        st.sampled_from(["date", "Key", "VALUES", "x", "_a"]),
    )
)
def test_ident(r: Renderer, name: str) -> None:
    assert spark_ident(name) == r.call("_sj_ident", name)


@SETTINGS
@given(
    text=st.lists(
        st.sampled_from(["select", "SELECT ", "with", "values", "from", "table", "(", " ", "\n", "-- c\n", "/* c */",
                         "db.t", "`x`", "selected", "a", ".", "*/", "--"]),  # fmt: skip
        max_size=6,
    ).map("".join)
)
@example(text="/* skewjoin */\nselect 1")
@example(text="selected_rows")
def test_is_query_text(r: Renderer, text: str) -> None:
    """One rule tells a query from a table name: the profile's, the prune helper's and the test fixtures'."""
    assert is_query_text(text) == r.call("_sj_is_query_text", text)


@SETTINGS
@given(
    text=st.lists(st.sampled_from(list("a'\"\\\n (x)") + ["\n\n"]), max_size=30).map("".join),
    width=st.integers(0, 8),
)
def test_indent(r: Renderer, text: str, width: int) -> None:
    assert indent(text, width) == r.call("_sj_indent", text, width)


@SETTINGS
@given(tuples=st.lists(st.lists(HOSTILE, min_size=2, max_size=2), max_size=8))
def test_key_tuples_sort_as_jinja_sorts(r: Renderer, tuples: list[list[str]]) -> None:
    """read_collected sorts the key tuples as the macro's `| sort` does (case-sensitive: list items)."""
    sink: list[Any] = []
    r.package.env.from_string("{% do sink.extend(tuples | sort) %}").render({"tuples": tuples, "sink": sink})
    rows = [("key", None, "v:" + a, "v:" + b) for a, b in tuples]
    assert read_collected(rows, 2, 1, 0.0).tuples == sink


# -- one group's predicate ----------------------------------------------------------------------

GROUP_TYPES = [
    "int",
    "bigint",
    "string",
    "date",
    "timestamp",
    "decimal(10,2)",
    "double",
    "boolean",
]


@st.composite
def groups(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 2))
    types = [draw(st.sampled_from(GROUP_TYPES)) for _ in range(n)]
    names = [draw(st.sampled_from(["k", "Key", "date", "b_col"])) + str(i) for i in range(n)]
    tuples = sorted(
        draw(
            st.lists(
                st.tuples(*[TEXT_FOR[t] for t in types]).map(list),
                max_size=7,
                unique_by=tuple,
            )
        )
    )
    kept = len(tuples) + (draw(st.sampled_from([0, 0, 0, 5])) if tuples else 0)
    pushable = [draw(st.booleans()) for _ in range(n)]
    return {
        "types": types, "names": names, "tuples": tuples, "kept": kept, "pushable": pushable,
        "alias": draw(st.sampled_from(["f", None])), "max_values": draw(st.integers(1, 6)),
        "fallback": draw(st.sampled_from(["range", "semi_join", "none"])),
        "filters": [draw(st.sampled_from([None, "year = 2026", "name <> 'it''s\n${x}'"])) for _ in range(2)],
        "sources": draw(st.integers(1, 2)),
    }  # fmt: skip


def _keys(case: dict[str, Any], alias: str) -> list[Key]:
    keys = []
    for name, t, pushable in zip(case["names"], case["types"], case["pushable"], strict=True):
        column = (case["alias"] + "." if case["alias"] else "") + spark_ident(name)
        big_expr = column if pushable else f"cast({column} as {t})"
        keys.append(
            Key(
                name,
                t,
                name.lower(),
                t,
                t,
                t,
                pushable,
                big_expr,
                f"{alias}.{spark_ident(name.lower())}",
            )
        )
    return keys


def _jinja_source(src: Source) -> dict[str, Any]:
    s = src.spec
    return {"index": s.index, "from": s.from_text, "label": s.label, "alias": s.alias, "filter": s.filter,
            "pairs": [list(p) for p in s.pairs], "join_type": s.join_type,
            "keys": [vars(k) for k in src.keys]}  # fmt: skip


@SETTINGS
@given(case=groups())
@example(case={"types": ["string"], "names": ["k0"], "tuples": [["A"], ["B"], ["a"]], "kept": 3, "pushable": [True],
               "alias": "f", "max_values": 5, "fallback": "range", "filters": [None, None], "sources": 1})  # fmt: skip
def test_group_predicate(r: Renderer, case: dict[str, Any]) -> None:
    sources = []
    for j in range(case["sources"]):
        alias = f"s{j}"
        small = SmallSpec(j, f"db.small_{j}", f"db.small_{j}", f"db.small_{j}", alias, case["filters"][j],
                          tuple((n, n.lower()) for n in case["names"]), "inner")  # fmt: skip
        sources.append(Source(small, _keys(case, alias)))
    spec = PruneSpec("g", "db.big", "db.big", True, case["alias"], tuple(s.spec for s in sources),
                     case["max_values"], case["fallback"])  # fmt: skip
    tuples = case["tuples"]
    bounds = ([min(t[i] for t in tuples) for i in range(len(case["types"]))],
              [max(t[i] for t in tuples) for i in range(len(case["types"]))]) if tuples else (None, None)  # fmt: skip
    collected = Collected(
        [SourceCounts(len(tuples), 0, 0)] * len(sources),
        case["kept"],
        tuples,
        *bounds,
        0.0,
    )
    ours = _python_or_error(lambda: group_predicate(spec, sources, collected))
    jinja_spec = {"macro": "prune_predicate", "alias": spec.alias, "max_values": spec.max_values,
                  "fallback": spec.fallback}  # fmt: skip
    jinja_collected = {"kept": collected.kept, "tuples": tuples, "min": bounds[0], "max": bounds[1],
                       "sources": [vars(c) for c in collected.sources]}  # fmt: skip
    theirs = _jinja_or_error(lambda: r.call("_sj_prune_group_predicate", jinja_spec,
                                            [_jinja_source(s) for s in sources], jinja_collected))  # fmt: skip
    if ours == "<error>" or theirs == "<error>":
        assert ours == theirs
        return
    conjuncts, empty, line = ours
    assert [(c.sql, list(c.columns), c.subquery) for c in conjuncts] == [
        (c["sql"], c["columns"], bool(c.get("subquery"))) for c in theirs["conjuncts"]
    ]
    assert (empty, line) == (theirs["empty"], theirs["line"])


# -- the prune cache's key set --------------------------------------------------------------------


@SETTINGS
@given(
    relation=st.sampled_from(["Analytics.`Dates`", "s.t", "(\nselect K from T where x = 'é'\n)"]),
    alias=st.sampled_from(["sj_small", "d"]),
    filter_=st.one_of(st.none(), HOSTILE),
    columns=st.lists(st.tuples(st.sampled_from(["k", "K", "date_key", "Zed", "a_b"]), spark_types()), min_size=1,
                     max_size=4),
)  # fmt: skip
def test_key_set_equals_the_macros(
    r: Renderer,
    relation: str,
    alias: str,
    filter_: str | None,
    columns: list[tuple[str, str]],
) -> None:
    if "_sj_prune_key_set" not in r.package.sources:
        pytest.skip("the macros have no _sj_prune_key_set (macros/pruning/prune_cache.sql) to compare with")
    r.context["local_md5"] = lambda text: hashlib.md5(str(text).encode("utf-8")).hexdigest()
    ours = key_set(relation, alias, filter_, [Column(n, t) for n, t in columns])
    theirs = r.call(
        "_sj_prune_key_set",
        relation,
        alias,
        filter_,
        [{"name": n, "type": t} for n, t in columns],
    )
    assert (ours.text, ours.id) == (theirs["text"], theirs["id"])
    assert [(c.name, c.type) for c in ours.columns] == [(c["name"], c["type"]) for c in theirs["columns"]]

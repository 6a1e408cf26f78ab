"""The Python twins of the macros' text rules (skewjoin.literals), held equal to the macros over
generated inputs (hypothesis), no Spark: type normalization and kind (``_sj_normalize_type``,
``_sj_type_kind``), string literals (``_sj_quote_string``), identifiers (``_sj_ident``) and the
query-text rule (``_sj_is_query_text``); a key value as a config's `when` carries it
(``_sj_config_literal``); what dbt changes in a properties file
(``_sj_changed_in_yaml``, skewjoin.config_text). The profile writes configs and queries with them; the
macros own the rules."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skewjoin.config_text import changed_by_dbt_in_yaml
from skewjoin.errors import PlanError
from skewjoin.literals import (
    declarable,
    is_complex_type,
    is_query_text,
    normalize_type,
    quote_spark_string,
    spark_ident,
    spark_literal,
    type_kind,
)

from .harness import Renderer

SETTINGS = settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

BASE_TYPES = [
    "tinyint", "smallint", "int", "integer", "bigint", "long", "short", "byte", "float", "real", "double", "decimal",
    "dec", "numeric", "string", "boolean", "bool", "date", "timestamp", "timestamp_ltz", "timestamp_ntz", "binary",
    "array<int>", "map<string,int>", "string collate utf8_lcase", "string collate UTF8_BINARY", "interval day",
    "variant", "void",
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
    st.sampled_from(
        list("ab'\"\\$ {}\n\r\t\x00\x1b\x85\u2028\u2029-/*;%_:é✓🚀日")
        + ["${", "\\u0024", "*/", "/*", "--", "{{", "{%", "{#"]
    ),
    max_size=10,
).map("".join)


@pytest.fixture(scope="module")
def r(pkg: Any) -> Renderer:
    return Renderer({}, pkg=pkg)


@SETTINGS
@given(t=spark_types())
def test_normalize_type_and_kind(r: Renderer, t: str) -> None:
    assert normalize_type(t) == r.call("_sj_normalize_type", t)
    assert type_kind(t) == r.call("_sj_type_kind", t)


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
    """One rule tells a query from a table name: the profile's, the test fixtures' and the macros'."""
    assert is_query_text(text) == r.call("_sj_is_query_text", text)


@SETTINGS
@given(
    t=st.sampled_from(["double", "float", "decimal(10,2)", "decimal(38,18)", "decimal(5,1)"]),
    text=st.one_of(
        st.sampled_from(["NaN", "nan", "Infinity", "-Infinity", "+inf", "inf", "-INF", "1.5", "-0.0", "1e3", ".5",
                         "1.", "1e", "e3", "", " 2 ", "NaNx", "infinit", "0x1F", "1_000", "1.15", "1.10", "1.1e0",
                         "1e300", "-1e300", "3.4e38", "3.5e38", "1e308", "1e309", "1e-50", "0e-50", "1e-330",
                         "-0.000", "1.4e-45", "1.4E-45", "1e-46", "7.1e-46", "5e-324", "3.4028235E38",
                         "3.4028236E38", "1.7976931348623157E308", "1.7976931348623159E308"]),
        st.text(alphabet="0123456789.eE+-naifNItyx ", max_size=8),
    ),
)
def test_declarable(r: Renderer, t: str, text: str) -> None:
    """The profile writes a hot key into the config only where skew_join takes it: a number, or NaN and the
    infinities of a float or double (the profile left those to the shuffle join, saying skew_join took none)."""
    assert declarable(text, t) == (r.call("_sj_literal", text, t) is not None)


@pytest.mark.parametrize(
    ("key", "yaml"),
    [
        ("EU", True),
        ("{{ var('x') }}", False),
        ("{# c #}", False),
        ("{% if %}", False),
        ("cr\rx", False),
        ("a { b } %", True),
        ("back\\rslash", True),
    ],
)
def test_auto_records_no_yaml_form_of_a_key_dbt_would_render(r: Renderer, key: str, yaml: bool) -> None:
    """'auto''s record offers the planned specification in YAML only where dbt reads it back as written (dbt
    renders a properties file's values as Jinja); the Jinja form always."""
    j = {"keys": [{"type": "string"}]}
    lines = r.call("_sj_pin_lines", {"hot_keys": {"a": [key]}}, j)
    assert lines[0].startswith("auto: planned specification; to pin it")
    assert lines[1].startswith("auto: the same specification in YAML") is yaml
    assert lines[1].startswith("auto: no YAML form of this specification") is not yaml


YAML_TEXT = st.lists(
    st.sampled_from(["{", "}", "%", "#", "\r", "\\", "r", "\\r", "a", " ", "\n", "{{", "{%", "{#"]), max_size=6
).map("".join)
YAML_SCALAR = st.one_of(YAML_TEXT, st.integers(-3, 3), st.none(), st.booleans())


@SETTINGS
@given(
    config=st.recursive(
        YAML_SCALAR,
        lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(YAML_TEXT, inner, max_size=3)),
        max_leaves=8,
    )
)
@example(config={"hot_keys": {"a": ["back\\rslash"]}})
@example(config={"hot_keys": {"a": ["cr\rx"]}})
@example(config={"hot_keys": {"a{#": ["x"]}})
def test_changed_in_yaml(r: Renderer, config: Any) -> None:
    """One rule says which specifications have no YAML form (dbt renders a properties file's values as Jinja):
    the profile's report and 'auto''s record; a backslash before an r is not a carriage return."""
    assert bool(changed_by_dbt_in_yaml({"v": config})) == r.call("_sj_changed_in_yaml", {"v": config})


NUMBER_TEXT = st.builds(
    lambda sign, whole, frac, exp: sign + whole + frac + exp,
    st.sampled_from(["", "-", "+"]),
    st.text("0123456789", min_size=1, max_size=12),
    st.one_of(st.just(""), st.text("0123456789", max_size=30).map(lambda d: "." + d)),
    st.one_of(st.just(""), st.integers(-40, 40).map(lambda e: f"E{e}"), st.integers(-9, 9).map(lambda e: f"e{e:+d}")),
)


@SETTINGS
@given(
    case=st.one_of(
        st.tuples(st.sampled_from(["decimal(30,25)", "decimal(38,0)", "decimal(10,2)", "decimal(4,2)", "decimal(2,2)"]),
                  NUMBER_TEXT),
        st.tuples(st.sampled_from(["int", "bigint"]), st.integers(-(2**40), 2**40)),
        st.tuples(st.sampled_from(["string", "date", "timestamp", "double"]), HOSTILE),
        st.tuples(st.just("boolean"), st.booleans()),
        st.tuples(
            st.sampled_from(["date", "timestamp"]),
            st.builds(
                lambda y, m, d, tail: f"{y}-{m}-{d}{tail}",
                st.sampled_from(["2024", "2023", "1900", "2000", "0001", "+10000", "-0004", "24"]),
                st.integers(0, 13),
                st.integers(0, 32),
                st.one_of(
                    st.sampled_from(["", " ", "T10:00", " x", "x", " not a time"]),
                    st.builds(
                        lambda sep, h, rest: f"{sep}{h}{rest}",
                        st.sampled_from([" ", "T"]),
                        st.integers(0, 25),
                        st.sampled_from(["", ":00", ":60", ":59:59", ":00:60", ":5:7.123", ":00:00Z", ":00:00 UTC"]),
                    ),
                ),
            ),
        ),
    )
)
@example(case=("decimal(30,25)", "1.234567890123456789E-7"))
@example(case=("decimal(38,0)", "-5e2"))
@example(case=("decimal(10,2)", "123456789012.5"))
@example(case=("decimal(4,2)", "99.995"))
@example(case=("decimal(2,2)", "0.999"))
@example(case=("decimal(2,2)", "0.994"))
@example(case=("decimal(30,25)", "1e-999999999"))
@example(case=("int", 3000000000))
@example(case=("date", "not a date"))
@example(case=("date", "2023-02-29"))
@example(case=("timestamp", "2023-02-29 10:00:00"))
@example(case=("timestamp", "2024-01-01 24:00:00"))
@example(case=("timestamp", "2024-02-29 23:59:59.999"))
@example(case=("timestamp", "T10:00:00"))
@example(case=("timestamp", "not a time"))
@example(case=("timestamp", "10:61"))
@example(case=("timestamp", "23:59:59.5Z"))
def test_config_literal(r: Renderer, case: tuple[str, Any]) -> None:
    """A key value as a config's `when` carries it: the profile writes it (spark_literal) as 'auto' does
    (_sj_config_literal); a decimal never with an exponent, which Spark would read as a double."""
    t, value = case
    try:
        python = spark_literal(value, t)
    except PlanError:
        python = None
    assert python == r.call("_sj_config_literal", value, t)
    if python is not None and t.startswith("decimal"):
        assert "e" not in python.lower()


@SETTINGS
@given(t=st.one_of(st.sampled_from(["array<bigint>", " ARRAY<int>", "map<string,int>", "struct<x:int>", "variant",
                                    "object", "int", "string", "arrays", "decimal(10,2)", "mapping"]),
                   st.text("arymapstrucvinobjetg<> ", max_size=10)))
def test_is_complex_type(r: Renderer, t: str) -> None:
    """One rule for a key type no literal writes: the profile's and the macros'."""
    assert is_complex_type(t) == r.call("_sj_is_complex_type", t)

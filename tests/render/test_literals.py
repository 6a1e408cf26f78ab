"""Literals built from config or data (no Spark): each value becomes exactly
one Spark SQL literal that reads back as the value, whatever it holds, and
a value with no exact literal form is refused (declared) or left in the
shuffle join (found in the data).

A string is written without backslash escapes (plain literals and chr(n)
in concat(), STRING_EXPR below), so Spark reads it alike in either literal
mode; that Spark really reads the values back, with
spark.sql.parser.escapedStringLiterals off and on, is checked on Spark by
test_hot_keys.py::test_every_hostile_string_round_trips_as_one_literal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from .harness import Renderer, Table, decision_record, strip_record

HOSTILE = [
    "it's", "back\\slash", "trailing\\", "\\' or 1=1 --", "--comment", "/*open", "close*/", "${var}",
    "${spark.sql.shuffle.partitions}", "{{ jinja }}", "{% raw %}", "new\nline", "cr\rhere", "tab\there", 'dq"x',
    "nul\x00byte", "ünïcödé ✓ 日本", "emoji 🚀", "", "x" * 3000, "'; drop table t; --", "\\u0024{x}",
]  # fmt: skip


#: What the package writes for a string (_sj_quote_string): one literal, or plain runs and chr(n) in
#: concat(). No backslash in any of its literals, so Spark reads the same text with
#: spark.sql.parser.escapedStringLiterals on (backslashes kept as written) or off (read as escapes).
_PART = r"'[^'\\]*'|chr\([0-9]+\)"
STRING_EXPR = re.compile(rf"concat\((?:{_PART})(?:, (?:{_PART}))+\)|{_PART}", re.S)


def read_string(expr: str) -> str:
    """The text Spark reads from a string expression the package writes (STRING_EXPR), in either mode."""
    assert STRING_EXPR.fullmatch(expr), expr
    parts = re.findall(_PART, expr.removeprefix("concat(").removesuffix(")") if expr.startswith("concat(") else expr)
    return "".join(chr(int(p[4:-1])) if p.startswith("chr(") else p[1:-1] for p in parts)


def hot_key_literals(sql: str, alias: str, column: str) -> list[str]:
    """The literals of the hot-key filter `coalesce(<alias>.<column> in (...), false)` (a string column's
    `rtrim(<alias>.<column>)`)."""
    body = strip_record(sql)
    m = re.search(rf"coalesce\((?:rtrim\({alias}\.{column}\)|{alias}\.{column}) in \(", body)
    assert m, f"no hot-key filter of {alias}.{column}"
    start = m.end()
    tokens, pos = [], start
    while True:
        trimmed = body.startswith("rtrim(", pos)
        pos += len("rtrim(") if trimmed else 0
        m = STRING_EXPR.match(body, pos)
        assert m, f"not a string the package writes at {body[pos:pos + 80]!r}"
        tokens.append(m.group(0))
        pos = m.end() + (1 if trimmed else 0)
        if body.startswith("), false)", pos):
            return tokens
        assert body.startswith(", ", pos), f"unexpected text between literals: {body[pos:pos + 80]!r}"
        pos += 2


def test_every_hostile_string_is_one_literal_that_reads_back(renderer: Callable[..., Renderer]) -> None:
    r = renderer(extra_tables={"l": Table([("k", "string"), ("id", "int")]), "r": Table([("k", "string")])})
    values = ", ".join(_jinja_string(v) for v in HOSTILE)
    sql = r.render("{{ skewjoin.skew_join('l', 'r', on=['k'], columns=['a.id'], skew={'hot_keys': [" + values + "]}) }}")
    literals = hot_key_literals(sql, "a", "k")
    assert [read_string(lit) for lit in literals] == [v.rstrip(" ") for v in HOSTILE]
    for lit in literals:
        assert "${" not in lit and "\n" not in lit and "\r" not in lit and "\x00" not in lit and "\\" not in lit, lit
    # no ${ anywhere in the statement (Spark substitutes variables in comments too),
    # and the decision record is one comment whatever the values hold
    assert "${" not in sql
    record = decision_record(sql, "skew_join")
    assert sql.startswith(record) and record.count("*/") == 1
    # the query keeps its shape: one statement
    assert ";" not in STRING_EXPR.sub("''", strip_record(sql))


def _jinja_string(value: str) -> str:
    """A Jinja string literal for any value (\\uXXXX for everything unusual)."""
    out = []
    for ch in value:
        out.append(ch if ch.isalnum() or ch in " .,-_:/" else f"\\u{ord(ch):04x}" if ord(ch) < 0x10000 else ch)
    return '"' + "".join(out) + '"'


TYPED = [
    # key type, declared value, literal
    ("int", 7, "cast(7 as int)"),
    ("int", "-12", "cast(-12 as int)"),
    ("bigint", 4294967303, "cast(4294967303 as bigint)"),
    ("decimal(18,4)", "0.25", "cast(0.25 as decimal(18,4))"),
    ("double", 1.5, "cast(1.5 as double)"),
    ("double", "1e3", "cast(1e3 as double)"),
    # NaN and the infinities of a double: Spark joins NaN with NaN, so a declared NaN is a hot key
    ("double", "NaN", "cast('NaN' as double)"),
    ("double", "-inf", "cast('-Infinity' as double)"),
    ("float", "Infinity", "cast('Infinity' as float)"),
    ("boolean", "TRUE", "true"),
    ("date", "2026-01-02", "cast('2026-01-02' as date)"),
    # Spark reads a date up to a space or T: the rest is one literal with it
    ("date", "2026-01-02 ' or '1'='1", "cast(concat('2026-01-02 ', chr(39), ' or ', chr(39), '1', chr(39), '=', chr(39), '1') as date)"),
    ("timestamp", "2026-01-01 01:00:00", "cast('2026-01-01 01:00:00' as timestamp)"),
]


@pytest.mark.parametrize(("key_type", "value", "literal"), TYPED, ids=[f"{t[0]}-{t[1]}" for t in TYPED])
def test_typed_literals(renderer: Callable[..., Renderer], key_type: str, value: object, literal: str) -> None:
    r = renderer(extra_tables={"l": Table([("k", key_type)]), "r": Table([("k", key_type)])})
    shown = repr(value) if isinstance(value, str) else str(value)
    sql = r.render("{{ skewjoin.skew_join('l', 'r', on=['k'], skew={'hot_keys': [" + shown + "]}) }}")
    assert f"coalesce(a.k in ({literal}), false)" in sql
    assert f"coalesce(b.k in ({literal}), false)" in sql


REFUSED = [
    ("int", "'NaN'"), ("decimal(10,2)", "'Infinity'"), ("int", "1.5"), ("int", "'0) or (1=1'"),
    ("bigint", "'1e3'"), ("decimal(10,2)", "'1,5'"), ("boolean", "'yes'"), ("int", "true"),
]  # fmt: skip


@pytest.mark.parametrize(("key_type", "value"), REFUSED, ids=[f"{t[0]}-{t[1]}" for t in REFUSED])
def test_values_without_an_exact_literal_are_refused(renderer: Callable[..., Renderer], key_type: str, value: str) -> None:
    r = renderer(extra_tables={"l": Table([("k", key_type)]), "r": Table([("k", key_type)])})
    message = r.compile_error("{{ skewjoin.skew_join('l', 'r', on=['k'], skew={'hot_keys': [" + value + "]}) }}")
    assert f"is not a valid {key_type} (the type the keys are compared in)" in message
    assert "argument `skew_join.hot_keys`" in message


def test_nan_found_by_auto_stays_in_the_shuffle_join(renderer: Callable[..., Renderer]) -> None:
    """The heaviest value of a double key is NaN: no literal can name it, so
    its rows stay in the shuffle join (which matches NaN to NaN); 1.5 is hot."""
    nan = float("nan")
    rows = [(i, nan) for i in range(70)] + [(i, 1.5) for i in range(70, 90)] + [(i, float(i)) for i in range(90, 100)]
    r = renderer(extra_tables={"l": Table([("id", "bigint"), ("k", "double")], rows=rows), "r": Table([("rid", "int"), ("k", "double")])})
    sql = r.render(
        "{{ skewjoin.skew_join('l', 'r', on=['k'], join_type='left', columns=['a.id', 'b.rid'], "
        "skew={'hot_keys': 'auto', 'hot_keys_options': {'min_share': 0.1}}) }}"
    )
    record = decision_record(sql, "skew_join")
    assert "NaN 70.0%; 1.5 20.0%" in record
    assert "hot branch for keys of a (1.5)" in record
    assert "coalesce(a.k in (cast(1.5 as double)), false)" in sql
    assert "nan" not in strip_record(sql).lower()


def test_dollar_brace_is_never_written(renderer: Callable[..., Renderer]) -> None:
    """Spark substitutes ${name} before parsing, in literals and comments:
    literals write the $ as chr(36), the record as `$ {`."""
    r = renderer(extra_tables={"l": Table([("k", "string")]), "r": Table([("k", "string")])})
    sql = r.render("{{ skewjoin.skew_join('l', 'r', on=['k'], skew={'hot_keys': ['x${spark.sql.shuffle.partitions}']}) }}")
    assert "${" not in sql
    assert "concat('x', chr(36), '{spark.sql.shuffle.partitions}')" in sql
    assert "hot keys of a (declared): x$ {spark.sql.shuffle.partitions}" in sql


def test_identifiers_that_need_quoting_are_quoted(renderer: Callable[..., Renderer]) -> None:
    r = renderer(extra_tables={"l": Table([("select", "int"), ("my col", "int"), ("a`b", "int")]), "r": Table([("select", "int"), ("v", "int")])})
    sql = r.render("{{ skewjoin.skew_join('l', 'r', on=['select']) }}")
    body = strip_record(sql)
    assert "a.`select`" in body and "a.`my col`" in body and "a.`a``b`" in body
    assert "on a.`select` = b.`select`" in body


@pytest.mark.parametrize(
    ("text", "literals"),
    [
        ("select 'a' as v -- it's a comment\n, 'b' as w", ["'a'", "'b'"]),
        ("select /* don't */ 'x\ny' as v", ["'x\ny'"]),
        ("select `it's` as v, 'c' as w", ["'c'"]),
        ("select '-- not a comment' as v, 'd'", ["'-- not a comment'", "'d'"]),
        ("select 'it\\'s' as v", ["'it\\'s'"]),
    ],
    ids=["line_comment", "block_comment", "backticks", "dashes_in_a_literal", "escaped_quote"],
)
def test_a_quote_in_a_comment_or_identifier_opens_no_literal(
    renderer: Callable[..., Renderer], text: str, literals: list[str]
) -> None:
    """User SQL is split around its string literals (to indent it, to read its references); a quote inside
    a comment or a backticked identifier is not one, so the literals after it keep their value when the
    query is indented into a CTE."""
    r = renderer()
    parts = r.render("{{ tojson(skewjoin._sj_split_literals(" + repr(text) + ")) }}")
    split = json.loads(parts)
    assert split[1::2] == literals and "".join(split) == text
    indented = r.render("{{ skewjoin._sj_indent(" + repr(text) + ", 4) }}")
    for literal in literals:
        assert literal in indented

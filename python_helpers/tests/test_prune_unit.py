"""`skewjoin prune` without Spark: the request's checks, the type and literal rules, the key sets
of the prune cache, and the command's exit code for a bad spec. (That the predicate equals the
macro's on real Spark: integration_tests/pytests/test_prune_helper.py; the rules against the
Jinja macros over generated inputs: integration_tests/unit/test_prune_parity.py.)"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from skewjoin.cli import main
from skewjoin.errors import PruneSpecError
from skewjoin.literals import normalize_type, spark_ident
from skewjoin.prune_cache import cache_fill_sql, check_cache_run, check_cache_table, default_cache_table, key_set
from skewjoin.prune_spec import load_spec, parse_request, parse_requests
from skewjoin.pruning import Column, Conjunct, assemble
from skewjoin.sql_rules import common_type, indent, prune_literal, prune_target_type, sql_literal

DATES = {"relation": "analytics.dates", "on": ["date_key"]}


def _request(**overrides: Any) -> dict[str, Any]:
    return {"name": "req", "big": "analytics.sales", "big_alias": "f", "small": [DATES], **overrides}


# -- the request ------------------------------------------------------------------------------

SPEC_ERRORS = [
    ("left_join", {"join_type": "left"}, "join_type",
     "refused: the join `big left join analytics.dates` preserves the big table"),
    ("full_join", {"join_type": "full outer"}, "join_type", "a full join keeps every big row"),
    ("anti_per_entry", {"small": [{**DATES, "join_type": "anti"}]}, "small[0].join_type",
     "a left anti join returns exactly the big rows that match nothing"),
    ("unknown_join_type", {"join_type": "cross"}, "join_type", "unknown join type 'cross'"),
    ("join_type_typo", {"join_type": "innr"}, "join_type", "(did you mean 'inner'?)"),
    ("small_not_a_list", {"small": DATES}, "small", "expected a non-empty list of small relations"),
    ("small_empty", {"small": []}, "small", "expected a non-empty list"),
    ("entry_not_a_mapping", {"small": ["analytics.dates"]}, "small[0]", "each small relation is a mapping"),
    ("missing_on", {"small": [{"relation": "analytics.dates"}]}, "small[0]", "relation and on are required"),
    ("unknown_key", {"small": [{**DATES, "filters": "x = 1"}]}, "small[0]",
     "unknown key 'filters' (did you mean 'filter'?)"),
    ("bad_on", {"small": [{"relation": "analytics.dates", "on": [["date_key"]]}]}, "small[0].on",
     "each key is a column name or a [big_column, small_column] pair"),
    ("on_not_a_list", {"small": [{"relation": "analytics.dates", "on": {"a": "b"}}]}, "small[0].on",
     "expected a non-empty list of column names"),
    ("big_column_twice", {"small": [{"relation": "analytics.dates", "on": ["date_key", ["DATE_KEY", "year"]]}]},
     "small[0].on", "big column 'DATE_KEY' appears twice"),
    ("filter_statement", {"small": [{**DATES, "filter": "year = 2026; drop table x"}]}, "small[0].filter",
     "may not end the statement"),
    ("filter_comment", {"small": [{**DATES, "filter": "year = 2026 -- x"}]}, "small[0].filter", "contains `--`"),
    ("filter_nondeterministic", {"small": [{**DATES, "filter": "rand() < 0.5"}]}, "small[0].filter",
     "non-deterministic"),
    ("filter_niladic", {"small": [{**DATES, "filter": "d < current_date"}]}, "small[0].filter", "current_date()"),
    ("filter_subquery", {"small": [{**DATES, "filter": "x in (select 1)"}]}, "small[0].filter", "subquery"),
    ("filter_unbalanced", {"small": [{**DATES, "filter": "(year = 2026"}]}, "small[0].filter", "unbalanced"),
    ("filter_unterminated", {"small": [{**DATES, "filter": "region = 'EU"}]}, "small[0].filter", "unterminated"),
    ("filter_empty", {"small": [{**DATES, "filter": " "}]}, "small[0].filter", "expected a non-empty SQL expression"),
    ("small_alias_is_big_alias", {"small": [{**DATES, "alias": "F"}]}, "small[0].alias",
     "different from the big alias 'f'"),
    ("small_alias_sj", {"small": [{**DATES, "alias": "sj_x"}]}, "small[0].alias", "not starting with sj_"),
    ("bad_big_alias", {"big_alias": "f.x"}, "big_alias", "an alias is a plain identifier"),
    ("bad_relation", {"small": [{"relation": 42, "on": ["date_key"]}]}, "small[0].relation",
     "expected a table name or a SELECT statement"),
    ("bad_relation_text", {"small": [{"relation": "dates; drop", "on": ["date_key"]}]}, "small[0].relation",
     "expected a table name"),
    ("bad_big", {"big": ""}, "big", "expected a table name or a SELECT statement"),
    ("bad_max_values", {"max_values": 0}, "max_values", "a whole number >= 1 is expected; got 0"),
    ("max_values_bool", {"max_values": True}, "max_values", "a whole number >= 1 is expected"),
    ("max_values_float", {"max_values": 1.5}, "max_values", "got 1.5"),
    ("bad_fallback", {"fallback": "bloom"}, "fallback", "'range' (between min and max), 'semi_join'"),
    ("fallback_typo", {"fallback": "rnage"}, "fallback", "(did you mean 'range'?)"),
    ("unknown_request_key", {"max_value": 3}, "request", "unknown key 'max_value' (did you mean 'max_values'?)"),
]  # fmt: skip


@pytest.mark.parametrize(("overrides", "argument", "expected"), [c[1:] for c in SPEC_ERRORS],
                         ids=[c[0] for c in SPEC_ERRORS])  # fmt: skip
def test_a_bad_request_names_the_request_argument_and_right_form(
    overrides: dict[str, Any], argument: str, expected: str
) -> None:
    with pytest.raises(PruneSpecError) as raised:
        parse_request(_request(**overrides))
    message = str(raised.value)
    assert message.startswith(f"skewjoin prune, request 'req', argument `{argument}`: "), message
    assert expected in message, message
    assert "\n  Right form, for example: " in message, message


def test_requests_without_a_name_are_named_by_position() -> None:
    with pytest.raises(PruneSpecError, match=r"request 'requests\[1\]', argument `big`"):
        parse_requests([_request(), {"big": "a b", "small": [DATES]}])
    with pytest.raises(PruneSpecError, match="one request .* or a non-empty list"):
        parse_requests([])


def test_a_good_request_with_its_defaults() -> None:
    spec = parse_request(
        _request(
            big_alias=None,
            small=[
                {"relation": " analytics.dates ", "on": "date_key", "filter": "year = 2026"},
                {"relation": "\n  select d as k from t where x = ';'  ", "alias": "q", "on": [["date_key", "k"]],
                 "join_type": "LEFT   SEMI join"},
            ],
            join_type="right outer",
        )
    )  # fmt: skip
    assert (spec.alias, spec.max_values, spec.fallback, spec.big_is_table) == (None, 1000, "range", True)
    first, second = spec.sources
    assert (first.from_text, first.label, first.alias, first.pairs, first.join_type) == (
        "analytics.dates", "analytics.dates", "sj_small", (("date_key", "date_key"),), "right",
    )  # fmt: skip
    assert second.from_text == "(\nselect d as k from t where x = ';'\n)" and second.label == "a query"
    assert second.join_type == "left semi" and second.pairs == (("date_key", "k"),)
    assert parse_request(_request(big_alias="  ")).alias is None
    query_big = parse_request(_request(big="-- the sales\nwith s as (select 1) select * from s"))
    assert not query_big.big_is_table and query_big.big_from.startswith("(\n-- the sales")


def test_yaml_keeps_on_a_key_and_json_works(tmp_path: Path) -> None:
    yml = tmp_path / "spec.yml"
    yml.write_text("big: analytics.sales\nbig_alias: f\nsmall:\n  - relation: analytics.dates\n    on: [date_key]\n"
                   "    filter: flag = yes\n")  # fmt: skip
    (spec,) = load_spec(yml)
    assert spec.sources[0].pairs == (("date_key", "date_key"),) and spec.sources[0].filter == "flag = yes"
    js = tmp_path / "spec.json"
    js.write_text('[{"name": "a", "big": "s.t", "big_alias": null, "small": [{"relation": "s.d", "on": ["k"]}]}]')
    assert load_spec(js)[0].name == "a"
    bad = tmp_path / "bad.yml"
    bad.write_text("big: [unclosed\n")
    with pytest.raises(PruneSpecError, match="is not valid YAML"):
        load_spec(bad)
    with pytest.raises(PruneSpecError, match="cannot read the spec"):
        load_spec(tmp_path / "missing.yml")


def test_the_command_exits_2_on_a_bad_spec_before_starting_spark(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yml"
    spec.write_text("name: daily\nbig: analytics.sales\nbig_alias: f\njoin_type: left\nsmall: [{relation: "
                    "analytics.dates, on: [date_key]}]\n")  # fmt: skip
    result = CliRunner().invoke(main, ["prune", "--spec", str(spec), "--thrift", "127.0.0.1:1", "-q"])
    assert result.exit_code == 2, result.output
    assert "skewjoin prune, request 'daily', argument `join_type`: refused" in result.stderr
    bad_run = CliRunner().invoke(main, ["prune", "--spec", str(tmp_path / "none.yml"), "--cache-run", "x"])
    assert bad_run.exit_code == 2
    good = tmp_path / "good.yml"
    good.write_text("big: analytics.sales\nbig_alias: f\nsmall: [{relation: analytics.dates, on: [date_key]}]\n")
    for args, expected in (
        (["--cache-run", "a b"], "--cache-run: expected a run name"),
        (["--cache-run", "r", "--cache-table", "nodots"], "--cache-table: expected a table name schema.table"),
        (["--cache-table", "a.b"], "--cache-table needs --cache-run"),
    ):
        result = CliRunner().invoke(main, ["prune", "--spec", str(good), "--thrift", "127.0.0.1:1", "-q", *args])
        assert result.exit_code == 2 and expected in result.stderr, result.output


def test_help_shows_the_request_format() -> None:
    result = CliRunner().invoke(main, ["prune", "--help"])
    assert result.exit_code == 0
    for text in ("--spec FILE", "big_alias: f", "on: [date_key]", "--cache-run RUN", "--thrift HOST:PORT", "--json"):
        assert text in result.output, text


# -- types and literals -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [("INT", "int"), ("Integer", "int"), ("long", "bigint"), (" Decimal( 10 , 2 ) ", "decimal(10,2)"),
     ("numeric(5)", "decimal(5,0)"), ("dec", "decimal(10,0)"), ("timestamp_ltz", "timestamp"),
     ("varchar( 10 )", "varchar(10)"), ("array< int >", "array< int >"), ("TIMESTAMP_NTZ", "timestamp_ntz")],
)  # fmt: skip
def test_normalize_type(raw: str, normalized: str) -> None:
    assert normalize_type(raw) == normalized


@pytest.mark.parametrize(
    ("left", "right", "ansi", "common"),
    [("int", "bigint", True, "bigint"), ("tinyint", "smallint", False, "smallint"),
     ("int", "decimal(10,2)", True, "decimal(12,2)"), ("bigint", "decimal(38,10)", True, "decimal(38,10)"),
     ("int", "decimal(38,30)", True, "decimal(38,28)"),
     ("decimal(18,4)", "decimal(10,2)", True, "decimal(18,4)"), ("int", "float", False, "float"),
     ("int", "float", True, "double"), ("decimal(5,2)", "float", False, "double"),
     ("date", "timestamp", True, "timestamp"),
     ("string", "int", True, "bigint"), ("string", "int", False, "int"), ("string", "double", False, "double"),
     ("string", "decimal(10,2)", True, "double"), ("string", "decimal(10,2)", False, None),
     ("varchar(3)", "char(5)", True, "string"), ("string", "date", True, "date"), ("boolean", "int", True, None),
     ("string collate utf8_lcase", "string", True, None), ("timestamp_ntz", "timestamp_ntz", True, "timestamp_ntz")],
)  # fmt: skip
def test_common_type(left: str, right: str, ansi: bool, common: str | None) -> None:
    assert common_type(left, right, ansi) == common
    assert common_type(right, left, ansi) == common


@pytest.mark.parametrize(
    ("big", "common", "target"),
    [("int", "bigint", "int"), ("decimal(18,4)", "decimal(18,4)", "decimal(18,4)"), ("string", "string", "string"),
     ("varchar(3)", "string", "string"), ("float", "double", "float"), ("date", "timestamp", "date"),
     ("string", "bigint", None), ("int", "double", None), ("timestamp", "timestamp", "timestamp")],
)  # fmt: skip
def test_prune_target_type(big: str, common: str, target: str | None) -> None:
    assert prune_target_type(big, common) == target


@pytest.mark.parametrize(
    ("text", "data_type", "literal"),
    [("42", "int", "cast(42 as int)"), ("-7", "bigint", "cast(-7 as bigint)"),
     ("1.2500", "decimal(18,4)", "cast(1.2500 as decimal(18,4))"), ("1.0E10", "double", "cast(1.0E10 as double)"),
     ("NaN", "double", "cast('NaN' as double)"), ("-Infinity", "float", "cast('-Infinity' as float)"),
     ("true", "boolean", "true"), ("2026-02-01", "date", "cast('2026-02-01' as date)"),
     ("2026-11-01 01:30:00.000000-04:00", "timestamp", "cast('2026-11-01 01:30:00.000000-04:00' as timestamp)"),
     ("it's", "string", "'it\\'s'"), ("${var}", "string", "'\\u0024{var}'"), ("a\nb\\", "string", "'a\\nb\\\\'"),
     ("ünï ✓", "varchar(10)", "'ünï ✓'"), ("x", "timestamp_ntz", "cast('x' as timestamp_ntz)")],
)  # fmt: skip
def test_prune_literal(text: str, data_type: str, literal: str) -> None:
    assert prune_literal(text, data_type) == literal


@pytest.mark.parametrize(("text", "data_type"), [("1.5", "int"), ("1; drop", "bigint"), ("NaN", "decimal(5,2)"),
                                                 ("yes", "boolean"), ("Infinity", "int")])  # fmt: skip
def test_a_value_with_no_literal_is_refused(text: str, data_type: str) -> None:
    assert sql_literal(text, data_type) is None
    with pytest.raises(PruneSpecError, match=re.escape(f"is not a valid {data_type} literal")):
        prune_literal(text, data_type)


def test_identifiers_and_layout() -> None:
    assert [spark_ident(n) for n in ("date_key", "date", "Key", "a b", "x`y")] == [
        "date_key", "`date`", "`Key`", "`a b`", "`x``y`",
    ]  # fmt: skip
    # as _sj_indent: a line that starts with a string literal is not indented, a literal's text never
    assert indent("a in (\n'x\ny'\n)", 4) == "    a in (\n'x\ny'\n    )"
    assert indent("a in (\n  'x\ny', 1\n)", 4) == "    a in (\n      'x\ny', 1\n    )"
    assert assemble([], False) == "true" and assemble([Conjunct("x", ())], True) == "false"
    assert assemble([Conjunct("a in (1)", ("a",)), Conjunct("b in (\n    select 1\n)", ("b",))], False) == (
        "(\n    a in (1)\n    and b in (\n        select 1\n    )\n)"
    )


# -- the prune cache's key sets ----------------------------------------------------------------


def test_key_set_text_and_id() -> None:
    ks = key_set("Analytics.`Dates`", "d", "year = 2026", [Column("Store_ID", "INTEGER"), Column("date_key", "date"),
                                                            Column("store_id", "bigint")])  # fmt: skip
    text = "skewjoin prune key set 1\nrelation: analytics.dates\nalias: d\nfilter: year = 2026\n" \
           "keys: date_key date, Store_ID int"  # fmt: skip
    assert ks.text == text
    assert ks.id == hashlib.md5(text.encode("utf-8")).hexdigest() and len(ks.id) == 32
    query = key_set("(\nselect K from T\n)", "sj_small", None, [Column("K", "string")])
    assert query.text == "skewjoin prune key set 1\nrelation: (\nselect K from T\n)\nalias: sj_small\nfilter: \n" \
                         "keys: K string"  # fmt: skip
    unicode = key_set("s.t", "a", "name = 'ünï ${x}'", [Column("k", "string")])
    assert unicode.id == hashlib.md5(unicode.text.encode("utf-8")).hexdigest()


def test_cache_fill_sql_is_one_statement_of_three_kinds() -> None:
    ks = key_set("s.t", "a", "name <> 'x${y}'", [Column("ts", "timestamp"), Column("date", "date")])
    sql = cache_fill_sql("s.skewjoin_prune_cache", "run-1", ks, "w1")
    assert sql.startswith("insert overwrite table s.skewjoin_prune_cache partition (sj_run, sj_key_set, sj_writer)\n")
    assert "'w1' as sj_writer" in sql
    assert "array(cast(sj_k0 as string), date_format(sj_k1, 'yyyy-MM-dd HH:mm:ss.SSSSSSxxx'))" in sql
    assert "select distinct a.`date` as sj_k0, a.ts as sj_k1" in sql
    assert "where (name <> 'x${y}')\n        and a.`date` is not null and a.ts is not null" in sql
    assert "(a.`date` is null or a.ts is null)" in sql
    assert "'done' as sj_kind, array('skewjoin prune key set 1\\nrelation: s.t\\nalias: a\\nfilter: name <> " \
           "\\'x\\u0024{y}\\'\\nkeys: date date, ts timestamp')" in sql  # fmt: skip
    assert f"'run-1' as sj_run, '{ks.id}' as sj_key_set" in sql


def test_cache_names() -> None:
    assert check_cache_run("nightly-2026-11-25:01.a_b") and check_cache_table("a.b_c")
    for bad in ("", "a b", "x" * 129, "it's"):
        with pytest.raises(PruneSpecError):
            check_cache_run(bad)
    for bad in ("a", "a.b.c", "`a`.b", "a.b;"):
        with pytest.raises(PruneSpecError):
            check_cache_table(bad)
    assert default_cache_table([parse_request(_request())]) == "analytics.skewjoin_prune_cache"
    with pytest.raises(PruneSpecError, match="names no schema"):
        default_cache_table([parse_request(_request(big="sales"))])

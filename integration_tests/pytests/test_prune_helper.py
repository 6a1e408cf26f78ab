"""`skewjoin prune` (python_helpers: skewjoin.pruning) against the `prune_predicate` macro, on the Thrift server.

For each case over the pruning inputs, the macro's predicate (``dbt compile
--inline`` of ``{{ skewjoin.prune_predicate(...) }}``, its decision record
stripped) and the Python twin's predicate for the same request, on the same
server, are the same string; the decision records agree line for line (what
each small relation gave, the intersections, the partitions counted); and
the partitions the Python side lists as kept, applied as the only filter on
the big table, give exactly the rows of the plain join. A join that keeps
every big row is refused by both. Then the command itself: the report, the
JSON document, and the prune cache it writes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import SCHEMA, inline_compiled_sql
from support import error_text

from skewjoin.cli import main
from skewjoin.config_text import to_jinja
from skewjoin.errors import PruneSpecError
from skewjoin.literals import quote_spark_string
from skewjoin.prune_spec import PruneSpec, parse_request
from skewjoin.pruning import PruneResult, find_column, prune
from skewjoin.spark_backend import ThriftConnection
from skewjoin.sql_rules import cast_expr, comment_text
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject, SparkThrift

pytestmark = pytest.mark.spark

S = SCHEMA
SUFFIX = f"{os.getpid()}"
PARTS = f"{S}.pr_helper_parts_{SUFFIX}"  # made here: two partition columns with hostile values
CACHE = f"{S}.pr_helper_cache_{SUFFIX}"


@dataclass(frozen=True)
class Case:
    """A prune request (as a spec file holds it), and how the macro is called for it."""

    id: str
    request: dict[str, Any]
    #: Jinja source replacing `big` / a small relation's `relation` in the macro call (e.g. ref())
    big_jinja: str | None = None
    relation_jinja: dict[int, str] = field(default_factory=dict)
    #: session settings of both sides for this case
    conf: dict[str, str] = field(default_factory=dict)


def _req(big: str, alias: str | None, small: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return {"big": big, "big_alias": alias, "small": small, **options}


DATES_FEB = {
    "relation": f"{S}.prune_dates",
    "filter": "year = 2026 and month = 2",
    "on": ["date_key"],
}
WEEKEND_FEB = {
    "relation": f"{S}.prune_dates",
    "filter": "month = 2 and is_weekend",
    "on": ["date_key"],
}
HOLIDAY_PAIRS = {
    "relation": f"{S}.prune_promos",
    "filter": "promo_type = 'holiday'",
    "on": ["date_key", "store_id"],
}
EU = "region = 'EU'"
INT_BIGINT_SMALL = (
    f"select rid, k_big from {S}.typed_right where region = 'EU' union all select -1 as rid, 4294967303 as k_big"
)
DOUBLES = (
    "select col1 as k_dbl from values (1.5D), (cast('NaN' as double)), (cast('Infinity' as double)), "
    "(cast('-Infinity' as double)), (cast(null as double)), (1.0E300D), (0.0D), (-0.0D), (7.0D)"
)
CASES = [
    Case("partition_dim_filter_ref", _req(f"{S}.prune_sales", "f", [DATES_FEB]),
         big_jinja="ref('prune_sales')", relation_jinja={0: "ref('prune_dates')"}),
    Case("partition_dim_filter", _req(f"{S}.prune_sales", "f", [DATES_FEB])),
    Case("cascade", _req(f"{S}.prune_sales", "f", [
        {"relation": f"{S}.prune_dates", "filter": "month = 2", "on": ["date_key"]},
        {"relation": f"{S}.prune_promos", "alias": "p", "filter": "p.promo_type = 'holiday'", "on": ["date_key"]},
        {"relation": f"{S}.prune_stores", "filter": EU, "on": ["store_id"]}])),
    Case("empty", _req(f"{S}.prune_sales", "f", [{"relation": f"{S}.prune_dates", "filter": "year = 1999",
                                                  "on": ["date_key"]}])),
    Case("empty_and_other_group", _req(f"{S}.prune_sales", "f", [
        {"relation": f"{S}.prune_stores", "filter": EU, "on": ["store_id"]},
        {"relation": f"{S}.prune_dates", "filter": "year = 1999", "on": ["date_key"]}])),
    Case("flat_in_list", _req(f"{S}.prune_sales_flat", "f", [{"relation": f"{S}.prune_stores", "filter": EU,
                                                              "on": ["store_id"]}])),
    Case("no_filter_no_alias", _req(f"{S}.prune_sales_flat", None, [{"relation": f"{S}.prune_stores",
                                                                    "on": ["store_id"]}])),
    Case("fallback_range", _req(f"{S}.prune_sales_flat", "f", [WEEKEND_FEB], max_values=3, fallback="range")),
    Case("fallback_range_partitioned", _req(f"{S}.prune_sales", "f", [WEEKEND_FEB], max_values=3)),
    Case("fallback_semi_join", _req(f"{S}.prune_sales", "f", [WEEKEND_FEB], max_values=3, fallback="semi_join")),
    Case("fallback_semi_join_two_sources", _req(f"{S}.prune_sales", "f", [
        WEEKEND_FEB, {"relation": f"{S}.prune_promos", "alias": "p", "filter": "p.store_id < 10", "on": ["date_key"]},
    ], max_values=2, fallback="semi_join")),
    Case("fallback_none", _req(f"{S}.prune_sales", "f", [WEEKEND_FEB], max_values=3, fallback="none")),
    Case("multi_key", _req(f"{S}.prune_sales", "f", [HOLIDAY_PAIRS])),
    Case("multi_key_reversed_on", _req(f"{S}.prune_sales", "f", [
        {**HOLIDAY_PAIRS, "on": ["store_id", "date_key"]}])),
    Case("multi_key_range", _req(f"{S}.prune_sales", "f", [HOLIDAY_PAIRS], max_values=2)),
    Case("multi_key_semi_join", _req(f"{S}.prune_sales", "f", [HOLIDAY_PAIRS], max_values=2, fallback="semi_join")),
    Case("right_join", _req(f"{S}.prune_sales", "f", [{"relation": f"{S}.prune_dates", "filter": "month = 3",
                                                       "on": ["date_key"]}], join_type="right")),
    Case("left_semi", _req(f"{S}.prune_sales_flat", "f", [{"relation": f"{S}.prune_stores",
                                                           "filter": "region = 'APAC'", "on": ["store_id"]}],
                           join_type="left semi")),
    Case("hostile_strings", _req(f"{S}.hostile_left", "a", [{"relation": f"{S}.hostile_right",
                                                             "filter": "label not like '%-2'", "on": ["hkey"]}])),
    Case("hostile_strings_all", _req(f"{S}.hostile_left", "a", [{"relation": f"{S}.hostile_keys", "on": ["hkey"]}])),
    Case("case_sensitive_strings", _req(f"{S}.hostile_left", "a", [{
        "relation": "select col1 as hkey from values ('b'), ('B'), ('a'), ('A'), ('é'), ('E'), ('10'), ('9'), (null)",
        "on": ["hkey"]}])),
    Case("date", _req(f"{S}.typed_left", "a", [{"relation": f"{S}.typed_right", "filter": EU,
                                                "on": [["k_date", "k_date"]]}])),
    Case("timestamp", _req(f"{S}.typed_left", "a", [{"relation": f"{S}.typed_right", "filter": EU,
                                                     "on": [["k_ts", "k_ts"]]}])),
    Case("timestamp_new_york", _req(f"{S}.typed_left", "a", [{"relation": f"{S}.typed_right", "filter": EU,
                                                              "on": [["k_ts", "k_ts"]]}]),
         conf={"spark.sql.session.timeZone": "America/New_York"}),
    Case("decimal", _req(f"{S}.typed_left", "a", [{"relation": f"{S}.typed_right", "filter": EU,
                                                   "on": [["k_dec", "k_dec2"]]}])),
    Case("decimal_vs_int", _req(f"{S}.typed_left", "a", [{"relation": f"{S}.typed_right", "filter": EU,
                                                          "on": [["k_dec", "k_int"]]}])),
    Case("int_vs_bigint", _req(f"{S}.typed_left", "a", [{"relation": INT_BIGINT_SMALL, "on": [["k_int", "k_big"]]}])),
    Case("bigint_vs_int", _req(f"{S}.typed_left", "a", [{"relation": f"{S}.typed_right", "filter": EU,
                                                         "on": [["k_big", "k_int"]]}])),
    Case("string_vs_int", _req(f"{S}.typed_left", "a", [{"relation": f"{S}.typed_right", "filter": EU,
                                                         "on": [["k_str", "k_int"]]}])),
    Case("string_vs_int_ansi_off", _req(f"{S}.typed_left", "a", [{"relation": f"{S}.typed_right", "filter": EU,
                                                                  "on": [["k_str", "k_int"]]}]),
         conf={"spark.sql.ansi.enabled": "false"}),
    Case("date_vs_timestamp", _req(f"{S}.typed_left", "a", [{"relation": f"{S}.typed_right", "filter": EU,
                                                             "on": [["k_date", "k_ts"]]}])),
    Case("timestamp_vs_date", _req(f"{S}.typed_left", "a", [{"relation": f"{S}.typed_right", "filter": EU,
                                                             "on": [["k_ts", "k_date"]]}])),
    Case("double_keys_nan_infinity", _req(f"select id, cast(k_int as double) as k_dbl from {S}.typed_left", "a",
                                          [{"relation": DOUBLES, "on": ["k_dbl"]}])),
    Case("int_vs_double_not_pushable", _req(f"{S}.typed_left", "a", [{"relation": DOUBLES,
                                                                       "on": [["k_int", "k_dbl"]]}])),
    Case("boolean_keys", _req(f"{S}.prune_dates", "d", [{"relation": "select true as w union all select null",
                                                         "on": [["is_weekend", "w"]]}])),
    Case("reserved_column_names", _req(f"select id, k_date as `date`, k_int as `Key` from {S}.typed_left", "a", [{
        "relation": f"select k_date as `date`, k_int as `KEY` from {S}.typed_right where region = 'EU'",
        "on": ["date", "key"]}])),
    Case("two_partition_columns", _req(PARTS, "p", [
        {"relation": f"select region, day from {PARTS} where amount > 2", "alias": "s", "on": ["region", "day"]}])),
    Case("two_partition_columns_one_constrained", _req(PARTS, "p", [
        {"relation": f"select region from {PARTS} where amount = 1 or region is null", "on": ["region"]}])),
    Case("partition_and_data_column", _req(PARTS, "p", [
        {"relation": f"select day, amount from {PARTS} where amount in (1, 3)", "on": ["day", "amount"]}])),
]  # fmt: skip

REFUSED = [
    ("left", _req(f"{S}.prune_sales", "f", [DATES_FEB], join_type="left"), "join_type",
     "refused: the join `big left join skewjoin_it.prune_dates` preserves the big table"),
    ("full_outer", _req(f"{S}.prune_sales", "f", [DATES_FEB], join_type="full outer"), "join_type",
     "refused: the join `big full join skewjoin_it.prune_dates` preserves the big table"),
    ("left_anti_per_entry", _req(f"{S}.prune_sales", "f", [{**DATES_FEB, "join_type": "left anti"}]),
     "small[0].join_type", "a left anti join returns exactly the big rows that match nothing"),
]  # fmt: skip


# -- both sides ---------------------------------------------------------------------------------


def macro_call(case: Case) -> str:
    r = case.request
    small = []
    for i, entry in enumerate(r["small"]):
        items = []
        for k, v in entry.items():
            value = case.relation_jinja[i] if k == "relation" and i in case.relation_jinja else to_jinja(v)
            items.append(f"{to_jinja(k)}: {value}")
        small.append("{" + ", ".join(items) + "}")
    big = case.big_jinja or to_jinja(r["big"])
    extra = "".join(f", {k}={to_jinja(r[k])}" for k in ("join_type", "max_values", "fallback") if k in r)
    return f"{{{{ skewjoin.prune_predicate({big}, {to_jinja(r['big_alias'])}, [{', '.join(small)}]{extra}) }}}}"


def _with_conf(sql: str, conf: dict[str, str], defaults: dict[str, str]) -> str:
    before = "".join(f'{{% do run_query("set {k}={v}") %}}' for k, v in conf.items())
    after = "".join(f'{{% do run_query("set {k}={defaults[k]}") %}}' for k in conf)
    return before + sql + after


def split_record(compiled: str) -> tuple[list[str], str]:
    """(record lines, predicate) of what the macro returned."""
    m = re.fullmatch(
        r"/\* skewjoin\.prune_predicate decision record \(model [^)]*\)\n(.*?)\n\*/\n(.*)",
        compiled,
        re.S,
    )
    assert m, f"not a record and a predicate:\n{compiled[:3000]}"
    return [line[2:] for line in m.group(1).split("\n")], m.group(2)


@dataclass
class Sides:
    macro_lines: list[str]
    macro_predicate: str
    result: PruneResult
    spec: PruneSpec


@pytest.fixture(scope="module")
def backend(inputs_built: DbtProject, spark_thrift: SparkThrift) -> Iterator[ThriftConnection]:
    b = ThriftConnection(spark_thrift.host, spark_thrift.port)
    b.sql(f"drop table if exists {PARTS}")
    b.sql(
        f"create table {PARTS} using parquet partitioned by (region, day) as select * from values "
        "(1, 'EU', date '2026-01-01'), (2, 'EU', date '2026-01-02'), (3, 'E/U', date '2026-01-01'), "
        "(4, 'it''s', date '2026-01-03'), (5, 'a=b c%d', date '2026-01-01'), (6, 'ünï #:', date '2026-01-02'), "
        "(7, cast(null as string), date '2026-01-01'), (8, 'EU', cast(null as date)), (1, 'NA', date '2026-01-04'), "
        "(3, 'x\\\\y', date '2026-01-05') as t(amount, region, day)"
    )
    try:
        yield b
    finally:
        b.sql(f"drop table if exists {PARTS}")
        b.sql(f"drop table if exists {CACHE}")
        b.close()


@pytest.fixture(scope="module")
def defaults(backend: ThriftConnection) -> dict[str, str]:
    keys = {k for c in CASES for k in c.conf}
    return {k: backend.get_conf(k) or "" for k in keys}


@pytest.fixture(scope="module")
def both(compile_inline: Callable[..., Any], backend: ThriftConnection, defaults: dict[str, str]
         ) -> Callable[[Case], Sides]:  # fmt: skip
    cache: dict[str, Sides] = {}

    def _run(case: Case) -> Sides:
        if case.id not in cache:
            compiled = inline_compiled_sql(compile_inline(_with_conf(macro_call(case), case.conf, defaults)))
            lines, predicate = split_record(compiled)
            spec = parse_request({"name": case.id, **case.request})
            for k, v in case.conf.items():
                backend.set_conf(k, v)
            try:
                result = prune(backend, spec)
            finally:
                for k in case.conf:
                    backend.set_conf(k, defaults[k])
            cache[case.id] = Sides(lines, predicate, result, spec)
        return cache[case.id]

    return _run


def _partition_counts(lines: list[str]) -> tuple[int, int] | None:
    for line in lines:
        m = re.match(r"partitions: (\d+) in total, (\d+|all|0) (kept|hold keys)", line)
        if m:
            total = int(m.group(1))
            return total, total if m.group(2) == "all" else int(m.group(2))
    return None


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_predicate_and_record_equal_the_macro(both: Callable[[Case], Sides], case: Case) -> None:
    sides = both(case)
    assert sides.result.predicate == sides.macro_predicate
    counts = _partition_counts(sides.macro_lines)
    parts = sides.result.partitions
    if counts is None:
        assert parts is None
    else:
        assert parts is not None and parts.kept_partitions is not None
        assert (parts.total, len(parts.kept_partitions)) == counts
    if case.big_jinja or case.relation_jinja:
        return  # ref() labels the relation by its identifier, a table name by its text: the records differ there
    ours = [comment_text(line) for line in sides.result.lines if not line.startswith("key queries: ")]
    theirs = [line for line in sides.macro_lines if not line.startswith(("key queries: ", "key set "))]
    assert ours == theirs


def test_the_cases_cover_every_branch(both: Callable[[Case], Sides]) -> None:
    """The table exercises what it claims: each fallback, empty sets, narrowing, unfit values, NULLs,
    non-pushable keys, ANSI off, NaN and the infinities, tuples."""
    text = "\n".join(line for c in CASES for line in both(c).macro_lines) + "\n".join(
        both(c).macro_predicate for c in CASES
    )
    for fragment in (
        "fallback range (between", "fallback semi_join (a semi join", "fallback none (no predicate)",
        "predicate false (reads nothing)", "value(s) the big column cannot hold dropped", "row(s) with a NULL key",
        "which is not one-to-one", "try_cast(a.k_str as int) in (", "try_cast(a.k_str as bigint) in (",
        "cast('NaN' as double)", "cast('Infinity' as double)", "cast('-Infinity' as double)", "tuples (<= max_values",
        "intersection of small[0], small[1]", "hold keys of the semi join", "all kept: no predicate on a partition",
        "\\u0024{var}", "a.`date`", "-05:00' as timestamp)", "between cast(",
    ):  # fmt: skip
        assert fragment in text, fragment


PARTITIONED = [c for c in CASES if c.request["big"] in (f"{S}.prune_sales", PARTS)]


@pytest.mark.parametrize("case", PARTITIONED, ids=[c.id for c in PARTITIONED])
def test_kept_partitions_read_the_rows_of_the_plain_join(
    both: Callable[[Case], Sides],
    backend: ThriftConnection,
    inputs_built: DbtProject,
    case: Case,
) -> None:
    """Reading only the kept partitions (and, separately, applying the predicate) changes no row of the join."""
    sides = both(case)
    parts = sides.result.partitions
    assert parts is not None and parts.kept_partitions is not None
    spec = sides.spec
    alias = spec.alias or "sj_big"
    conds = []
    for p in parts.kept_partitions:
        each = []
        for name in parts.columns:
            column = find_column(sides.result.big_columns, name)
            ref = f"{alias}.`{name}`"
            v = p[name.lower()]
            if v is None:
                each.append(f"{ref} is null")
            else:
                each.append(
                    f"{ref} = {cast_expr(quote_spark_string(v), 'string', column.type if column else 'string')}"
                )
        conds.append("(" + " and ".join(each) + ")")
    kept_filter = " or ".join(conds) or "false"

    def join(big_filter: str) -> str:
        sql = f"select {alias}.* from (select * from {spec.big_from} as {alias} where {big_filter}) as {alias}"
        for src in sides.result.sources:
            on = " and ".join(f"{alias}.`{k.big}` = {src.spec.alias}.`{k.small}`" for k in src.keys)
            where = f" where {src.spec.filter}" if src.spec.filter else ""
            small = f"(select * from {src.spec.from_text} as {src.spec.alias}{where}) as {src.spec.alias}"
            sql += f"\n{src.spec.join_type} join {small} on {on}"
        return sql

    plain, kept, predicate = (
        join("true"),
        join(kept_filter),
        join(sides.result.predicate),
    )
    rows = assert_same_rows(inputs_built.conn, kept, plain)
    assert_same_rows(inputs_built.conn, predicate, plain)
    assert rows > 0 or sides.result.empty or case.id == "empty"


@pytest.mark.parametrize(("name", "request_", "argument", "expected"), REFUSED, ids=[r[0] for r in REFUSED])
def test_both_refuse_a_join_that_keeps_every_big_row(
    compile_inline: Callable[..., Any],
    name: str,
    request_: dict[str, Any],
    argument: str,
    expected: str,
) -> None:
    case = Case(name, request_)
    message = error_text(compile_inline("select 1 where " + macro_call(case), expect_failure=True))
    assert f"argument `{argument}`" in message and expected in message, message
    with pytest.raises(PruneSpecError) as raised:
        parse_request({"name": name, **request_})
    ours = str(raised.value)
    assert f"request '{name}', argument `{argument}`" in ours and expected in ours, ours
    rule = "Rule: the big table may be pruned by a small table only when the big side is not preserved"
    assert rule in message and rule in ours


# -- the command -----------------------------------------------------------------------------------


def _invoke(args: list[str]) -> Any:
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    return result


@pytest.fixture(scope="module")
def spec_file(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("prune_cli") / "prune.yml"
    path.write_text(
        f"""# the keys of `on` stay strings (YAML 1.1 would read on: as true)
- name: feb_sales
  big: {S}.prune_sales
  big_alias: f
  small:
    - relation: {S}.prune_dates
      filter: year = 2026 and month = 2
      on: [date_key]
    - {{relation: {S}.prune_stores, filter: "region = 'EU'", on: [store_id]}}
- name: hostile
  big: {S}.hostile_left
  big_alias: a
  small:
    - relation: |
        select hkey from {S}.hostile_right
        where label not like '%-2'
      alias: h
      on: [hkey]
"""
    )
    return path


def test_cli_report_and_json(both: Callable[[Case], Sides], spark_thrift: SparkThrift, spec_file: Any) -> None:
    thrift = f"{spark_thrift.host}:{spark_thrift.port}"
    result = _invoke(["prune", "--spec", str(spec_file), "--thrift", thrift, "-q"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "== feb_sales: prune skewjoin_it.prune_sales as f" in out
    assert "small[0] skewjoin_it.prune_dates (inner join on f.date_key = date_key, filter: year = 2026 and " \
           "month = 2): 28 distinct key(s); 2 row(s) with a NULL key dropped" in out  # fmt: skip
    assert "partitions: 61 in total, 28 kept:" in out and "    date_key=2026-02-01\n" in out
    assert "... and 8 more (--full or --json for all)" in out
    assert "== hostile: prune skewjoin_it.hostile_left as a" in out and "a query (inner join on a.hkey = hkey" in out
    full = _invoke(["prune", "--spec", str(spec_file), "--thrift", thrift, "-q", "--full"]).stdout
    assert "date_key=2026-02-28" in full and "more (--full" not in full

    document = json.loads(_invoke(["prune", "--spec", str(spec_file), "--thrift", thrift, "-q", "--json"]).stdout)
    feb, hostile = document["requests"]
    expected = both(CASES[1]).macro_predicate  # partition_dim_filter: the first conjunct
    assert feb["predicate"].startswith(expected[: expected.index(")\n") + 1])
    assert feb["partitions"]["total"] == 61 and feb["partitions"]["kept"] == 28
    assert len(feb["partitions"]["kept_partitions"]) == 28
    assert {"date_key": "2026-02-14"} in feb["partitions"]["kept_partitions"]
    assert [s["distinct"] for s in feb["sources"]] == [28, 9] and [s["nulls"] for s in feb["sources"]] == [2, 1]
    assert feb["sources"][0]["keys"][0]["target_type"] == "date" and feb["sources"][0]["keys"][0]["pushable"]
    assert hostile["partitions"] is None and "\\u0024{var}" in hostile["predicate"]
    assert document["cache"] is None


def test_cli_bad_spec_exits_2(tmp_path: Any, spark_thrift: SparkThrift) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text(
        f"name: typo\nbig: {S}.prune_sales\nbig_alias: f\nsmall: [{{relation: {S}.prune_dates, on: [date_kye]}}]\n"
    )
    result = _invoke(
        [
            "prune",
            "--spec",
            str(bad),
            "--thrift",
            f"{spark_thrift.host}:{spark_thrift.port}",
            "-q",
        ]
    )
    assert result.exit_code == 2, result.output
    assert "request 'typo', argument `small[0].on`: column 'date_kye' is not a column of the big table (did you mean " \
           "'date_key'?)" in result.stderr  # fmt: skip
    assert "Right form, for example:" in result.stderr


def test_cli_writes_the_prune_cache(backend: ThriftConnection, spark_thrift: SparkThrift, spec_file: Any) -> None:
    thrift = f"{spark_thrift.host}:{spark_thrift.port}"
    run = f"test-run:{SUFFIX}"
    args = ["prune", "--spec", str(spec_file), "--thrift", thrift, "-q", "--json", "--cache-run", run,
            "--cache-table", CACHE]  # fmt: skip
    document = json.loads(_invoke(args).stdout)
    again = json.loads(_invoke(args).stdout)  # overwriting a run's key sets leaves the same rows
    key_sets = {k["id"]: k for k in document["cache"]["key_sets"]}
    assert document["cache"]["table"] == CACHE and len(key_sets) == 3
    assert [k["rows"] for k in again["cache"]["key_sets"]] == [k["rows"] for k in document["cache"]["key_sets"]]

    dates_text = "\n".join([
        "skewjoin prune key set 1", f"relation: {S}.prune_dates", "alias: sj_small",
        "filter: year = 2026 and month = 2", "keys: date_key date",
    ])  # fmt: skip
    dates_id = hashlib.md5(dates_text.encode()).hexdigest()
    query_text = "\n".join([
        "skewjoin prune key set 1", f"relation: (\nselect hkey from {S}.hostile_right\nwhere label not like '%-2'\n)",
        "alias: h", "filter: ", "keys: hkey string",
    ])  # fmt: skip
    query_id = hashlib.md5(query_text.encode()).hexdigest()
    assert {dates_id, query_id} <= set(key_sets)

    rows = backend.sql(
        f"select sj_kind, to_json(sj_values), sj_run, sj_key_set, sj_created, sj_writer from {CACHE} "
        f"where sj_run = {quote_spark_string(run)}"
    )
    by_writer: dict[tuple[str, str], dict[str, list[Any]]] = {}
    for kind, values, run_value, key_set_id, created, writer in rows:
        assert run_value == run and created is not None
        by_writer.setdefault((key_set_id, writer), {}).setdefault(kind, []).append(json.loads(values))
    # each run of the helper wrote its own partition of every key set, with the same rows
    assert len({w for _, w in by_writer}) == 2 and {k for k, _ in by_writer} == set(key_sets)
    canonical = {k: sorted(map(json.dumps, v.get("key", []))) for (k, _), v in by_writer.items()}
    assert all(sorted(map(json.dumps, v.get("key", []))) == canonical[k] for (k, _), v in by_writer.items())
    by_set = {k: v for (k, _), v in by_writer.items()}
    for ks_id, kinds in by_set.items():
        (done,) = kinds["done"]
        assert (
            hashlib.md5(done[0].encode()).hexdigest()
            == ks_id
            == hashlib.md5(key_sets[ks_id]["text"].encode()).hexdigest()
        )
        assert len(kinds["nulls"]) == 1 and int(kinds["nulls"][0][0]) == key_sets[ks_id]["null_rows"]
        assert len(kinds.get("key", [])) == key_sets[ks_id]["key_rows"]
        assert key_sets[ks_id]["rows"] == key_sets[ks_id]["key_rows"] + 2
    dates = sorted(v[0] for v in by_set[dates_id]["key"])
    expected = sorted(str(r[0]) for r in backend.sql(
        f"select distinct cast(date_key as string) from {S}.prune_dates where year = 2026 and month = 2 "
        "and date_key is not null"))  # fmt: skip
    assert dates == expected and len(dates) == 28
    assert by_set[dates_id]["nulls"] == [["2"]]
    hostile = {v[0] for v in by_set[query_id]["key"]}
    assert {"it's", "${var}", "new\nline", "ünïcödé ✓ 日本", "back\\slash"} <= hostile
    assert by_set[query_id]["done"] == [[query_text]]


def test_the_macro_reads_the_key_sets_the_helper_cached(
    backend: ThriftConnection, spark_thrift: SparkThrift, spec_file: Any, compile_inline: Callable[..., Any]
) -> None:
    """The orchestrator's form: `skewjoin prune --cache-run` before dbt, then prune_predicate(cache=true)
    under that run renders, from the cache, the predicate the helper printed and the macro renders without it."""
    run = f"helper-then-dbt-{SUFFIX}"
    thrift = f"{spark_thrift.host}:{spark_thrift.port}"
    args = ["prune", "--spec", str(spec_file), "--thrift", thrift, "-q", "--json", "--cache-run", run,
            "--cache-table", CACHE]  # fmt: skip
    document = json.loads(_invoke(args).stdout)
    call = (
        "{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', ["
        "{'relation': ref('prune_dates'), 'filter': 'year = 2026 and month = 2', 'on': ['date_key']}, "
        "{'relation': ref('prune_stores'), 'filter': \"region = 'EU'\", 'on': ['store_id']}]CACHE) }}"
    )
    cache_vars = {"skewjoin_prune_cache_run": run, "skewjoin_prune_cache_table": CACHE}
    lines, cached = split_record(inline_compiled_sql(compile_inline(call.replace("CACHE", ", cache=true"),
                                                                    vars=cache_vars)))  # fmt: skip
    _, plain = split_record(inline_compiled_sql(compile_inline(call.replace("CACHE", ""))))
    assert f"prune cache {CACHE}, run {run}: 2 of 2 key set(s) complete" in lines
    assert sum("read from the prune cache" in line for line in lines) == 2
    assert cached == plain == document["requests"][0]["predicate"]

"""The prune cache (pruning as a pre-hook), without Spark: the key set's
canonical text and id, the key-set line a pruning record carries and the
pre_hook reads back (for any filter text), the deferred predicate with its
guard, what prune_key_sets runs in each dbt command, and every bad input as a
clear compile error. Against a real Spark: integration_tests/pytests/test_prune_cache.py."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from .cases import ErrorCase, params
from .harness import INVOCATION_ID, Renderer, Result, assert_clear_compile_error
from .model_cases import CACHE_KEY_QUERY, cache_with, feb_key_set, no_cache_table, render

DATES = "{'relation': ref('prune_dates'), 'filter': 'year = 2026 and month = 2', 'on': ['date_key']}"
CACHE = "skewjoin_it.skewjoin_prune_cache"
CALL = "select 1 where {{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', {args}) }}}}"


_no_cache_table = no_cache_table
_cache_with = cache_with


# -- the key set: canonical text and id ------------------------------------------------------------------------


def test_the_key_set_text_and_id_are_the_documented_ones(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_dates")
    ks = r.macros["_sj_prune_key_set"](
        "skewjoin_it.`Prune_Dates`", "d", "d.year = 2026",
        [{"name": "month", "type": "INT"}, {"name": "date_key", "type": "date"}, {"name": "Month", "type": "int"}],
    )  # fmt: skip
    text = "skewjoin prune key set 1\nrelation: skewjoin_it.prune_dates\nalias: d\nfilter: d.year = 2026\n"
    text += "keys: date_key date, month int"
    assert ks["text"] == text
    assert ks["id"] == hashlib.md5(text.encode("utf-8")).hexdigest()
    assert [c["name"] for c in ks["columns"]] == ["date_key", "month"]
    # a query keeps its text; no filter is an empty line
    q = r.macros["_sj_prune_key_set"]("(\nselect 1 as k\n)", "sj_small", None, [{"name": "k", "type": "int"}])
    assert q["text"].splitlines()[1:4] == ["relation: (", "select 1 as k", ")"]
    assert q["text"].splitlines()[-2:] == ["filter: ", "keys: k int"]


FILTERS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(filter_text=FILTERS, alias=st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True))
@example(filter_text="label = '*/ ${x} /* \\' \n -- x'", alias="p")
@example(filter_text="", alias="sj_small")
def test_the_record_line_of_a_key_set_reads_back_as_the_same_key_set(
    renderer: Callable[..., Renderer], filter_text: str, alias: str
) -> None:
    r = renderer("prune_dates")
    columns = [{"name": "date_key", "type": "date"}, {"name": "k`2", "type": "decimal(12,2)"}]
    ks = r.macros["_sj_prune_key_set"]("skewjoin_it.prune_dates", alias, filter_text or None, columns)
    line = r.macros["_sj_prune_key_set_marker"](ks)
    record = r.macros["_sj_record_sql"]("prune_predicate", ["big: x", line, "after"])
    body = record[2:-2]
    assert "*/" not in body and "/*" not in body and "${" not in record and "\n" not in line
    found = r.macros["_sj_prune_key_sets_in"]("select 1 where " + record + "\ntrue")
    assert [k["id"] for k in found] == [ks["id"]]
    assert found[0]["filter"] == (filter_text or None) and found[0]["columns"] == ks["columns"]


def test_a_tampered_key_set_line_is_ignored(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_dates")
    ks = r.macros["_sj_prune_key_set"]("skewjoin_it.prune_dates", "sj_small", "year = 2026",
                                       [{"name": "date_key", "type": "date"}])  # fmt: skip
    line = r.macros["_sj_prune_key_set_marker"](ks).replace("2026", "2025")
    assert r.macros["_sj_prune_key_sets_in"](line) == []


# -- prune_predicate with the cache ----------------------------------------------------------------------------


def test_a_key_set_not_in_the_cache_is_read_when_the_query_runs() -> None:
    case = render("prune_cache_key_set_not_cached")
    r, sql = case.renderer, case.sql
    assert not [q for q in r.spark.queries if "skewjoin_it.prune_dates" in q and not q.startswith("describe query")]
    ks = r.macros["_sj_prune_key_sets_in"](sql)
    assert len(ks) == 1 and ks[0]["filter"] == "year = 2026 and month = 2"
    body = re.sub(r"/\*.*?\*/", "", sql, flags=re.S)
    assert f"cast(raise_error(concat('skewjoin.prune_predicate in model ', chr(39), 'unit_model', chr(39), ': the key set {ks[0]['id'][:12]} " in body
    assert "and sj_cache.sj_kind = 'done'\n" in body and "where sj_check.sj_done = 0" in body
    assert f"sj_cache.sj_run = '{INVOCATION_ID}'" in body
    assert f"sj_cache.sj_key_set = '{ks[0]['id']}'" in body
    assert "f.date_key in (\n" in body and "cast(sj_cache.sj_values[0] as date) as date_key" in body


def test_a_key_set_in_the_cache_is_read_from_it_while_rendering() -> None:
    case = render("prune_cache_key_set_cached")
    r, sql = case.renderer, case.sql
    ks = feb_key_set(r)
    collected = [q for q in r.spark.queries if re.fullmatch(CACHE_KEY_QUERY, q.strip(), re.S)]
    assert len(collected) == 1 and "from skewjoin_it.prune_dates" not in collected[0]
    assert f"and sj_cache.sj_key_set = '{ks['id']}'" in collected[0] and "sj_cache.sj_kind = 'nulls'" in collected[0]
    assert "f.date_key in (cast('2026-02-01' as date), cast('2026-02-02' as date))" in sql
    assert f"(key set {str(ks['id'])[:12]}, read from the prune cache)" in sql


CACHE_CASES = [
    ErrorCase("bad_cache", f"[{DATES}], cache='yes'", "cache", "expected true or false; got yes"),
    ErrorCase("bad_cache_var", f"[{DATES}]", "var skewjoin_prune_cache", "expected true or false; got sometimes",
              vars={"skewjoin_prune_cache": "sometimes"}),
    ErrorCase("bad_cache_table", f"[{DATES}], cache=true", "var skewjoin_prune_cache_table",
              "expected a table name schema.table; got x; drop table y",
              vars={"skewjoin_prune_cache_table": "x; drop table y"}),
    ErrorCase("bad_cache_run", f"[{DATES}], cache=true", "var skewjoin_prune_cache_run",
              "expected a run name of 1 to 128 letters", vars={"skewjoin_prune_cache_run": "it's"}),
]  # fmt: skip


@pytest.mark.parametrize("case", params(CACHE_CASES))
def test_bad_cache_input_is_a_clear_compile_error(renderer: Callable[..., Renderer], case: ErrorCase) -> None:
    r = renderer("prune_sales", "prune_dates", vars=case.vars, model="prc_bad_" + case.id)
    message = r.compile_error(CALL.format(args=case.args))
    assert_clear_compile_error(message, "prune_predicate", "prc_bad_" + case.id, case.argument, case.expected)
    early = [q for q in r.spark.queries if not q.startswith(("describe query", "set "))]
    assert not early, "no query before the checks"


# -- prune_key_sets ----------------------------------------------------------------------------------------------


def _hook(r: Renderer, args: str = "") -> str:
    return r.render("{{ skewjoin.prune_key_sets(" + args + ") }}")


def test_the_pre_hook_computes_the_key_sets_its_model_names_in_one_statement(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_sales", "prune_dates", "prune_stores")
    _no_cache_table(r)
    stores = "{'relation': ref('prune_stores'), 'filter': \"region = 'EU'\", 'on': ['store_id']}"
    compiled = r.render("select 1 where {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [" + DATES + ", "
                        + stores + "], cache=true) }}")  # fmt: skip
    ids = [k["id"] for k in r.macros["_sj_prune_key_sets_in"](compiled)]
    r.context["model"]["compiled_code"] = compiled
    _cache_with(r, [ids[1]])
    statements: list[str] = []
    r.spark.answer(r"(create schema if not exists|create table if not exists|insert overwrite table) .*",
                   lambda m: statements.append(m.group(0)) or Result((), []))  # fmt: skip
    r.spark.answer(r"select sj_run\s+from .*having .*", Result(("sj_run",), []))
    assert _hook(r) == ""
    assert len(statements) == 1, "the cache table exists: not created again"
    fill = statements[0]
    assert fill.startswith(f"insert overwrite table {CACHE} partition (sj_run, sj_key_set, sj_writer)\n")
    assert len(set(re.findall(r"'([0-9a-f]{16})'\n", fill + "\n"))) == 1, "one writer for the statement"
    assert f"'{ids[0]}'" in fill and f"'{ids[1]}'" not in fill, "a key set already complete is not computed again"
    grouped = ("    select sj_small.date_key as sj_k0, count(*) as sj_rows, max(sj_small.date_key is not null) as sj_fit\n"
               "    from skewjoin_it.prune_dates as sj_small\n"
               "    where (year = 2026 and month = 2)\n    group by sj_small.date_key\n) as sj_keys\n")
    assert fill.count(grouped) == 2, "the keys and the NULL count read the same grouped rows (one shuffle)"
    assert grouped + "where sj_fit and sj_rows > 0\nunion all\n" in fill
    assert "select 'done', array(concat('skewjoin prune key set 1', chr(10), 'relation: skewjoin_it.prune_dates" in fill
    record = [m for m in r.logs if m.startswith("skewjoin.prune_key_sets decision record (model unit_model)")]
    assert record and "already in the cache for this run" in record[0] and "1 key set(s) computed" in record[0]


@pytest.mark.parametrize("which", ["compile", "generate", "test", "seed"])
def test_commands_that_run_no_model_compute_nothing(renderer: Callable[..., Renderer], which: str) -> None:
    r = renderer("prune_dates")
    r.context["flags"].WHICH = which
    assert _hook(r, "[" + DATES + "]") == ""
    assert r.spark.queries == []
    assert any(f"nothing computed: dbt {which} runs no model" in m for m in r.logs)


def test_with_run_time_queries_off_it_computes_nothing(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_dates", vars={"skewjoin_run_queries": False})
    assert _hook(r, "[" + DATES + "]") == "" and r.spark.queries == []


def test_the_key_sets_of_on_run_start_come_from_the_var(renderer: Callable[..., Renderer]) -> None:
    entry = {"relation": "skewjoin_it.prune_dates", "filter": "year = 2026", "keys": ["date_key"]}
    r = renderer("prune_dates", vars={"skewjoin_prune_key_sets": [entry]})
    r.context["model"] = None
    seen: list[str] = []
    r.spark.answer(r"show tables in .*", Result(("a", "b", "c"), []))
    r.spark.answer(r"select distinct sj_key_set\s.*", Result(("sj_key_set",), []))  # the new table holds none
    r.spark.answer(r"(create schema|create table|insert overwrite|select sj_run)\s.*",
                   lambda m: seen.append(m.group(0)) or Result((), []))  # fmt: skip
    assert _hook(r) == ""
    expected = ["create schema", "create table", "select sj_run", "insert overwrite"]
    assert [" ".join(s.split()[:2]) for s in seen] == expected
    record = "skewjoin.prune_key_sets decision record (hook): "
    assert any(m.startswith(record) and "var skewjoin_prune_key_sets: 1" in m
               for m in r.logs)  # fmt: skip


KEY_SET_CASES = [
    ErrorCase("not_a_list", DATES, "key_sets", "expected a list of key sets"),
    ErrorCase("entry_not_a_mapping", "['prune_dates']", "key_sets[0]", "each key set is a mapping"),
    ErrorCase("yaml_on", "[{'relation': 'skewjoin_it.prune_dates', true: ['date_key']}]", "key_sets[0]",
              "YAML reads a bare `on:` as the boolean true"),
    ErrorCase("no_keys", "[{'relation': 'skewjoin_it.prune_dates'}]", "key_sets[0]",
              "relation and one of on or keys (the key columns) are required"),
    ErrorCase("on_and_keys", "[{'relation': 'skewjoin_it.prune_dates', 'on': ['date_key'], 'keys': ['date_key']}]",
              "key_sets[0]", "relation and one of on or keys"),
    ErrorCase("unknown_key", "[{'relation': 'skewjoin_it.prune_dates', 'on': ['date_key'], 'where': 'x'}]",
              "key_sets[0]", "unknown key 'where'"),
    ErrorCase("bad_relation", "[{'relation': 7, 'on': ['date_key']}]", "key_sets[0].relation", "expected a relation"),
    ErrorCase("not_a_column", "[{'relation': 'skewjoin_it.prune_dates', 'keys': ['day_key']}]", "key_sets[0].keys",
              "'day_key' is not a column of skewjoin_it.prune_dates"),
    ErrorCase("bad_filter", "[{'relation': 'skewjoin_it.prune_dates', 'on': ['date_key'], 'filter': 'x = 1; drop'}]",
              "key_sets[0].filter", "may not end the statement"),
    ErrorCase("bad_alias", "[{'relation': 'skewjoin_it.prune_dates', 'on': ['date_key'], 'alias': 'sj_x'}]",
              "key_sets[0].alias", "not starting with sj_"),
]  # fmt: skip


@pytest.mark.parametrize("case", params(KEY_SET_CASES))
def test_bad_key_sets_are_a_clear_compile_error(renderer: Callable[..., Renderer], case: ErrorCase) -> None:
    r = renderer("prune_dates", model="pks_bad_" + case.id)
    message = r.compile_error("{{ skewjoin.prune_key_sets(" + case.args + ") }}")
    assert_clear_compile_error(message, "prune_key_sets", "pks_bad_" + case.id, case.argument, case.expected)
    assert not [q for q in r.spark.queries if not q.startswith(("describe query", "set "))]


def test_a_bad_var_list_is_a_clear_compile_error(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_dates", vars={"skewjoin_prune_key_sets": "skewjoin_it.prune_dates"})
    r.context["model"] = None
    message = r.compile_error("{{ skewjoin.prune_key_sets() }}")
    assert "argument `var skewjoin_prune_key_sets`: expected a list of key sets" in message


def test_adapters_other_than_spark_are_refused(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_dates", adapter_type="postgres")
    message = r.compile_error("{{ skewjoin.prune_key_sets() }}")
    assert_clear_compile_error(message, "prune_key_sets", "unit_model", "adapter", "this target uses postgres")


def test_a_relation_the_run_builds_is_read_by_name_or_in_a_query(renderer: Callable[..., Renderer]) -> None:
    """Outside a model, prune_key_sets leaves to the pre_hook a key set of a relation the run builds: named
    (schema.name, or a bare name in the target's schema) or read by a query; not one in another schema."""
    from types import SimpleNamespace

    r = renderer(model="hook")
    node = SimpleNamespace(resource_type="model", unique_id="model.shop.dates", alias="dates", name="dates",
                           schema="analytics", config={"materialized": "table"})  # fmt: skip
    r.context.update({"graph": {"nodes": {node.unique_id: node}}, "selected_resources": [node.unique_id],
                      "model": None})  # fmt: skip
    r.context["target"] = SimpleNamespace(schema="analytics")
    built = {
        "analytics.dates": "dates",
        "`analytics`.`dates`": "dates",
        "dates": "dates",
        "select date_key from analytics.dates where active": "dates",
        "select date_key from `analytics`.`dates`": "dates",
        "other.dates": None,
        "select date_key from analytics.dates_2024": None,
    }
    for relation, expected in built.items():
        assert r.call("_sj_prune_built_by_this_run", relation) == expected, relation

"""dbt habits on models that call the package (no Spark): unit-test inputs
(`__dbt__cte__<name>`), `--empty` inputs, pinning, and the errors that must
point where the fix goes (chain `joins[i].on`, right forms from the user's own
relations and session, nothing raised at parse time, did-you-mean)."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import pytest

from .harness import Renderer, assert_clear_compile_error, decision_record, strip_record

INPUTS = ("typed_left", "typed_right", "spread_right")
GROUPS = "{'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}"


def _unit_test(r: Renderer, raw_code: str) -> Renderer:
    """Make the renderer's model a dbt unit test of a model with this code (as
    dbt's unit-test context does: resource_type unit_test, its own config)."""
    r.context["model"] = {"name": "ut_orders", "unique_id": "unit_test.unit.orders.ut_orders",
                          "tested_node_unique_id": "model.unit.orders",
                          "resource_type": "unit_test", "raw_code": raw_code, "schema": "skewjoin_it",
                          "database": None}  # fmt: skip
    return r


def _empty_run(r: Renderer) -> Renderer:
    r.context["flags"] = SimpleNamespace(WHICH="build", EMPTY=True)
    return r


CTE_CALL = "{{ skewjoin.skew_join('__dbt__cte__typed_left', '__dbt__cte__typed_right', on=['k_int']) }}"


def test_unit_test_reads_the_model_config_and_describes_the_real_relations(
    renderer: Callable[..., Renderer],
) -> None:
    r = _unit_test(renderer(*INPUTS), "{{ config(skew_join=" + GROUPS + ") }}\n" + CTE_CALL)
    sql = r.render(CTE_CALL)
    record = decision_record(sql, "skew_join")
    # the model's own config(skew_join=...) (dbt hands the unit test its own config)
    assert "skew specification from config skew_join" in record
    assert "skew groups: 1" in record and "strategy: skew groups over a shuffle join on (keys, slot)" in record
    # the given rows' columns come from the real relation; the SQL reads the CTE
    described = [q for q in r.spark.queries if q.startswith("describe")]
    assert described and all("__dbt__cte__" not in q for q in described), described
    assert any("skewjoin_it.typed_left" in q for q in described)
    assert "from __dbt__cte__typed_left as sj_source" in strip_record(sql)
    # no data query: the given rows are out of reach at compile time
    assert not any(q.lstrip().lower().startswith(("select", "with")) and "range(" not in q for q in r.spark.queries)


def test_unit_test_with_auto_plans_without_measuring_and_says_why(renderer: Callable[..., Renderer]) -> None:
    r = _unit_test(renderer(*INPUTS), "{{ config(skew_join='auto') }}\n" + CTE_CALL)
    record = decision_record(r.render(CTE_CALL), "skew_join")
    assert "skew specification from config skew_join ('auto')" in record
    assert ("auto: nothing measured: measuring needs a query and compile-time queries are off (this is a dbt unit "
            "test: its inputs are the given rows") in record  # fmt: skip
    assert not any("sj_null_rows" in q for q in r.spark.queries)


def test_unit_test_config_that_is_not_a_literal_is_a_clear_error(renderer: Callable[..., Renderer]) -> None:
    r = _unit_test(renderer(*INPUTS), "{{ config(skew_join=var('my_skew')) }}\n" + CTE_CALL)
    message = r.compile_error(CTE_CALL)
    assert_clear_compile_error(message, "skew_join", "orders", "skew_join", "could not read config(skew_join=...)")
    assert "skew={...}" in message


def test_unit_test_errors_and_records_name_the_model_and_the_unit_test(renderer: Callable[..., Renderer]) -> None:
    """dbt's unit-test node is named after the unit test: errors and records said "in model 'ut_orders'" for
    a call in the model orders. They name the model whose code holds the call, and the unit test."""
    r = _unit_test(renderer(*INPUTS), "{{ config(skew_join=var('my_skew')) }}\n" + CTE_CALL)
    assert "skewjoin.skew_join in model 'orders' (unit test 'ut_orders'), argument `skew_join`" in r.compile_error(
        CTE_CALL
    )
    r = _unit_test(renderer(*INPUTS), "{{ config(skew_join=" + GROUPS + ") }}\n" + CTE_CALL)
    assert "skewjoin.skew_join decision record (model orders, unit test ut_orders)" in r.render(CTE_CALL)


def test_unit_test_input_without_its_relation_is_a_clear_error(renderer: Callable[..., Renderer]) -> None:
    r = _unit_test(renderer("typed_right"), CTE_CALL)
    message = r.compile_error(CTE_CALL)
    assert_clear_compile_error(message, "skew_join", "orders", "left", "the given rows of a dbt unit test")
    assert "dbt run -s typed_left" in message


def test_unit_test_input_the_relation_cache_misses_is_found_by_show_tables(
    renderer: Callable[..., Renderer], monkeypatch: pytest.MonkeyPatch
) -> None:
    """dbt-spark lists a schema as empty when a table in it is dropped while it
    lists (another job rebuilding a model): a cache miss is checked with SHOW
    TABLES before it is called missing, and the SQL is the one a hit gives."""
    hit = _unit_test(renderer(*INPUTS), CTE_CALL).render(CTE_CALL)
    r = _unit_test(renderer(*INPUTS), CTE_CALL)
    monkeypatch.setattr(type(r.context["adapter"]), "get_relation", lambda self, database, schema, identifier: None)
    missed = r.render(CTE_CALL)
    assert strip_record(missed) == strip_record(hit)
    shown = [q for q in r.spark.queries if q.startswith("show tables")]
    assert shown == ["show tables in skewjoin_it like 'typed_left'", "show tables in skewjoin_it like 'typed_right'"]


EMPTY_LEFT = "(select * from skewjoin_it.typed_left where false limit 0)"
EMPTY_RIGHT = "(select * from skewjoin_it.typed_right where false limit 0)"


def test_empty_run_keeps_a_declared_plan_and_queries_no_subquery(renderer: Callable[..., Renderer]) -> None:
    r = _empty_run(renderer(*INPUTS, config={"skew_join": {"groups": [{"when": "a.k_int = 0", "slots": 4}]}}))
    sql = r.render("{{ skewjoin.skew_join(\"" + EMPTY_LEFT + "\", \"" + EMPTY_RIGHT + "\", on=['k_int']) }}")
    assert "strategy: skew groups over a shuffle join on (keys, slot)" in decision_record(sql, "skew_join")
    assert not any("limit 0" in q for q in r.spark.queries), r.spark.queries


def test_empty_run_prune_predicate_describes_no_subquery(renderer: Callable[..., Renderer]) -> None:
    r = _empty_run(renderer("prune_sales", "prune_stores"))
    sql = r.render(
        "{{ skewjoin.prune_predicate(\"(select * from skewjoin_it.prune_sales where false limit 0)\", 's', "
        "[{'relation': \"(select * from skewjoin_it.prune_stores where false limit 0)\", 'on': ['store_id']}]) }}"
    )
    assert "no predicate (true): compile-time queries are off (dbt --empty" in sql
    assert not any("limit 0" in q for q in r.spark.queries), r.spark.queries


CHAIN_NO_ON = """{{ skewjoin.skew_join_chain(ref('typed_left'), [
    {'relation': ref('typed_right'), 'alias': 'b'},
    {'relation': ref('spread_right'), 'alias': 'c'}
], on=['k_int'], columns=['a.id', 'b.rid', 'c.label']) }}"""


def test_a_chain_side_with_another_key_name_points_at_its_own_on(renderer: Callable[..., Renderer]) -> None:
    r = renderer(*INPUTS, model="orders_chain")
    message = r.compile_error(CHAIN_NO_ON)
    assert_clear_compile_error(message, "skew_join_chain", "orders_chain", "joins[1].on",
                               "column 'k_int' is not a column of the right side (c)")  # fmt: skip
    right_form = message.split("Right form, for example: ")[1].strip()
    assert right_form == "[['k_int', 'k']]", right_form
    # pasted where the message says, it compiles
    fixed = CHAIN_NO_ON.replace("'alias': 'c'}", "'alias': 'c', 'on': " + right_form + "}")
    compiled = renderer(*INPUTS).render(fixed)
    assert "chain: a inner join b on a.k_int = b.k_int, then inner join c on a.k_int = c.k" in compiled


def test_chain_argument_errors_wait_for_the_model_to_compile(renderer: Callable[..., Renderer]) -> None:
    bad = CHAIN_NO_ON.replace("'alias': 'c'}", "'alias': 'c', 'join_type': 'full', 'on': [['k_int', 'k']]}")
    # parse time (execute false): SQL naming the relations, no error
    parsed = renderer(*INPUTS, execute=False).render(bad)
    assert "skewjoin_it.typed_left" in parsed and "skewjoin_it.spread_right" in parsed
    single = "{{ skewjoin.skew_join_chain(ref('typed_left'), [{'relation': ref('typed_right')}], on='x') }}"
    assert "skewjoin_it.typed_right" in renderer(*INPUTS, execute=False).render(single)
    # compile time: the error, for this model only
    message = renderer(*INPUTS, model="orders_chain").compile_error(bad)
    assert_clear_compile_error(message, "skew_join_chain", "orders_chain", "joins[1].join_type",
                               "a full join cannot be part of a chain")  # fmt: skip


def test_chain_right_forms_use_the_users_relations_and_session(renderer: Callable[..., Renderer]) -> None:
    single = ("{{ skewjoin.skew_join_chain(ref('typed_left'), [{'relation': ref('typed_right'), 'alias': 'b'}], "
              "on=['k_int']) }}")
    message = renderer(*INPUTS, model="orders_chain").compile_error(single)
    assert_clear_compile_error(message, "skew_join_chain", "orders_chain", "joins", "For a single join use skew_join")
    assert "'relation': 'skewjoin_it.typed_right', 'alias': 'b'" in message
    assert "ref('scores')" not in message and "ref('customers')" not in message
    # 'auto' on a chain: the example's slots fit the session's total slots (20 here), not a fixed 40
    auto = CHAIN_NO_ON.replace("'alias': 'c'}", "'alias': 'c', 'on': [['k_int', 'k']]}").replace(
        "columns=", "skew='auto', columns=")
    message = renderer(*INPUTS, model="orders_chain").compile_error(auto)
    assert_clear_compile_error(message, "skew_join_chain", "orders_chain", "skew_join", "'auto' plans one join")
    assert "'slots': 5}" in message and "'slots': 40" not in message


def test_a_misspelt_auto_gets_a_did_you_mean(renderer: Callable[..., Renderer]) -> None:
    message = renderer(*INPUTS, model="orders").compile_error(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], skew='atuo') }}")
    assert_clear_compile_error(message, "skew_join", "orders", "skew_join", "got atuo (did you mean 'auto'?)")
    assert message.endswith("Right form, for example: 'auto'"), message


@pytest.mark.parametrize("value", ["'NaN'", "'nan'", "'-Infinity'"])
def test_a_nan_hot_key_on_a_double_column_is_a_hot_key(renderer: Callable[..., Renderer], value: str) -> None:
    from .harness import Table

    r = renderer(extra_tables={"l": Table([("k", "double")]), "r": Table([("k", "double")])})
    sql = r.render("{{ skewjoin.skew_join('l', 'r', on=['k'], skew={'hot_keys': [" + value + "]}) }}")
    special = "-Infinity" if "inf" in value.lower() else "NaN"
    assert f"coalesce(a.k in (cast('{special}' as double)), false)" in sql
    assert "strategy: hot keys by broadcast" in sql


def test_a_bad_skew_join_input_waits_for_the_model_to_compile(renderer: Callable[..., Renderer]) -> None:
    call = "{{ skewjoin.skew_join(42, ref('typed_right'), on=['k_int']) }}"
    assert renderer(*INPUTS, execute=False).render(call) == "select 1 as sj_parse_time"
    message = renderer(*INPUTS, model="orders").compile_error(call)
    assert_clear_compile_error(message, "skew_join", "orders", "left", "expected a relation")


def test_a_bad_input_right_form_names_a_relation_of_the_model(renderer: Callable[..., Renderer]) -> None:
    r = renderer(*INPUTS, model="orders")
    r.context["model"] = {**r.context["model"], "refs": [{"name": "typed_left", "package": None, "version": None}]}
    message = r.compile_error("{{ skewjoin.skew_join(ref('typed_left'), 42, on=['k_int']) }}")
    assert_clear_compile_error(message, "skew_join", "orders", "right", "expected a relation")
    assert message.endswith("Right form, for example: right=ref('typed_left')"), message


def test_a_bad_input_query_waits_for_the_model_to_compile(renderer: Callable[..., Renderer]) -> None:
    """An input query that is not one whole query (a `;`, unbalanced parentheses) stops its own model when it
    compiles, not `dbt parse` and every other model (parse time renders a placeholder)."""
    calls = [
        "{{ skewjoin.skew_join('select * from skewjoin_it.typed_left;', ref('typed_right'), on=['k_int']) }}",
        "{{ skewjoin.skew_join_chain('select * from skewjoin_it.typed_left where (k_int', [{'relation': "
        "ref('typed_right'), 'alias': 'b'}, {'relation': ref('spread_right'), 'alias': 'c'}], on=['k_int']) }}",
        "{{ skewjoin.star_join('select * from skewjoin_it.typed_left;', [{'relation': ref('typed_right'), "
        "'alias': 'b', 'on': ['k_int']}]) }}",
        "{{ skewjoin.star_join(ref('typed_left'), [{'relation': 'select * from skewjoin_it.typed_right)', "
        "'alias': 'b', 'on': ['k_int']}]) }}",
    ]
    for call in calls:
        renderer(*INPUTS, execute=False).render(call)
        message = renderer(*INPUTS, model="orders").compile_error(call)
        assert "the query select * from skewjoin_it." in message and "Right form, for example:" in message, message

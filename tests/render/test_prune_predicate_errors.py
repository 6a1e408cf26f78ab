"""prune_predicate: every bad input is a clear compile error (no Spark).

Each case renders ``skewjoin.prune_predicate(ref('prune_sales'), 'f', <args>)``
inside a WHERE clause. To add a case, add a row.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .cases import ErrorCase, params
from .golden import check_expected
from .harness import Renderer, Table, assert_clear_compile_error

DATES = "{'relation': ref('prune_dates'), 'on': ['date_key']}"

CASES = [
    ErrorCase("argument_typo", f"[{DATES}], max_value=10", "max_value", "no such argument (did you mean 'max_values'?)"),
    ErrorCase("left_join", f"[{DATES}], join_type='left'", "join_type",
              "refused: the join `big left join prune_dates` preserves the big table"),
    ErrorCase("full_join", f"[{DATES}], join_type='full outer'", "join_type",
              "Rule: the big table may be pruned by a small table only when the big side is not preserved"),
    ErrorCase("anti_join_per_entry", "[{'relation': ref('prune_dates'), 'on': ['date_key'], 'join_type': 'left anti'}]",
              "small[0].join_type", "a left anti join returns exactly the big rows that match nothing"),
    ErrorCase("unknown_join_type", f"[{DATES}], join_type='cross'", "join_type", "unknown join type 'cross'"),
    ErrorCase("relation_query_unbalanced", "[{'relation': 'select date_key from prune_dates) x union all (select 1', 'on': ['date_key']}]", "small[0].relation", "has unbalanced parentheses"),
    ErrorCase("relation_query_open_comment", "[{'relation': 'select date_key from prune_dates /* x', 'on': ['date_key']}]", "small[0].relation", "has an unterminated comment"),
    ErrorCase("small_not_a_list", DATES, "small", "expected a non-empty list"),
    ErrorCase("small_empty", "[]", "small", "expected a non-empty list"),
    ErrorCase("small_entry_not_a_mapping", "['prune_dates']", "small[0]", "each small relation is a mapping"),
    ErrorCase("missing_on", "[{'relation': ref('prune_dates')}]", "small[0]", "relation and on are required"),
    ErrorCase("unknown_key", "[{'relation': ref('prune_dates'), 'on': ['date_key'], 'filters': 'x = 1'}]", "small[0]", "unknown key 'filters'"),
    ErrorCase("bad_on", "[{'relation': ref('prune_dates'), 'on': [['date_key']]}]", "small[0].on", "[big_column, small_column] pair"),
    ErrorCase("big_column_twice", "[{'relation': ref('prune_dates'), 'on': ['date_key', ['date_key', 'year']]}]", "small[0].on", "appears twice"),
    ErrorCase("not_a_big_column", "[{'relation': ref('prune_dates'), 'on': ['year']}]", "small[0].on", "'year' is not a column of the big table"),
    ErrorCase("not_a_small_column", "[{'relation': ref('prune_dates'), 'on': [['store_id', 'shop']]}]", "small[0].on", "'shop' is not a column of prune_dates"),
    ErrorCase("types_not_comparable", "[{'relation': ref('prune_dates'), 'on': [['date_key', 'is_weekend']]}]", "small[0].on", "have types Spark cannot compare"),
    ErrorCase("filter_statement", "[{'relation': ref('prune_dates'), 'filter': 'year = 2026; drop table x', 'on': ['date_key']}]", "small[0].filter", "may not end the statement"),
    ErrorCase("filter_nondeterministic", "[{'relation': ref('prune_dates'), 'filter': 'rand() < 0.5', 'on': ['date_key']}]", "small[0].filter", "non-deterministic"),
    ErrorCase("filter_unknown_alias", "[{'relation': ref('prune_dates'), 'filter': 'd.year = 2026', 'on': ['date_key']}]", "small[0].filter", "the filter uses 'd.year'"),
    ErrorCase("small_alias_is_big_alias", "[{'relation': ref('prune_dates'), 'alias': 'f', 'on': ['date_key']}]", "small[0].alias", "different from the big alias"),
    ErrorCase("bad_relation", "[{'relation': 42, 'on': ['date_key']}]", "small[0].relation", "expected a relation"),
    ErrorCase("bad_max_values", f"[{DATES}], max_values=0", "max_values", "whole number >= 1"),
    ErrorCase("bad_max_values_var", f"[{DATES}]", "max_values", "whole number >= 1 is expected; got -3", vars={"skewjoin_prune_max_values": -3}),
    ErrorCase("bad_fallback", f"[{DATES}], fallback='bloom'", "fallback", "'range' (between min and max), 'semi_join'"),
    ErrorCase("bad_fallback_var", f"[{DATES}]", "fallback", "got bloom", vars={"skewjoin_prune_fallback": "bloom"}),
]  # fmt: skip


@pytest.mark.parametrize("case", params(CASES))
def test_bad_input_is_a_clear_compile_error(renderer: Callable[..., Renderer], case: ErrorCase, rewrite_expected: bool) -> None:
    r = renderer("prune_sales", "prune_dates", vars=case.vars, model="pr_bad_" + case.id)
    message = r.compile_error("select 1 where {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', " + case.args + ") }}")
    assert_clear_compile_error(message, "prune_predicate", "pr_bad_" + case.id, case.argument, case.expected)
    check_expected(f"errors/prune_predicate/{case.id}.txt", message + "\n", rewrite_expected)
    assert not [q for q in r.spark.queries if not q.startswith(("describe query", "set "))], "no key query before the checks"


def test_bad_big_alias_is_a_compile_error(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_sales", "prune_dates")
    message = r.compile_error(
        "select 1 where {{ skewjoin.prune_predicate(ref('prune_sales'), 'sj_f', [{'relation': ref('prune_dates'), "
        "'filter': 'year = 2026 and month = 2', 'on': ['date_key']}]) }}"
    )
    assert_clear_compile_error(message, "prune_predicate", "unit_model", "big_alias", "not starting with sj_")


def test_a_key_type_without_exact_literals_is_a_compile_error(renderer: Callable[..., Renderer]) -> None:
    binary = "select cast('a' as binary) as b"
    r = renderer(extra_tables={binary: Table([("b", "binary")])})
    message = r.compile_error(
        "select 1 where {{ skewjoin.prune_predicate(\"" + binary + "\", 't', "
        "[{'relation': \"" + binary + "\", 'on': ['b']}]) }}"
    )
    assert_clear_compile_error(message, "prune_predicate", "unit_model", "small[0].on",
                               "cannot be written as SQL literals exactly")  # fmt: skip


def test_adapters_other_than_spark_are_refused(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_sales", "prune_dates", adapter_type="postgres")
    message = r.compile_error("select 1 where {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [" + DATES + "]) }}")
    assert_clear_compile_error(message, "prune_predicate", "unit_model", "adapter", "this target uses postgres")

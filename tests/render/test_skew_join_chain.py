"""skew_join_chain (no Spark): one salting for a chain of joins on the same
key, the broadcast chain of the hot keys, and the chain's rules refused with
clear errors before any data query."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .cases import ErrorCase, params
from .golden import check_expected
from .harness import Renderer, Table, assert_clear_compile_error, decision_record, strip_record
from .model_cases import chain, render

_chain = chain


def test_one_salting_for_every_join() -> None:
    sql = render("chain_groups_one_salting").sql
    body = strip_record(sql)
    # a is slotted once; b and c copy the group's rows to the same six slots
    assert body.count("a_slotted as (") == 1 and "b_slotted as (" in body and "c_slotted as (" in body
    assert body.count("when cast(0 as int) then array(0, 1, 2, 3, 4, 5)") == 2
    # every join matches on the key and a's slot
    assert re.search(r"from a_slotted as a\s+left join b_slotted as b\s+on a\.k_int = b\.k_int\s+"
                     r"and a\.sj_slot = b\.sj_slot\s+left join c_slotted as c\s+on a\.k_int = c\.k\s+"
                     r"and a\.sj_slot = c\.sj_slot", body), body  # fmt: skip
    assert "strategy: skew groups" in decision_record(sql, "skew_join_chain")


def test_hot_keys_join_in_one_broadcast_chain() -> None:
    sql = render("chain_hot_keys_broadcast_chain").sql
    body = strip_record(sql)
    assert re.search(r"hot_chain as \(\s+select /\*\+ broadcast\(b, c\) \*/.*?from a_hot as a\s+inner join b_hot as b"
                     r".*?left join c_hot as c", body, re.S), body  # fmt: skip
    # the other sides' rows of the hot keys are taken out of the rest
    assert "where not coalesce(b.k_int in (cast(7 as int)), false)" in body
    assert "where not coalesce(c.k in (cast(7 as int)), false)" in body
    # an inner join of the chain drops a's NULL keys: no bypass branch
    assert "a_null_keys_kept" not in body
    assert "strategy: hot keys" in decision_record(sql, "skew_join_chain")


def test_nothing_declared_is_the_plain_chain() -> None:
    sql = render("chain_plain").sql
    assert "strategy: the plain chain of joins" in sql
    body = strip_record(sql)
    assert body == (
        "select\n    a.id,\n    b.rid,\n    c.label\nfrom skewjoin_it.typed_left as a\n"
        "left join skewjoin_it.typed_right as b\n    on a.k_int = b.k_int\n"
        "left join skewjoin_it.spread_right as c\n    on a.k_int = c.k"
    )


def test_keys_of_different_types_hash_in_one() -> None:
    """b joins on k_big (bigint): the slots of every side are hashed in bigint, and the record says
    Spark shuffles again where the key type changes."""
    sql = render("chain_keys_of_different_types").sql
    assert "the slots are hashed in bigint" in decision_record(sql, "skew_join_chain")
    body = strip_record(sql)
    assert "pmod(xxhash64(cast(c.k as bigint)), 14)" in body
    assert "pmod(xxhash64(cast(a.k_int as bigint)), 14)" in body


# ErrorCase.args here is the whole model source (a chain call)
CASES = [
    ErrorCase("argument_typo",
              "{{ skewjoin.skew_join_chain(ref('typed_left'), [{'relation': ref('typed_right'), 'alias': 'b', "
              "'on': ['k_int']}], on=['k_int'], colums=['a.id']) }}", "colums", "no such argument (did you mean 'columns'?)"),
    ErrorCase("full_join", _chain(jt2="full"), "joins[1].join_type", "a full join cannot be part of a chain"),
    ErrorCase("left_semi_join", _chain(jt1="left semi"), "joins[0].join_type", "a left semi join cannot be part of a chain"),
    ErrorCase("group_driven_by_other_side", _chain(skew="{'groups': [{'when': 'b.k_int = 0', 'slots': 3}]}"),
              "skew_join.groups[0].when", "a chain's groups are driven by the large side a"),
    ErrorCase("hot_keys_of_other_side", _chain(skew="{'hot_keys': {'b': [0]}}"), "skew_join.hot_keys",
              "a chain's hot keys are the large side's"),
    ErrorCase("auto", _chain(skew="'auto'"), "skew_join", "'auto' plans one join"),
    ErrorCase("group_driven_by_a_later_side", _chain(skew="{'groups': [{'when': 'c.k = 0', 'slots': 3}]}"),
              "skew_join.groups[0].when", "a chain's groups are driven by the large side a"),
    ErrorCase("second_group_on_a_later_side", _chain(skew="{'groups': [{'slots': 2}, {'when': 'c.k = 1', 'slots': 2}]}"),
              "skew_join.groups[1].when", "a chain's groups are driven by the large side a"),
    ErrorCase("hot_keys_of_a_later_side", _chain(skew="{'hot_keys': {'c': [0]}}"), "skew_join.hot_keys",
              "a chain's hot keys are the large side's"),
    ErrorCase("group_unknown_alias", _chain(skew="{'groups': [{'when': 'd.k = 0', 'slots': 3}]}"),
              "skew_join.groups[0].when", "'d' names no side of the chain; its sides are a, b, c"),
    ErrorCase("hot_key_arity", _chain(skew="{'hot_keys': {'a': [[0, 1]]}}"), "skew_join.hot_keys", "{'a': [0]}"),
    ErrorCase("group_no_size", _chain(skew="{'groups': [{'when': 'a.k_int = 0'}]}"), "skew_join.groups[0]",
              "a group needs a size"),
    ErrorCase("alias_taken", _chain().replace("'alias': 'c'", "'alias': 'b'"), "joins[1].alias", "the alias 'b' is taken"),
    ErrorCase("alias_missing", _chain().replace("'alias': 'c', ", ""), "joins[1].alias", "every join needs its alias"),
    ErrorCase("single_join", "{{ skewjoin.skew_join_chain(ref('typed_left'), [{'relation': ref('typed_right'), "
              "'alias': 'b'}], on=['k_int']) }}", "joins", "For a single join use skew_join"),
    ErrorCase("columns_unknown_alias", _chain().replace("columns=['a.id', 'b.rid', 'c.label']", "columns=['a.id', 'd.x']"),
              "columns", "uses the alias 'd'"),
    ErrorCase("columns_distinct", _chain().replace("columns=['a.id', 'b.rid', 'c.label']", "columns=['distinct c.label']"),
              "columns", "starts with DISTINCT"),
    ErrorCase("columns_named_aggregate", _chain().replace("columns=['a.id', 'b.rid', 'c.label']",
              "columns=['kll_sketch_agg_bigint(a.id) as q']"), "columns", "calls kll_sketch_agg_bigint(), an aggregate"),
    ErrorCase("join_on_another_key", _chain().replace("'on': [['k_int', 'k']]", "'on': [['k_str', 'k']]"), "joins[1].on",
              "every join of a chain is on the large side's same key"),
    # a.k_date = b.k_ts compares as timestamp, a.k_date = c.label as date: the date of '2024-01-01 10:00:00' is the
    # date 2024-01-01, its timestamp is not midnight, so a match of the second join could land in another slot
    ErrorCase("join_in_a_type_that_does_not_widen_exactly",
              "{{ skewjoin.skew_join_chain(ref('typed_left'), [{'relation': ref('typed_right'), 'alias': 'b', "
              "'on': [['k_date', 'k_ts']]}, {'relation': ref('spread_right'), 'alias': 'c', 'on': [['k_date', 'label']]}], "
              "on=['k_date'], columns=['a.id', 'b.rid', 'c.label'], skew={'groups': [{'when': 'a.k_date is not null', "
              "'slots': 6}]}) }}", "joins[1].on", "string into date does not, so rows this join matches could land in different "
              "slots; cast c.label to date in a subquery, as the join compares it"),
]  # fmt: skip


@pytest.mark.parametrize("case", params(CASES))
def test_the_chain_rules_are_clear_errors(renderer: Callable[..., Renderer], case: ErrorCase, rewrite_expected: bool) -> None:
    r = renderer("typed_left", "typed_right", "spread_right", model="orders_chain")
    message = r.compile_error(case.args)
    assert_clear_compile_error(message, "skew_join_chain", "orders_chain", case.argument, case.expected)
    check_expected(f"errors/skew_join_chain/{case.id}.txt", message + "\n", rewrite_expected)
    assert not any("sj_null_rows" in q or "select distinct" in q for q in r.spark.queries)


def test_a_join_whose_type_rounds_into_the_chains_is_left_to_a_join_after_it(renderer: Callable[..., Renderer]) -> None:
    """a.k = b.kf (int, float) compares as double, so the chain routes its keys as doubles; a.k = c.kl (int, bigint)
    compares as bigint, and a bigint rounds into a double (2^53 + 1 is 2^53): the chain refuses it, and no cast keeps
    what the join matches (a cast of c.kl to double would match 2^53 + 1 with 2^53), so the right form joins c after
    the chain."""
    r = renderer(extra_tables={"ca": Table([("id", "int"), ("k", "int")]), "cb": Table([("kf", "float"), ("w", "int")]),
                               "cc": Table([("kl", "bigint"), ("v", "int")])}, model="rounds")  # fmt: skip
    message = r.compile_error(
        "{{ skewjoin.skew_join_chain('ca', [{'relation': 'cb', 'alias': 'b', 'on': [['k', 'kf']]}, "
        "{'relation': 'cc', 'alias': 'c', 'join_type': 'left', 'on': [['k', 'kl']]}], on=['k'], "
        "skew={'groups': [{'when': 'a.k = 0', 'slots': 3}]}) }}"
    )
    assert_clear_compile_error(message, "skew_join_chain", "rounds", "joins[1].on",
                               "a.k (int) = c.kl (bigint) compares as bigint;")  # fmt: skip
    assert "and bigint into double does not" in message and "join c after the chain" in message, message
    assert "Right form, for example: select ... from (the chain without this join) as chained left join cc as c " \
        "on chained.k = c.kl" in message, message


def test_other_adapters_get_a_clear_error(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", "spread_right", adapter_type="postgres", model="orders_chain")
    message = r.compile_error(_chain())
    assert_clear_compile_error(message, "skew_join_chain", "orders_chain", "adapter",
                               "skew_join_chain generates Spark SQL")  # fmt: skip

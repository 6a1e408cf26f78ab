"""skew_join_chain (no Spark): one salting for a chain of joins on the same
key, the broadcast chain of the hot keys, and the chain's rules refused with
clear errors before any data query."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .harness import Renderer, assert_clear_compile_error, decision_record, strip_record

CHAIN = """{{{{ skewjoin.skew_join_chain(ref('typed_left'), [
    {{'relation': ref('typed_right'), 'alias': 'b', 'join_type': '{jt1}'}},
    {{'relation': ref('spread_right'), 'alias': 'c', 'join_type': '{jt2}', 'on': [['k_int', 'k']]}}
], on=['k_int'], columns=['a.id', 'b.rid', 'c.label'], skew={skew}) }}}}"""


GROUPS = "{'groups': [{'when': 'a.k_int = 0', 'slots': 6}]}"


def _chain(jt1: str = "left", jt2: str = "left", skew: str = GROUPS) -> str:
    return CHAIN.format(jt1=jt1, jt2=jt2, skew=skew)


def test_one_salting_for_every_join(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", "spread_right")
    sql = r.render(_chain())
    body = strip_record(sql)
    # a is slotted once; b and c copy the group's rows to the same six slots
    assert body.count("a_slotted as (") == 1 and "b_slotted as (" in body and "c_slotted as (" in body
    assert body.count("when cast(0 as int) then array(0, 1, 2, 3, 4, 5)") == 2
    # every join matches on the key and a's slot
    assert re.search(r"from a_slotted as a\s+left join b_slotted as b\s+on a\.k_int = b\.k_int\s+"
                     r"and a\.sj_slot = b\.sj_slot\s+left join c_slotted as c\s+on a\.k_int = c\.k\s+"
                     r"and a\.sj_slot = c\.sj_slot", body), body  # fmt: skip
    record = decision_record(sql, "skew_join_chain")
    assert "chain: a left join b on a.k_int = b.k_int, then left join c on a.k_int = c.k; keys compared as int" \
        in record
    assert "the rows of every other side (b, c) of a group are copied to the same slots" in record
    assert "strategy: skew groups over a chain of shuffle joins on (keys, slot)" in record


def test_hot_keys_join_in_one_broadcast_chain(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", "spread_right")
    sql = r.render(_chain(jt1="inner", jt2="left", skew="{'hot_keys': [7, none]}"))
    body = strip_record(sql)
    assert re.search(r"hot_chain as \(\s+select /\*\+ broadcast\(b, c\) \*/.*?from a_hot as a\s+inner join b_hot as b"
                     r".*?left join c_hot as c", body, re.S), body  # fmt: skip
    # the other sides' rows of the hot keys are taken out of the rest
    assert "where not coalesce(b.k_int in (cast(7 as int)), false)" in body
    assert "where not coalesce(c.k in (cast(7 as int)), false)" in body
    record = decision_record(sql, "skew_join_chain")
    # an inner join of the chain drops a's NULL keys: no bypass branch
    assert "rows of a with a NULL key are dropped before the chain" in record
    assert "a_null_keys_kept" not in body
    assert "strategy: hot keys by a chain of broadcast joins + the plain chain for the rest" in record


def test_nothing_declared_is_the_plain_chain(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", "spread_right")
    sql = r.render(_chain(skew="{}"))
    assert "strategy: the plain chain of joins (no skew groups and no hot keys)" in sql
    body = strip_record(sql)
    assert body == (
        "select\n    a.id,\n    b.rid,\n    c.label\nfrom skewjoin_it.typed_left as a\n"
        "left join skewjoin_it.typed_right as b\n    on a.k_int = b.k_int\n"
        "left join skewjoin_it.spread_right as c\n    on a.k_int = c.k"
    )


def test_keys_of_different_types_hash_in_one(renderer: Callable[..., Renderer]) -> None:
    """b joins on k_big (bigint): the slots of every side are hashed in bigint, and the record says
    Spark shuffles again where the key type changes."""
    r = renderer("typed_left", "typed_right", "spread_right")
    sql = r.render(_chain().replace("'alias': 'b', 'join_type': 'left'",
                                    "'alias': 'b', 'join_type': 'left', 'on': [['k_int', 'k_big']]"))
    record = decision_record(sql, "skew_join_chain")
    assert "the keys compare in different types (a.k_int = c.k compares as int): the slots are hashed in bigint" \
        in record
    body = strip_record(sql)
    assert "pmod(xxhash64(cast(c.k as bigint)), 14)" in body
    assert "pmod(xxhash64(cast(a.k_int as bigint)), 14)" in body


@pytest.mark.parametrize(
    ("source", "argument", "expected"),
    [
        (_chain(jt2="full"), "joins[1].join_type", "a full join cannot be part of a chain"),
        (_chain(jt1="left semi"), "joins[0].join_type", "a left semi join cannot be part of a chain"),
        (_chain(skew="{'groups': [{'when': 'b.k_int = 0', 'slots': 3}]}"), "skew_join.groups[0].when",
         "a chain's groups are driven by the large side a"),
        (_chain(skew="{'hot_keys': {'b': [0]}}"), "skew_join.hot_keys", "a chain's hot keys are the large side's"),
        (_chain(skew="'auto'"), "skew_join", "'auto' plans one join"),
        (_chain(skew="{'groups': [{'when': 'a.k_int = 0'}]}"), "skew_join.groups[0]", "a group needs a size"),
        (_chain().replace("'alias': 'c'", "'alias': 'b'"), "joins[1].alias", "the alias 'b' is taken"),
        (_chain().replace("'alias': 'c', ", ""), "joins[1].alias", "every join needs its alias"),
        ("{{ skewjoin.skew_join_chain(ref('typed_left'), [{'relation': ref('typed_right'), 'alias': 'b'}], "
         "on=['k_int']) }}", "joins", "For a single join use skew_join"),
        (_chain().replace("columns=['a.id', 'b.rid', 'c.label']", "columns=['a.id', 'd.x']"), "columns",
         "uses the alias 'd'"),
        (_chain().replace("'on': [['k_int', 'k']]", "'on': [['k_str', 'k']]"), "joins[1].on",
         "every join of a chain is on the large side's same key"),
    ],
)
def test_the_chain_rules_are_clear_errors(
    renderer: Callable[..., Renderer], source: str, argument: str, expected: str
) -> None:
    r = renderer("typed_left", "typed_right", "spread_right", model="orders_chain")
    message = r.compile_error(source)
    assert_clear_compile_error(message, "skew_join_chain", "orders_chain", argument, expected)
    assert not any("sj_null_rows" in q or "select distinct" in q for q in r.spark.queries)


def test_other_adapters_get_a_clear_error(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", "spread_right", adapter_type="postgres", model="orders_chain")
    message = r.compile_error(_chain())
    assert_clear_compile_error(message, "skew_join_chain", "orders_chain", "adapter",
                               "skew_join_chain generates Spark SQL")  # fmt: skip

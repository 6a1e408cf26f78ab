"""Declared skew groups and hot keys verified against the data (no Spark): the
count queries, the share each must hold, what is dropped and the plan without
it, and the settings that turn it off. test_skew_join.py::test_verify_* and
test_hot_keys.py::test_verify_* run the same on Spark."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from .harness import Renderer, Result, Table, assert_clear_compile_error, decision_record, strip_record

# the package's default (the integration project turns it off for its small inputs)
DEFAULT: dict[str, Any] = {"skewjoin_verify": None}
VERIFY_QUERY = r"select\s+count\(\*\) as sj_rows,.*\) as sj_verify"


def _join(skew: str) -> str:
    return (
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], columns=['a.id', 'b.rid'], "
        f"skew={skew}) }}}}"
    )


def _counted(r: Renderer, rows: int, *groups: int) -> None:
    """Answer every verification query with `rows` rows and the given group counts."""
    names = ("sj_rows", *(f"sj_group_{i + 1}" for i in range(len(groups))))
    r.spark.answer(VERIFY_QUERY, Result(names, [(rows, *groups)]))


def _verify_queries(r: Renderer) -> list[str]:
    return [q for q in r.spark.queries if re.fullmatch(VERIFY_QUERY, q.strip(), re.S)]


def test_a_group_without_its_skew_is_dropped_and_the_plain_join_written(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _counted(r, 1_000_000, 12)
    sql = r.render(_join("{'groups': [{'when': 'a.k_int = 0', 'slots': 8}]}"))
    record = decision_record(sql, "skew_join")
    assert re.search(r"group 1 group_1 dropped: 0\.0% of a's rows \(12 of 1,000,000\), under 5% \(one slot's even "
                     r"share, 1/20 slots\): the data does not have the skew", record), record
    assert "strategy: plain join (no skew groups left after verification and no hot keys)" in record
    body = strip_record(sql)
    assert "sj_slot" not in body and "sj_group" not in body
    assert "from skewjoin_it.typed_left as a\ninner join skewjoin_it.typed_right as b\n    on a.k_int = b.k_int" in body
    assert any("group 1 group_1 dropped" in line for line in r.logs)


def test_a_group_holding_its_share_is_kept_as_declared(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _counted(r, 1000, 700)
    sql = r.render(_join("{'groups': [{'when': 'a.k_int = 0', 'slots': 8}]}"))
    record = decision_record(sql, "skew_join")
    assert "group 1 group_1 verified: 70.0% of a's rows (700 of 1,000) >= 5% (one slot's even share, 1/20 slots): " \
        "kept" in record
    assert "driver a, 8 slots -> slots #12-#19" in record
    assert "strategy: skew groups over a shuffle join on (keys, slot)" in record
    # the same SQL as with verification off, but for the record
    off = renderer("typed_left", "typed_right").render(_join("{'groups': [{'when': 'a.k_int = 0', 'slots': 8}]}"))
    assert strip_record(sql) == strip_record(off)


@pytest.mark.parametrize(("count", "kept"), [(49, False), (50, True)])
def test_the_share_is_one_slots_even_share_by_default(
    renderer: Callable[..., Renderer], count: int, kept: bool
) -> None:
    """20 slots: a group needs 1/20 = 5% of its driver's rows."""
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _counted(r, 1000, count)
    record = decision_record(r.render(_join("{'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}")), "skew_join")
    assert ("group 1 group_1 verified" in record) is kept
    assert ("group 1 group_1 dropped" in record) is not kept


def test_a_share_given_as_verify(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _counted(r, 1000, 90)
    sql = r.render(_join("{'verify': 0.1, 'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}"))
    assert "dropped: 9.0% of a's rows (90 of 1,000), under 10% (verify, from skew_join.verify)" in sql
    r = renderer("typed_left", "typed_right", vars={"skewjoin_verify": 0.05})
    _counted(r, 1000, 90)
    sql = r.render(_join("{'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}"))
    assert "verified: 9.0% of a's rows (90 of 1,000) >= 5% (verify, from var('skewjoin_verify'))" in sql


def test_the_groups_left_are_laid_out_again_keeping_their_numbers(renderer: Callable[..., Renderer]) -> None:
    """Group 1 (a's key 0) is stale, group 2 (b's key 5) holds 40% of b: group 2
    alone takes the last 6 slots, and rows of a's key 0 are ordinary rows."""
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    r.spark.answer(VERIFY_QUERY, lambda m: _side_counts(m.group(0)))
    sql = r.render(_join("{'groups': [{'when': 'a.k_int = 0', 'slots': 4}, {'when': 'b.k_int = 5', 'slots': 6}]}"))
    record = decision_record(sql, "skew_join")
    assert "group 1 group_1 dropped: 0.1% of a's rows (1 of 1,000)" in record
    assert "group 2 group_2 verified: 40.0% of b's rows (400 of 1,000)" in record
    assert "skew groups: 1, total slots 20" in record and "rows in no group: slots #0-#13" in record
    assert "group 2 group_2: when 'b.k_int = 5', driver b, 6 slots -> slots #14-#19" in record
    body = strip_record(sql)
    assert not re.search(r"\bthen 1\b|\bwhen 1 then\b", body), body
    assert re.search(r"case\s+when \(a\.k_int\) = 5 then 2\s+else 0\s+end as sj_group", body), body
    # one query per driving side, each counting its own groups, in the plan's order of `when`s
    queries = _verify_queries(r)
    assert len(queries) == 2
    a_query = next(q for q in queries if "from skewjoin_it.typed_left as a" in q)
    b_query = next(q for q in queries if "from skewjoin_it.typed_right as b" in q)
    assert "count_if(sj_group = 1) as sj_group_1" in a_query and "sj_group = 2" not in a_query
    assert "count_if(sj_group = 2) as sj_group_2" in b_query and "sj_group = 1)" not in b_query
    # b's rows of key 0 belong to group 1 first (first true `when`), as in the plan
    assert re.search(r"when \(b\.k_int\) = 0 then 1\s+when \(b\.k_int\) = 5 then 2\s+else 0", b_query), b_query


def _side_counts(query: str) -> Result:
    if "from skewjoin_it.typed_left as a" in query:
        return Result(("sj_rows", "sj_group_1"), [(1000, 1)])
    return Result(("sj_rows", "sj_group_2"), [(1000, 400)])


def test_an_empty_driver_drops_its_groups(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _counted(r, 0, 0)
    sql = r.render(_join("{'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}"))
    assert "group 1 group_1 dropped: 0% of a's rows (0 of 0)" in sql
    assert "sj_slot" not in strip_record(sql)


def test_hot_keys_stay_when_every_group_is_dropped(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _counted(r, 1000, 3)
    _hot_counted(r, 1000, 64, 700)
    sql = r.render(_join("{'hot_keys': [7], 'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}"))
    record = decision_record(sql, "skew_join")
    assert "group 1 group_1 dropped" in record
    assert "strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned" in record
    assert "sj_slot" not in strip_record(sql)


@pytest.mark.parametrize(
    ("vars", "skew", "said"),
    [
        ({"skewjoin_verify": False}, "{'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}",
         "skew groups not verified against the data (verify false, from var('skewjoin_verify'))"),
        (DEFAULT, "{'verify': false, 'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}",
         "skew groups not verified against the data (verify false, from skew_join.verify)"),
        ({**DEFAULT, "skewjoin_run_queries": False}, "{'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}",
         "skew groups not verified: counting their rows needs a query and run-time queries are off"),
    ],
    ids=["var_false", "spec_false", "queries_off"],
)  # fmt: skip
def test_no_count_when_verification_is_off(
    renderer: Callable[..., Renderer], vars: dict[str, Any], skew: str, said: str
) -> None:
    r = renderer("typed_left", "typed_right", vars=vars)
    sql = r.render(_join(skew))
    assert said in decision_record(sql, "skew_join")
    assert "sj_slot" in strip_record(sql)
    assert _verify_queries(r) == []


def test_no_count_where_the_skew_plans_are_declined(renderer: Callable[..., Renderer]) -> None:
    """A 2-core local Spark writes the plain join whatever the groups and hot keys: nothing to verify."""
    r = renderer("typed_left", "typed_right", vars={**DEFAULT, "skewjoin_min_parallelism": None})
    sql = r.render(_join("{'hot_keys': [7], 'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}"))
    assert "skew plans declined" in sql
    assert _verify_queries(r) == [] and _hot_queries(r) == []


def test_groups_are_counted_on_the_rows_the_hot_keys_leave(renderer: Callable[..., Renderer]) -> None:
    """Hot key 0 goes to the broadcast branch before the groups are formed, so the group of keys 0 and 5
    is counted without key 0's rows: 30 of 1,000, under 5%, dropped."""
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _hot_counted(r, 1000, 64, 700)
    _counted(r, 1000, 30)
    sql = r.render(_join("{'hot_keys': [0], 'groups': [{'when': 'a.k_int in (0, 5)', 'slots': 4}]}"))
    (query,) = _verify_queries(r)
    assert re.search(r"from skewjoin_it\.typed_left as a\s+where not coalesce\(a\.k_int in \(cast\(0 as int\)\), "
                     r"false\)\s+\) as sj_verify", query), query
    record = decision_record(sql, "skew_join")
    assert "hot key 0 of a verified" in record and "group 1 group_1 dropped: 3.0% of a's rows (30 of 1,000)" in record
    assert "strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned" in record


def test_the_share_is_printed_to_three_digits(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _counted(r, 1000, 123)
    sql = r.render(_join("{'total_slots': 8, 'groups': [{'when': 'a.k_int = 0', 'slots': 2}]}"))
    assert "dropped: 12.3% of a's rows (123 of 1,000), under 12.5% (one slot's even share, 1/8 slots)" in sql


def test_a_bad_group_is_refused_before_any_count(renderer: Callable[..., Renderer]) -> None:
    """The rules apply to every declared group, whether or not the data keeps it."""
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _counted(r, 1000, 0)
    message = r.compile_error(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left', "
        "skew={'groups': [{'when': 'b.k_int = 0', 'slots': 4}]}) }}"
    )
    assert "multicasts rows of a" in message
    assert _verify_queries(r) == []


@pytest.mark.parametrize("value", ["'yes'", "1.5", "0", "-0.1"])
def test_a_bad_verify_is_refused(renderer: Callable[..., Renderer], value: str) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    assert_clear_compile_error(
        r.compile_error(_join("{'verify': " + value + ", 'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}")),
        macro="skew_join",
        model="unit_model",
        argument="skew_join.verify",
        expected="verify (from skew_join.verify) is true, false or a share of a side's rows above 0 and below 1",
    )


def test_the_chain_verifies_its_groups(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", "spread_right", vars=DEFAULT)
    _counted(r, 1000, 2)
    sql = r.render(
        "{{ skewjoin.skew_join_chain(ref('typed_left'), [{'relation': ref('typed_right'), 'alias': 'b'}, "
        "{'relation': ref('spread_right'), 'alias': 'c', 'on': [['k_int', 'k']]}], on=['k_int'], "
        "columns=['a.id', 'b.rid', 'c.label'], skew={'groups': [{'when': 'a.k_int = 0', 'slots': 6}]}) }}"
    )
    record = decision_record(sql, "skew_join_chain")
    assert "group 1 group_1 dropped: 0.2% of a's rows (2 of 1,000)" in record
    assert "strategy: the plain chain of joins (no skew groups left after verification and no hot keys)" in record
    assert "sj_slot" not in strip_record(sql)


def test_auto_groups_are_not_counted_again(renderer: Callable[..., Renderer]) -> None:
    """'auto' plans its groups from the counts it has just measured (test_skew_auto.py's case of a key hot
    on both sides over the broadcast budget)."""
    left = [(i, 0) for i in range(600)] + [(700 + i, i % 50 + 1) for i in range(400)]
    right = [(k, f"k{k}") for k in range(1, 60)] + [(0, f"zero{i}") for i in range(200)]
    tables = {
        "skewjoin_it.spread_left": Table([("id", "bigint"), ("k", "int")], rows=left, splits=4),
        "skewjoin_it.spread_right": Table([("k", "int"), ("label", "string")], rows=right, splits=1),
    }
    r = renderer(extra_tables=tables, vars=DEFAULT,
                 config={"skew_join": {"auto": {"max_broadcast_rows": 100, "total_slots": 20}}})  # fmt: skip
    sql = r.render("{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k']) }}")
    assert "group 1 group_1: when 'a.k = 0', driver a" in decision_record(sql, "skew_join")
    assert "verified" not in sql and "not verified" not in sql
    assert _verify_queries(r) == []


# -- declared hot keys ---------------------------------------------------------------------

HOT_QUERY = r"select\s+count\(\*\) as sj_rows,\s+count\(distinct sj_split\) as sj_splits,.*"


def _hot_counted(r: Renderer, rows: int, splits: int, *keys: int) -> None:
    names = ("sj_rows", "sj_splits", *(f"sj_hot_{i + 1}" for i in range(len(keys))))
    r.spark.answer(HOT_QUERY, Result(names, [(rows, splits, *keys)]))


def _hot_queries(r: Renderer) -> list[str]:
    return [q for q in r.spark.queries if re.fullmatch(HOT_QUERY, q.strip(), re.S)]


def test_stale_hot_keys_are_dropped_and_the_plain_join_written(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _hot_counted(r, 1_000_000, 64, 9, 11)
    sql = r.render(_join("{'hot_keys': [0, 1]}"))
    record = decision_record(sql, "skew_join")
    assert re.search(r"hot key 0 of a dropped: 0\.0% of a's rows \(9 of 1,000,000\), under 5% \(one slot's even "
                     r"share, 1/20 slots\): the data does not have the skew it was declared for", record), record
    assert "hot key 1 of a dropped: 0.0% of a's rows (11 of 1,000,000)" in record
    assert "hot keys of a (declared): none" in record
    assert "strategy: plain join (no skew groups, hot keys dropped after verification)" in record
    assert "broadcast" not in strip_record(sql) and "union all" not in strip_record(sql)
    (query,) = _hot_queries(r)
    assert "count_if(coalesce(a.k_int in (cast(0 as int)), false)) as sj_hot_1" in query
    assert "count_if(coalesce(a.k_int in (cast(1 as int)), false)) as sj_hot_2" in query
    assert "from skewjoin_it.typed_left as a" in query


def test_hot_keys_holding_their_share_are_kept_and_their_splits_read_once(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _hot_counted(r, 1000, 64, 700, 3)
    sql = r.render(_join("{'hot_keys': [0, 1]}"))
    record = decision_record(sql, "skew_join")
    assert "hot key 0 of a verified: 70.0% of a's rows (700 of 1,000) >= 5% (one slot's even share, 1/20 slots): " \
        "kept" in record
    assert "hot key 1 of a dropped: 0.3% of a's rows (3 of 1,000)" in record
    assert "hot keys of a (declared): 0" in record
    assert "strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned" in record
    # the splits the spread rule reads come from the same query: no second scan
    assert "its input has 64 splits" in record
    assert len(_hot_queries(r)) == 1 and not any("sj_probe" in q for q in r.spark.queries)
    body = strip_record(sql)
    assert "coalesce(a.k_int in (cast(0 as int)), false)" in body and "cast(1 as int)" not in body


def test_multi_column_hot_keys_are_counted_per_tuple(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    _hot_counted(r, 1000, 64, 500)
    r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int', 'k_str'], "
        "columns=['a.id', 'b.rid'], skew={'hot_keys': [[0, \"it's\"]]}) }}"
    )
    (query,) = _hot_queries(r)
    assert "count_if(coalesce((a.k_int = cast(0 as int) and a.k_str = 'it\\'s'), false)) as sj_hot_1" in query, query


@pytest.mark.parametrize(
    ("vars", "said"),
    [
        ({"skewjoin_verify": False}, "hot keys of a not verified against the data (verify false, from "
                                     "var('skewjoin_verify'))"),
        ({**DEFAULT, "skewjoin_run_queries": False}, "hot keys of a not verified: counting their rows needs a query"),
    ],
    ids=["var_false", "queries_off"],
)  # fmt: skip
def test_no_hot_key_count_when_verification_is_off(
    renderer: Callable[..., Renderer], vars: dict[str, Any], said: str
) -> None:
    r = renderer("typed_left", "typed_right", vars=vars, conf={"spark.default.parallelism": "64"})
    r.spark.answer(r"select count\(distinct sj_split\) as sj_splits.*", Result(("sj_splits",), [(64,)]))
    sql = r.render(_join("{'hot_keys': [0, 1]}"))
    assert said in decision_record(sql, "skew_join")
    assert "hot keys of a (declared): 0; 1" in sql
    assert _hot_queries(r) == []


def test_auto_hot_keys_are_not_counted_again(renderer: Callable[..., Renderer]) -> None:
    left = [(i, 0) for i in range(600)] + [(700 + i, i % 50 + 1) for i in range(400)]
    tables = {
        "skewjoin_it.spread_left": Table([("id", "bigint"), ("k", "int")], rows=left, splits=4),
        "skewjoin_it.spread_right": Table([("k", "int"), ("label", "string")],
                                          rows=[(k, f"k{k}") for k in range(60)], splits=1),
    }  # fmt: skip
    r = renderer(extra_tables=tables, vars=DEFAULT, config={"skew_join": "auto"})
    sql = r.render("{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k']) }}")
    assert "hot keys of a (planned from the measured counts): 0" in sql
    assert _hot_queries(r) == [] and "verified" not in sql

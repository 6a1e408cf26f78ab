"""Declared skew groups and hot keys verified against the data (no Spark): the
count queries, the share each must hold, what is dropped and the plan without
it, and the settings that turn it off. test_skew_join.py::test_verify_* and
test_hot_keys.py::test_verify_* run the same on Spark."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from .cases import ErrorCase, params
from .golden import check_expected
from .harness import Renderer, assert_clear_compile_error, decision_record, strip_record
from .model_cases import HOT_QUERY, VERIFY_DEFAULT, VERIFY_QUERY, counted, render, vjoin

DEFAULT: dict[str, Any] = VERIFY_DEFAULT
_join = vjoin


def _verify_queries(r: Renderer) -> list[str]:
    return [q for q in r.spark.queries if re.fullmatch(VERIFY_QUERY, q.strip(), re.S)]


def _hot_queries(r: Renderer) -> list[str]:
    return [q for q in r.spark.queries if re.fullmatch(HOT_QUERY, q.strip(), re.S)]


def test_a_group_without_its_skew_is_dropped_and_the_plain_join_written() -> None:
    case = render("verify_group_dropped")
    r, sql = case.renderer, case.sql
    record = decision_record(sql, "skew_join")
    assert "group 1 group_1 dropped" in record and "strategy: plain join" in record
    body = strip_record(sql)
    assert "sj_slot" not in body and "sj_group" not in body
    assert "from skewjoin_it.typed_left as a\ninner join skewjoin_it.typed_right as b\n    on a.k_int = b.k_int" in body
    assert any("group 1 group_1 dropped" in line for line in r.logs)


def test_a_group_holding_its_share_is_kept_as_declared() -> None:
    sql = render("verify_group_kept").sql
    record = decision_record(sql, "skew_join")
    assert "group 1 group_1 verified" in record and "strategy: skew groups" in record
    # the same SQL as with verification off, but for the record
    off = render("verify_off_group_as_declared").sql
    assert strip_record(sql) == strip_record(off)


@pytest.mark.parametrize(("count", "kept"), [(49, False), (50, True)])
def test_the_share_is_one_slots_even_share_by_default(count: int, kept: bool) -> None:
    """20 slots: a group needs 1/20 = 5% of its driver's rows."""
    record = decision_record(render(f"verify_share_{count}_of_1000").sql, "skew_join")
    assert ("group 1 group_1 verified" in record) is kept
    assert ("group 1 group_1 dropped" in record) is not kept


def test_a_share_given_as_verify() -> None:
    assert "group 1 group_1 dropped" in render("verify_share_from_spec").sql
    assert "group 1 group_1 verified" in render("verify_share_from_var").sql


def test_the_groups_left_are_laid_out_again_keeping_their_numbers() -> None:
    """Group 1 (a's key 0) is stale, group 2 (b's key 5) holds 40% of b: group 2
    alone takes the last 6 slots, and rows of a's key 0 are ordinary rows."""
    case = render("verify_groups_laid_out_again")
    r, sql = case.renderer, case.sql
    record = decision_record(sql, "skew_join")
    assert "group 1 group_1 dropped" in record and "group 2 group_2 verified" in record
    assert "rows in no group: slots #0-#13" in record
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


def test_an_empty_driver_drops_its_groups() -> None:
    sql = render("verify_empty_driver").sql
    assert "group 1 group_1 dropped" in sql
    assert "sj_slot" not in strip_record(sql)


def test_hot_keys_stay_when_every_group_is_dropped() -> None:
    sql = render("verify_hot_keys_stay_groups_dropped").sql
    record = decision_record(sql, "skew_join")
    assert "group 1 group_1 dropped" in record
    assert "strategy: hot keys" in record
    assert "sj_slot" not in strip_record(sql)


@pytest.mark.parametrize("case_id", ["verify_off_var_false", "verify_off_spec_false", "verify_off_queries_off"])
def test_no_count_when_verification_is_off(case_id: str) -> None:
    case = render(case_id)
    assert "skew groups not verified" in decision_record(case.sql, "skew_join")
    assert "sj_slot" in strip_record(case.sql)
    assert _verify_queries(case.renderer) == []


def test_no_count_where_the_skew_plans_are_declined() -> None:
    """A 2-core local Spark writes the plain join whatever the groups and hot keys: nothing to verify."""
    case = render("verify_declined")
    r, sql = case.renderer, case.sql
    assert "skew plans declined" in sql
    assert _verify_queries(r) == [] and _hot_queries(r) == []


def test_groups_are_counted_on_the_rows_the_hot_keys_leave() -> None:
    """Hot key 0 goes to the broadcast branch before the groups are formed, so the group of keys 0 and 5
    is counted without key 0's rows: 30 of 1,000, under 5%, dropped."""
    case = render("verify_groups_after_hot_keys")
    r, sql = case.renderer, case.sql
    (query,) = _verify_queries(r)
    assert re.search(r"from skewjoin_it\.typed_left as a\s+where not coalesce\(a\.k_int in \(cast\(0 as int\)\), "
                     r"false\)\s+\) as sj_verify", query), query
    record = decision_record(sql, "skew_join")
    assert "hot key 0 of a verified" in record and "group 1 group_1 dropped" in record
    assert "strategy: hot keys" in record


def test_the_share_is_printed_to_three_digits() -> None:
    sql = render("verify_share_three_digits").sql
    assert "12.3%" in sql and "12.5%" in sql


def test_a_bad_group_is_refused_before_any_count(renderer: Callable[..., Renderer]) -> None:
    """The rules apply to every declared group, whether or not the data keeps it."""
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    counted(1000, 0)(r)
    message = r.compile_error(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left', "
        "skew={'groups': [{'when': 'b.k_int = 0', 'slots': 4}]}) }}"
    )
    assert "multicasts rows of a" in message
    assert _verify_queries(r) == []


# ErrorCase.args: the value of skew_join.verify
CASES = [ErrorCase(id_, value, "skew_join.verify", "verify (from skew_join.verify)")
         for id_, value in (("text", "'yes'"), ("over_1", "1.5"), ("zero", "0"), ("negative", "-0.1"))]  # fmt: skip


@pytest.mark.parametrize("case", params(CASES))
def test_a_bad_verify_is_refused(renderer: Callable[..., Renderer], case: ErrorCase, rewrite_expected: bool) -> None:
    r = renderer("typed_left", "typed_right", vars=DEFAULT)
    message = r.compile_error(_join("{'verify': " + case.args + ", 'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}"))
    assert_clear_compile_error(message, macro="skew_join", model="unit_model", argument=case.argument,
                               expected=case.expected)  # fmt: skip
    check_expected(f"errors/verify/{case.id}.txt", message + "\n", rewrite_expected)


def test_the_chain_verifies_its_groups() -> None:
    sql = render("verify_chain").sql
    record = decision_record(sql, "skew_join_chain")
    assert "group 1 group_1 dropped" in record
    assert "strategy: the plain chain of joins" in record
    assert "sj_slot" not in strip_record(sql)


def test_auto_groups_are_not_counted_again() -> None:
    """'auto' plans its groups from the counts it has just measured (test_skew_auto.py's case of a key hot
    on both sides over the broadcast budget)."""
    case = render("verify_auto_groups_not_counted")
    r, sql = case.renderer, case.sql
    assert "group 1 group_1: when 'a.k = 0', driver a" in decision_record(sql, "skew_join")
    assert "verified" not in sql and "not verified" not in sql
    assert _verify_queries(r) == []


# -- declared hot keys ---------------------------------------------------------------------

def test_stale_hot_keys_are_dropped_and_the_plain_join_written() -> None:
    case = render("verify_hot_stale_dropped")
    r, sql = case.renderer, case.sql
    record = decision_record(sql, "skew_join")
    assert "hot key 0 of a dropped" in record and "hot key 1 of a dropped" in record
    assert "hot keys of a (declared): none" in record
    assert "strategy: plain join" in record
    assert "broadcast" not in strip_record(sql) and "union all" not in strip_record(sql)
    (query,) = _hot_queries(r)
    assert "count_if(coalesce(a.k_int in (cast(0 as int)), false)) as sj_hot_1" in query
    assert "count_if(coalesce(a.k_int in (cast(1 as int)), false)) as sj_hot_2" in query
    assert "from skewjoin_it.typed_left as a" in query


def test_hot_keys_holding_their_share_are_kept_and_their_splits_read_once() -> None:
    case = render("verify_hot_kept")
    r, sql = case.renderer, case.sql
    record = decision_record(sql, "skew_join")
    assert "hot key 0 of a verified" in record and "hot key 1 of a dropped" in record
    assert "hot keys of a (declared): 0\n" in record
    assert "strategy: hot keys" in record
    # the splits the spread rule reads come from the same query: no second scan
    assert "its input has 64 splits" in record
    assert len(_hot_queries(r)) == 1 and not any("sj_probe" in q for q in r.spark.queries)
    body = strip_record(sql)
    assert "coalesce(a.k_int in (cast(0 as int)), false)" in body and "cast(1 as int)" not in body


def test_multi_column_hot_keys_are_counted_per_tuple() -> None:
    r = render("verify_hot_multi_column").renderer
    (query,) = _hot_queries(r)
    assert "count_if(coalesce((a.k_int = cast(0 as int) and rtrim(a.k_str) = rtrim(concat('it', chr(39), 's'))), false)) as sj_hot_1" in query, query


@pytest.mark.parametrize("case_id", ["verify_hot_off_var_false", "verify_hot_off_queries_off"])
def test_no_hot_key_count_when_verification_is_off(case_id: str) -> None:
    case = render(case_id)
    assert "hot keys of a not verified" in decision_record(case.sql, "skew_join")
    assert "hot keys of a (declared): 0; 1" in case.sql
    assert _hot_queries(case.renderer) == []


def test_auto_hot_keys_are_not_counted_again() -> None:
    case = render("verify_auto_hot_keys_not_counted")
    r, sql = case.renderer, case.sql
    assert "hot keys of a (planned from the measured counts): 0" in sql
    assert _hot_queries(r) == [] and "verified" not in sql

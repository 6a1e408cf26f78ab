"""skew_join says what it did where a user could be surprised (no Spark):
groups that hot keys leave empty, the copies a group makes, and compiling
with compile-time queries off."""

from __future__ import annotations

from collections.abc import Callable

from .harness import Renderer
from .model_cases import render

CALL = "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left', skew=%s) }}"


def test_a_group_whose_keys_are_all_hot_is_said_and_warned() -> None:
    case = render("use_group_all_keys_hot")
    r, sql = case.renderer, case.sql
    record = sql[: sql.index("*/")]
    assert "WARNING group 1 group_1 can receive no rows" in record
    assert len(r.warnings) == 1 and "can receive no rows" in r.warnings[0], r.warnings


def test_a_group_that_loses_some_keys_to_hot_keys_is_said() -> None:
    case = render("use_group_some_keys_hot")
    r, sql = case.renderer, case.sql
    record = sql[: sql.index("*/")]
    assert "group 1 group_1: its keys 0 are hot keys" in record
    assert "can receive no rows" not in record and r.warnings == []


def test_groups_apart_from_hot_keys_draw_no_warning() -> None:
    case = render("use_group_apart_from_hot_keys")
    r, sql = case.renderer, case.sql
    assert "hot key" in sql and "can receive no rows" not in sql and r.warnings == []


def test_the_record_states_the_copies_a_group_makes() -> None:
    sql = render("use_group_copies").sql
    assert "b rows of the group multicast x5" in sql


def test_no_run_time_queries_gives_the_plain_join_for_auto() -> None:
    case = render("use_no_queries_auto")
    r, sql = case.renderer, case.sql
    assert "hot keys of a not measured" in sql and "strategy: plain join" in sql
    data_queries = [q for q in r.spark.queries if not q.lower().startswith(("describe query", "set "))]
    assert data_queries == [], data_queries


def test_no_run_time_queries_never_probes_splits_for_a_spread() -> None:
    case = render("use_no_queries_no_spread_probe")
    r, sql = case.renderer, case.sql
    assert "repartition" not in sql
    data_queries = [q for q in r.spark.queries if not q.lower().startswith(("describe query", "set "))]
    assert data_queries == [], data_queries


def test_a_data_query_past_the_switch_is_refused(renderer: Callable[..., Renderer]) -> None:
    """Every compile-time query goes through _sj_run_query: with compile-time queries off a
    metadata read runs, and a data read is refused (a caller that forgot the switch)."""
    r = renderer("typed_left", vars={"skewjoin_run_queries": False})
    r.render("{{ skewjoin._sj_run_query('set spark.sql.shuffle.partitions', 'metadata') }}")
    assert r.spark.queries == ["set spark.sql.shuffle.partitions"]
    message = r.compile_error("{{ skewjoin._sj_run_query('select count(*) from skewjoin_it.typed_left') }}")
    assert "compile-time queries off" in message and "bug in skewjoin" in message
    assert r.spark.queries == ["set spark.sql.shuffle.partitions"]


def test_a_keys_group_of_one_key_is_said_not_to_spread(renderer: Callable[..., Renderer]) -> None:
    """A full outer join's refusal offers distribute: 'keys'; for one heavy key that spreads nothing, and the
    record and the log say so and point at hot keys."""
    case = render("use_keys_group_of_one_key")
    assert "selects one key" in case.sql
    assert len(case.renderer.warnings) == 1 and "declare it in hot_keys" in case.renderer.warnings[0], case.renderer.warnings
    r = renderer("typed_left", "typed_right", vars={"skewjoin_total_slots": 20})
    message = r.compile_error(CALL.replace("join_type='left'", "join_type='full'")
                              % "{'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}")
    assert "to spread one heavy key, declare it in hot_keys instead" in message, message


def test_a_keys_group_of_many_keys_draws_no_warning() -> None:
    case = render("use_keys_group_of_many_keys")
    r, sql = case.renderer, case.sql
    assert "selects one key" not in sql and r.warnings == []


def test_a_missing_key_column_is_suggested_from_the_columns_already_read(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right")
    message = r.compile_error("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['nope']) }}")
    assert "Right form, for example: on=[[" in message, message
    describes = [q for q in r.spark.queries if q.lower().startswith("describe query")]
    assert len(describes) == 2, r.spark.queries

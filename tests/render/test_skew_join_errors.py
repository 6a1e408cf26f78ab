"""skew_join: every bad input is a clear compile error (no Spark).

Each case renders ``skewjoin.skew_join(ref('typed_left'), ref('typed_right'),
<args>)`` (``on=['k_int']`` unless the case sets ``on``) and expects the
message to name the macro, the model, the argument, the problem and the
right form. To add a case, add a row.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .cases import ErrorCase, params
from .golden import check_expected
from .harness import Renderer, Table, assert_clear_compile_error

G = "skew_join.groups[0]"

CASES = [
    ErrorCase("when_both_sides", "skew={'groups': [{'when': 'a.k_int = b.k_int', 'slots': 2}]}", f"{G}.when", "references both sides"),
    ErrorCase("when_no_side", "skew={'groups': [{'when': '1 = 1', 'slots': 2}]}", f"{G}.when", "references no side"),
    ErrorCase("when_non_key", "skew={'groups': [{'when': \"a.payload = 'x'\", 'slots': 2}]}", f"{G}.when", "which is not a join key"),
    ErrorCase("when_nondeterministic", "skew={'groups': [{'when': 'a.k_int = 0 and rand() < 0.5', 'slots': 2}]}", f"{G}.when", "non-deterministic"),
    ErrorCase("when_backticked_rand", "skew={'groups': [{'when': 'a.k_int = 0 and `rand`() < 0.5', 'slots': 2}]}", f"{G}.when", "non-deterministic"),
    ErrorCase("when_qualified_rand", "skew={'groups': [{'when': 'a.k_int = 0 and system.builtin.rand() < 0.5', 'slots': 2}]}", f"{G}.when", "non-deterministic"),
    ErrorCase("when_raw_literal", r"""skew={'groups': [{'when': "a.k_str = r'\\' or a.k_str in (select 'x') or a.k_str = '\\''", 'slots': 2}]}""", f"{G}.when", "holds a subquery"),
    ErrorCase("when_unknown_alias", "skew={'groups': [{'when': 'c.k_int = 0', 'slots': 2}]}", f"{G}.when", "unknown alias 'c'"),
    ErrorCase("when_bare_column", "skew={'groups': [{'when': 'k_int = 0', 'slots': 2}]}", f"{G}.when", "without an alias"),
    ErrorCase("when_statement_end", "skew={'groups': [{'when': 'a.k_int = 0; drop table x', 'slots': 2}]}", f"{G}.when", "may not end the statement"),
    ErrorCase("when_comment", "skew={'groups': [{'when': 'a.k_int = 0 -- x', 'slots': 2}]}", f"{G}.when", "contains `--` outside a string literal"),
    ErrorCase("when_subquery", "skew={'groups': [{'when': 'a.k_int in (select 1)', 'slots': 2}]}", f"{G}.when", "holds a subquery"),
    ErrorCase("when_unbalanced", "skew={'groups': [{'when': '(a.k_int = 0', 'slots': 2}]}", f"{G}.when", "unbalanced parentheses"),
    ErrorCase("when_unterminated_literal", "skew={'groups': [{'when': \"a.k_str = 'x\", 'slots': 2}]}", f"{G}.when", "unterminated string literal"),
    ErrorCase("when_missing", "skew={'groups': [{'slots': 2}]}", f"{G}.when", "every group needs a `when`"),
    ErrorCase("percent_over_100", "skew={'groups': [{'when': 'a.k_int = 0', 'percent': 150}]}", f"{G}.percent", "at most 100"),
    ErrorCase("percents_add_over_100", "skew={'groups': [{'when': 'a.k_int = 0', 'percent': 60}, {'when': 'a.k_int = 1', 'percent': 50}]}", "skew_join.groups", "over 100%"),
    ErrorCase("group_no_slot", "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 0}]}", f"{G}.slots", "at least one slot"),
    ErrorCase("group_no_size", "skew={'groups': [{'when': 'a.k_int = 0'}]}", G, "needs a size"),
    ErrorCase("group_slots_and_percent", "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2, 'percent': 10}]}", G, "either slots or percent, not both"),
    ErrorCase("groups_take_all_slots", "skew={'total_slots': 4, 'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}", "skew_join.total_slots", "at least one slot must stay"),
    ErrorCase("distribute_other_side", "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2, 'distribute': 'b.attr'}]}", f"{G}.distribute", "same side"),
    ErrorCase("distribute_constant", "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2, 'distribute': '42'}]}", f"{G}.distribute", "references no column of the driver side a"),
    ErrorCase("unknown_spec_key", "skew={'grups': []}", "skew_join", "unknown key 'grups'"),
    ErrorCase("spec_not_a_mapping", "skew=['a.k_int = 0']", "skew_join", "the skew specification must be 'auto' or a mapping"),
    ErrorCase("unknown_group_key", "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2, 'size': 3}]}", G, "unknown key 'size'"),
    ErrorCase("bad_join_type", "join_type='cross', skew={'groups': []}", "join_type", "unknown join type 'cross'"),
    ErrorCase("left_join_multicasts_preserved", "join_type='left', skew={'groups': [{'when': 'b.k_int = 0', 'slots': 3}]}", G, "split only the preserved side"),
    ErrorCase("full_join_random", "join_type='full', skew={'groups': [{'when': 'a.k_int = 0', 'slots': 3}]}", G, "distribute: 'keys'"),
    ErrorCase("semi_selects_right", "join_type='left semi', columns=['a.id', 'b.rid']", "columns", "returns only the rows of a"),
    ErrorCase("columns_unknown_alias", "columns=['x.id']", "columns", "uses the alias 'x'"),
    ErrorCase("columns_unknown_column", "columns=['a.nope']", "columns", "a has no column 'nope'"),
    ErrorCase("same_aliases", "left_alias='x', right_alias='x'", "right_alias", "the two sides need different aliases"),
    ErrorCase("alias_sj_prefix", "left_alias='sj_a'", "left_alias", "not starting with sj_"),
    ErrorCase("on_empty", "on=[]", "on", "expected a non-empty list"),
    ErrorCase("on_unknown_left_column", "on=['nope']", "on", "'nope' is not a column of the left side (a)"),
    ErrorCase("on_unknown_right_column", "on=[['k_int', 'nope']]", "on", "'nope' is not a column of the right side (b)"),
    # a column of one side only: its right form pairs it with the other side's nearest column of the same kind
    # (it paired a bigint id with a string name: Spark compares them, but they are no key of one join)
    ErrorCase("on_column_of_the_right_only", "on=['attr']", "on", "Right form, for example: on=[['k_str', 'attr']]"),
    ErrorCase("on_column_of_the_left_only", "on=['payload']", "on", "Right form, for example: on=[['payload', 'region']]"),
    ErrorCase("on_types_not_comparable", "on=[['k_date', 'k_int']]", "on", "have types Spark cannot compare consistently (ANSI mode on)"),
    ErrorCase("hot_key_arity", "on=['k_int', 'region'], skew={'hot_keys': [0]}", "skew_join.hot_keys", "wrong arity"),
    ErrorCase("hot_key_type", "skew={'hot_keys': ['zero']}", "skew_join.hot_keys", "is not a valid int"),
    ErrorCase("hot_key_out_of_range", "skew={'hot_keys': [7, 3000000000]}", "skew_join.hot_keys", "3000000000 is not a valid int"),
    ErrorCase("hot_key_decimal_too_wide", "on=[['k_dec', 'k_dec2']], skew={'hot_keys': ['0.5', '123456789012345.5']}", "skew_join.hot_keys", "is not a valid decimal(18,4)"),
    ErrorCase("hot_key_decimal_rounds_past_precision", "on=[['k_dec', 'k_dec2']], skew={'hot_keys': ['99999999999999.99995']}", "skew_join.hot_keys", "is not a valid decimal(18,4)"),
    ErrorCase("hot_key_not_a_date", "on=['k_date'], skew={'hot_keys': ['2024-01-02', '2023-02-29']}", "skew_join.hot_keys", "2023-02-29 is not a valid date"),
    ErrorCase("hot_key_not_a_timestamp", "on=['k_ts'], skew={'hot_keys': ['2024-02-29 10:00:00', '2023-02-29 10:00:00']}", "skew_join.hot_keys", "2023-02-29 10:00:00 is not a valid timestamp"),
    ErrorCase("hot_key_timestamp_clock", "on=['k_ts'], skew={'hot_keys': ['2024-01-01 24:00:00']}", "skew_join.hot_keys", "2024-01-01 24:00:00 is not a valid timestamp"),
    ErrorCase("hot_key_timestamp_text", "on=['k_ts'], skew={'hot_keys': ['not a time']}", "skew_join.hot_keys", "not a time is not a valid timestamp"),
    ErrorCase("hot_key_side", "skew={'hot_keys': {'c': [0]}}", "skew_join.hot_keys", "is not a side"),
    ErrorCase("hot_keys_not_a_list", "skew={'hot_keys': {'a': 'some'}}", "skew_join.hot_keys", "are a list of values or 'auto'"),
    ErrorCase("hot_min_share", "skew={'hot_keys': 'auto', 'hot_keys_options': {'min_share': 2}}", "skew_join.hot_keys_options.min_share", "min_share is a fraction"),
    ErrorCase("hot_unknown_option", "skew={'hot_keys': [0], 'hot_keys_options': {'share': 0.1}}", "skew_join.hot_keys_options", "unknown key 'share'"),
    ErrorCase("hot_spread", "skew={'hot_keys': [0], 'hot_keys_options': {'spread': 'sometimes'}}", "skew_join.hot_keys_options.spread", "spread is one of auto, always, never"),
    ErrorCase("hot_max_broadcast_rows", "skew={'hot_keys': {'a': 'auto', 'b': 'auto'}, 'hot_keys_options': {'max_broadcast_rows': -1}}", "skew_join.hot_keys_options.max_broadcast_rows", "max_broadcast_rows, a whole number of rows >= 0 is expected; got -1"),
    ErrorCase("total_slots_bad", "skew={'total_slots': 1, 'groups': [{'when': 'a.k_int = 0', 'slots': 1}]}", "skew_join.total_slots", "a whole number >= 2 is expected; got 1"),
    ErrorCase("total_slots_var_bad", "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 1}]}", "skew_join.total_slots",
              "total_slots (from var('skewjoin_total_slots')), a whole number >= 2 is expected; got many",
              vars={"skewjoin_total_slots": "many"}),
    ErrorCase("min_parallelism_bad", "skew={'hot_keys': [0], 'min_parallelism': 0}", "skew_join.min_parallelism", "min_parallelism, a whole number >= 1 is expected; got 0"),
    ErrorCase("min_parallelism_var_bad", "skew={'hot_keys': [0]}", "skew_join.min_parallelism",
              "min_parallelism (from var('skewjoin_min_parallelism')), a whole number >= 1 is expected; got few",
              vars={"skewjoin_min_parallelism": "few"}),
    ErrorCase("distribute_typo", "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2, 'distribute': 'ranodm'}]}", f"{G}.distribute", "(did you mean 'random'?)"),
    ErrorCase("hot_keys_auto_typo", "skew={'hot_keys': 'atuo'}", "skew_join.hot_keys", "(did you mean 'auto'?)"),
    ErrorCase("spread_typo", "skew={'hot_keys': [0], 'hot_keys_options': {'spread': 'alway'}}", "skew_join.hot_keys_options.spread", "(did you mean 'always'?)"),
    ErrorCase("spec_key_typo", "skew={'grups': []}", "skew_join", "unknown key 'grups' (did you mean 'groups'?)"),
    ErrorCase("join_type_typo", "join_type='lfet'", "join_type", "unknown join type 'lfet' (did you mean 'left'?)"),
    ErrorCase("argument_typo", "join_tpye='left'", "join_tpye", "no such argument (did you mean 'join_type'?)"),
    ErrorCase("columns_bare_star", "columns=['*']", "columns", "selects every column of both sides without an alias"),
    ErrorCase("columns_star_except", "columns=['* except (payload)']", "columns", "selects every column of both sides without an alias"),
    ErrorCase("columns_aggregate", "columns=['max(a.id) as m']", "columns", "calls max(), an aggregate"),
    ErrorCase("columns_count_star", "columns=['a.id', 'count(*) as n']", "columns", "calls count(), an aggregate"),
    ErrorCase("columns_theta_sketch", "columns=['theta_sketch_estimate(theta_sketch_agg(a.id)) as n']", "columns",
              "calls theta_sketch_agg(), an aggregate"),
    ErrorCase("columns_kll_sketch", "columns=['kll_sketch_get_n_bigint(kll_sketch_agg_bigint(a.id)) as n']", "columns",
              "calls kll_sketch_agg_bigint(), an aggregate"),
    ErrorCase("columns_qualified_agg", "columns=['builtin.tuple_union_agg_double(b.v) as n']", "columns",
              "calls tuple_union_agg_double(), an aggregate"),
    ErrorCase("columns_vector_sum", "columns=['vector_sum(array(a.v)) as n']", "columns", "calls vector_sum(), an aggregate"),
    ErrorCase("columns_distinct", "columns=['distinct b.k_int']", "columns",
              "starts with DISTINCT; a skew plan joins in several branches and each would drop its own duplicates"),
    ErrorCase("columns_distinct_later", "columns=['a.id', ' DISTINCT b.k_int']", "columns", "starts with DISTINCT"),
    ErrorCase("argument_unknown", "salt=8", "salt", "no such argument; the arguments of skew_join are left, right, on,"),
    ErrorCase("config_unknown_key", "", "skew_join", "unknown key 'group'", config={"skew_join": {"group": []}}),
    ErrorCase("config_group_error", "", f"{G}.when", "references both sides",
              config={"skew_join": {"groups": [{"when": "a.k_int = b.k_int", "slots": 2}]}}),
]  # fmt: skip


@pytest.mark.parametrize("case", params(CASES))
def test_bad_input_is_a_clear_compile_error(renderer: Callable[..., Renderer], case: ErrorCase, rewrite_expected: bool) -> None:
    args = case.args if case.args.startswith("on=") else "on=['k_int']" + (", " + case.args if case.args else "")
    r = renderer("typed_left", "typed_right", config=case.config, vars=case.vars, model="sj_bad_" + case.id)
    message = r.compile_error("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), " + args + ") }}")
    assert_clear_compile_error(message, "skew_join", "sj_bad_" + case.id, case.argument, case.expected)
    check_expected(f"errors/skew_join/{case.id}.txt", message + "\n", rewrite_expected)


@pytest.mark.parametrize("skew", ["'auto'", "{'hot_keys': {'a': 'auto'}}", "{'hot_keys': ['[1, 2]']}"])
def test_a_key_of_a_complex_type_has_no_hot_key(renderer: Callable[..., Renderer], skew: str) -> None:
    """'auto' and declared hot keys write literals of the key's type: an array has none (Spark's cast of its
    text failed when the model ran, or in a compile-time query), so they are refused before any query."""
    r = renderer(extra_tables={"l": Table([("k", "array<bigint>"), ("id", "int")]),
                               "r": Table([("k", "array<bigint>"), ("w", "string")])}, model="arrays")  # fmt: skip
    message = r.compile_error(f"{{{{ skewjoin.skew_join('l', 'r', on=['k'], skew={skew}) }}}}")
    argument = "skew_join" if skew == "'auto'" else "skew_join.hot_keys"
    expected = "is not a valid array<bigint>" if "'[1" in skew else "a type with no literal"
    assert_clear_compile_error(message, "skew_join", "arrays", argument, expected)
    assert r.spark.queries == [] or all("describe" in q.lower() or q.lower().startswith("set") for q in r.spark.queries)


@pytest.mark.parametrize(
    ("key_type", "value"),
    [("decimal(5,1)", "'1.15'"), ("decimal(5,1)", "'0.05'"), ("float", "'1e300'"), ("float", "'-3.5e38'"),
     ("float", "'3.4028236E38'"), ("float", "'1e-50'"), ("float", "'1e-46'"), ("double", "'1e309'"),
     ("double", "'1e-330'")],
)
def test_a_hot_key_the_cast_would_change_is_refused(renderer: Callable[..., Renderer], key_type: str, value: str) -> None:
    """A declared hot key is a value of the key's type as written: a cast that rounds it (1.15 to 1.2 in a
    decimal(5,1)), overflows it (1e300 to a float's Infinity) or rounds it to zero (1e-50 in a float) would
    route another key's rows hot while the record named this one."""
    r = renderer(extra_tables={"l": Table([("k", key_type), ("id", "int")]),
                               "r": Table([("k", key_type), ("w", "string")])}, model="cast_changes")  # fmt: skip
    message = r.compile_error(f"{{{{ skewjoin.skew_join('l', 'r', on=['k'], skew={{'hot_keys': [{value}]}}) }}}}")
    assert_clear_compile_error(message, "skew_join", "cast_changes", "skew_join.hot_keys",
                               f"{value.strip(chr(39))} is not a valid {key_type}")  # fmt: skip


def test_more_positional_arguments_than_it_takes(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", model="sj_bad_positional")
    message = r.compile_error("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), ['k_int'], 'inner', none, "
                              "'a', 'b', none, 'extra') }}")  # fmt: skip
    assert_clear_compile_error(message, "skew_join", "sj_bad_positional", "skew", "takes at most 8 arguments")
    assert "1 more were given" in message and "skewjoin.skew_join(left, right, ..., skew=...)" in message


def test_a_misspelled_argument_does_not_stop_the_parse(renderer: Callable[..., Renderer]) -> None:
    """At parse time the call renders (dbt parses every model before it compiles one): the error stops only
    this model, when it compiles."""
    r = renderer("typed_left", "typed_right", execute=False)
    sql = r.render("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_tpye='left') }}")
    assert "typed_left" in sql


def test_the_argument_wins_over_the_config(renderer: Callable[..., Renderer]) -> None:
    """A bad config is not read when the argument `skew` is given."""
    r = renderer("typed_left", "typed_right", config={"skew_join": {"group": []}})
    sql = r.render("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], skew={}) }}")
    assert "skew specification from argument skew" in sql and "strategy: plain join" in sql


def test_adapters_other_than_spark_are_refused(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right", adapter_type="postgres")
    message = r.compile_error("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int']) }}")
    assert_clear_compile_error(message, "skew_join", "unit_model", "adapter", "this target uses postgres")
    assert r.spark.queries == []

"""`skewjoin profile`: the slot planner (pure Python) and the profiler on a real Spark.

The planner tests pin the rules the skew_join macro enforces (a group has at
least one slot, the rows in no group keep at least one, the groups never take
all slots) and check that every emitted config, awkward strings included,
parses back to the same dict as YAML and as Jinja. The Spark tests run the
command on generated data with a known hot key and NULLs (local PySpark, in a
subprocess) and on the integration inputs over the Thrift server, then compile
the emitted config with the package and compare its rows with the plain join.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import jinja2
import pytest
import yaml
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from skewjoin.cli import main
from skewjoin.config_text import jinja_config_line, to_jinja, to_yaml
from skewjoin.literals import KeyValue, quote_spark_string, spark_ident, spark_literal
from skewjoin.planner import (
    KeyStat,
    OtherStats,
    PlanError,
    PlanOptions,
    SideStats,
    allocate_slots,
    plan,
)
from skewjoin.profiler import other_counts_sql, parse_top_keys, top_keys_sql
from skewjoin.report import report, to_json

REPO = Path(__file__).resolve().parents[2]
AWKWARD = [
    "it's",
    'say "hi"',
    "back\\slash",
    "trailing\\",
    "\\'",
    "line\nbreak",
    "tab\tand\rreturn",
    "nul\x00byte",
    "esc\x1b",
    "café ü 日本 😀",
    "\u2028\u2029\x85",
    "-- not a comment",
    "/* nor this */",
    "{{ not jinja }}",
    "{% raw %}",
    "a: b",
    "- item",
    "#hash",
    "yes",
    "null",
    "007",
    "2026-01-01",
    "",
    " padded ",
    "'; drop table x; --",
]


def jinja_value(expression: str) -> Any:
    return jinja2.Environment().compile_expression(expression)()


def side(
    top: list[KeyStat],
    total: int = 1000,
    nulls: int = 0,
    columns: tuple[str, ...] = ("customer_id",),
    types: tuple[str, ...] = ("bigint",),
    **kwargs: Any,
) -> SideStats:
    return SideStats(
        alias="a",
        columns=columns,
        types=types,
        total_rows=total,
        null_rows=nulls,
        top=tuple(top),
        source="test",
        **kwargs,
    )


def other(total: int = 500, nulls: int = 0, **kwargs: Any) -> OtherStats:
    defaults: dict[str, Any] = {"alias": "b", "columns": ("customer_id",), "types": ("bigint",)}
    defaults.update(kwargs)
    return OtherStats(total_rows=total, null_rows=nulls, source="test", **defaults)


# -- allocate_slots ---------------------------------------------------------------------


def test_slots_follow_the_share_as_in_the_seed_example() -> None:
    # HIVE-3286: 10, 20 and 40 percent of 20 reducers reserve 2, 4 and 8; 6 stay for the rest
    assert allocate_slots([0.10, 0.20, 0.40], 20) == [2, 4, 8]


@pytest.mark.parametrize(
    ("shares", "total", "expected"),
    [
        ([0.025], 20, [1]),  # 0.5 rounds half up
        ([0.075], 20, [2]),  # 1.5 -> 2 although 0.075 * 20 is 1.4999999999999998 in floating point
        ([0.125], 20, [3]),  # 2.5 -> 3 (not banker's 2)
        ([0.145], 100, [15]),  # 14.5 -> 15 although 0.145 * 100 is 14.499999999999998
        ([0.124], 20, [2]),  # 2.48 -> 2
        ([0.0001], 200, [1]),  # a group never gets 0 slots
        ([0.0], 200, [1]),
        ([0.9], 10, [9]),  # exactly the budget: the rest keeps 1
        ([0.96], 10, [9]),  # 9.6 would round to 10 = every slot: capped at total - 1
        ([0.5, 0.5], 10, [5, 4]),  # 10 wanted, 9 available: shared by largest remainder, tie to the first
        ([0.6, 0.3, 0.1], 5, [2, 1, 1]),  # each keeps 1, the one spare slot goes to the largest share
        ([0.3, 0.3, 0.3, 0.1], 5, [1, 1, 1, 1]),  # as many groups as total - 1: one slot each
        ([], 20, []),
    ],
)
def test_slot_rounding_and_limits(shares: list[float], total: int, expected: list[int]) -> None:
    slots = allocate_slots(shares, total)
    assert slots == expected
    assert all(n >= 1 for n in slots)
    assert sum(slots) <= total - 1


@pytest.mark.parametrize(
    ("shares", "total", "message"),
    [
        ([0.1] * 5, 5, "5 groups need at least 5 slots plus one for the rest"),
        ([0.1], 1, "total_slots must be at least 2"),
        ([-0.1], 20, "shares must be finite and >= 0"),
        ([math.nan], 20, "shares must be finite and >= 0"),
    ],
)
def test_slot_errors(shares: list[float], total: int, message: str) -> None:
    with pytest.raises(PlanError, match=message):
        allocate_slots(shares, total)


@settings(max_examples=300, deadline=None)
@given(
    shares=st.lists(st.floats(min_value=0, max_value=1, allow_nan=False), min_size=1, max_size=30),
    total=st.integers(min_value=2, max_value=2000),
)
# found by this property: in floats 0.9999999999999999 got the extra slot over 1.0
@example(shares=[0.0] * 10 + [1.0, 0.9999999999999999, 1.0], total=19)
def test_slot_invariants(shares: list[float], total: int) -> None:
    if len(shares) > total - 1:
        with pytest.raises(PlanError):
            allocate_slots(shares, total)
        return
    slots = allocate_slots(shares, total)
    assert len(slots) == len(shares)
    assert all(n >= 1 for n in slots), "a group needs at least one slot"
    assert sum(slots) <= total - 1, "the rows in no group keep at least one slot"
    wanted = [max(1, math.floor(s * total + 0.5)) for s in shares]
    if sum(wanted) <= total - 1:
        for s, n in zip(shares, slots, strict=True):
            assert abs(n - max(1.0, s * total)) <= 0.5 + 1e-6, (s, total, n)
    else:
        assert sum(slots) == total - 1, "when capped, every slot but the rest's goes to a group"
        # more share never gets fewer slots
        for i in range(len(shares)):
            for j in range(len(shares)):
                if shares[i] > shares[j]:
                    assert slots[i] >= slots[j]


# -- plan -------------------------------------------------------------------------------


def test_unmeasured_other_side_makes_hot_keys_and_null_goes_around() -> None:
    stats = side([KeyStat((0,), 400), KeyStat((7,), 100), KeyStat((3,), 5)], total=1000, nulls=50)
    result = plan(stats, PlanOptions(total_slots=20))
    assert [d.action for d in result.keys] == ["hot_key", "hot_key", "rest"]
    assert result.keys[0].share == 0.4
    assert result.null_action == "hot_key"
    assert result.rest_rows == 1000 - 400 - 100 - 50
    assert result.rest_slots == 20
    assert result.config == {"hot_keys": {"a": [0, 7, None]}, "total_slots": 20}
    assert any("not measured" in note for note in result.notes)
    # the same, as the report shows it
    text = report(result)
    assert "{{ config(skew_join={'hot_keys': {'a': [0, 7, none]}, 'total_slots': 20}) }}" in text
    assert "a: [0, 7, null]" in text
    assert "40.00%" in text and "5.00%" in text


def test_nan_and_infinite_keys_of_a_double_are_hot_keys() -> None:
    # skew_join takes 'NaN' and the infinities as keys of a float or double (Spark's join matches NaN with NaN);
    # the profile left them to the shuffle join, saying skew_join took only finite numbers
    stats = side([KeyStat(("NaN",), 400), KeyStat(("-Infinity",), 100), KeyStat(("1.5",), 90)], types=("double",))
    result = plan(stats, PlanOptions(total_slots=20))
    assert [d.action for d in result.keys] == ["hot_key", "hot_key", "hot_key"]
    assert result.config["hot_keys"] == {"a": ["NaN", "-Infinity", "1.5"]}
    assert not any("left to the shuffle join" in note for note in result.notes)
    # a decimal has no NaN: a text that is no number stays in the join, and the note says what skew_join takes
    result = plan(side([KeyStat(("NaN",), 400)], types=("decimal(10,2)",)), PlanOptions(total_slots=20))
    assert [d.action for d in result.keys] == ["rest"]
    assert any("skew_join takes a number" in note for note in result.notes)


def test_binary_keys_whose_bytes_are_not_text_stay_in_the_join() -> None:
    # the profile reads keys as text: X'FF00' came back as '\ufffd\x00', which skew_join wrote as the bytes
    # EF BF BD 00 (cast to binary): a hot key that matched no row, so the key's rows stayed unspread
    stats = side([KeyStat(("\ufffd\x00",), 400), KeyStat(("EU",), 300)], types=("binary",))
    result = plan(stats, PlanOptions(total_slots=20))
    assert [d.action for d in result.keys] == ["rest", "hot_key"]
    assert result.config["hot_keys"] == {"a": ["EU"]}
    assert any("its bytes are not UTF-8 text" in note for note in result.notes)


def test_keys_dbt_would_render_get_no_yaml_form() -> None:
    # dbt renders a properties file's config values as Jinja: a key holding {{ ... }} came back as what it
    # renders to, {# ... #} as '', a carriage return as \n, and {% if %} stopped `dbt parse`
    keys = ["{{ var('x') }}", "{# c #}", "cr\rx", "{% if %}"]
    stats = side([KeyStat((k,), 200 - i) for i, k in enumerate(keys)], total=1000, types=("string",))
    result = plan(stats, PlanOptions(total_slots=20))
    text = report(result)
    assert "No YAML form: dbt renders a properties file's config values as Jinja" in text
    assert "YAML, for the model's" not in text
    assert """{{ config(skew_join={'hot_keys': {'a': ["{{ var('x') }}", '{# c #}', 'cr\\rx', '{% if %}']}""" in text
    data = to_json(result)
    assert data["yaml"] is None and "carriage return" in data["yaml_refused"]
    # a plain string key keeps both forms
    plain = plan(side([KeyStat(("EU",), 400)], types=("string",)), PlanOptions(total_slots=20))
    assert "YAML, for the model's" in report(plain) and to_json(plain)["yaml_refused"] is None


def test_null_below_min_share_stays_in_the_join() -> None:
    result = plan(side([KeyStat((0,), 400)], total=1000, nulls=9), PlanOptions(total_slots=20, min_share=0.01))
    assert result.null_action == "rest"
    assert result.config == {"hot_keys": {"a": [0]}, "total_slots": 20}


def test_no_skew_gives_an_empty_config() -> None:
    result = plan(side([KeyStat((1,), 5), KeyStat((2,), 4)], total=1000), PlanOptions())
    assert [d.action for d in result.keys] == ["rest", "rest"]
    assert result.config == {}
    assert result.rest_slots == 200
    assert "the plain join is fine" in report(result)


def test_few_rows_on_the_other_side_broadcast_many_make_a_group() -> None:
    stats = side([KeyStat((0,), 400, other_rows=3), KeyStat((7,), 200, other_rows=50_000)], total=1000, nulls=100)
    result = plan(stats, PlanOptions(total_slots=20, max_broadcast_rows=1000), other(total=100_000))
    hot, group = result.keys
    assert hot.action == "hot_key" and "3 row(s)" in hot.reason
    assert group.action == "group"
    assert "50,000 rows of this key (50.0% of b: hot on both sides)" in group.reason
    # b has 50,000 rows of key 7 and a 200: b drives; its share of the rows b sends to the shuffle
    # join (all but the 3 rows of the broadcast hot key) sizes the group
    assert group.driver == "b"
    assert group.group_share == pytest.approx(50_000 / 99_997)
    assert group.slots == 10 and result.rest_slots == 10
    assert result.config == {
        "hot_keys": {"a": [0, None]},
        "groups": [{"when": "b.customer_id = 7", "slots": 10, "distribute": "random"}],
        "total_slots": 20,
    }


def test_the_side_with_more_rows_of_the_key_drives_the_group() -> None:
    stats = side([KeyStat((7,), 200, other_rows=50_000)], total=1000)
    result = plan(stats, PlanOptions(total_slots=20, max_broadcast_rows=1000), other(total=100_000))
    (group,) = result.keys
    assert group.action == "group"
    assert group.driver == "b", "b has 50,000 rows of the key, a 200: spread b, copy a's rows"
    assert group.when == "b.customer_id = 7"
    assert group.group_share == pytest.approx(50_000 / 100_000)
    assert group.slots == 10
    assert (group.first_slot, group.last_slot) == (10, 19)
    assert result.rest_slots == 10
    assert result.config["groups"] == [{"when": "b.customer_id = 7", "slots": 10, "distribute": "random"}]


def test_group_share_counts_only_rows_that_reach_the_shuffle_join() -> None:
    # 1000 rows: 400 of a broadcast hot key, 100 NULL (bypassing), 250 of a group key -> 250 / 500 of the shuffle
    stats = side([KeyStat((0,), 400, other_rows=1), KeyStat((7,), 250, other_rows=200)], total=1000, nulls=100)
    result = plan(stats, PlanOptions(total_slots=20, max_broadcast_rows=10), other(total=300))
    hot, group = result.keys
    assert (hot.action, group.action) == ("hot_key", "group")
    assert group.driver == "a"
    assert group.group_share == pytest.approx(0.5)
    assert group.slots == 10 and result.rest_slots == 10
    assert (group.first_slot, group.last_slot) == (10, 19)


def test_hot_on_both_sides_but_few_rows_is_still_broadcast() -> None:
    # 40 of b's 100 rows have the key: hot on both sides, yet 40 rows are cheaper to broadcast than to copy
    result = plan(side([KeyStat((0,), 400, other_rows=40)]), PlanOptions(max_broadcast_rows=100), other(total=100))
    (d,) = result.keys
    assert d.action == "hot_key"
    assert "hot on both sides, 40.0% of b, but within the broadcast budget" in d.reason


def test_timestamp_keys_carry_a_time_zone_note() -> None:
    stats = side([KeyStat(("2026-01-01 01:00:00",), 400)], types=("timestamp",))
    result = plan(stats, PlanOptions())
    assert result.config["hot_keys"] == {"a": ["2026-01-01 01:00:00"]}
    assert any("spark.sql.session.timeZone" in note for note in result.notes)
    assert not any("timeZone" in note for note in plan(side([KeyStat((1,), 400)]), PlanOptions()).notes)


def test_broadcast_budget_is_shared_by_all_hot_keys() -> None:
    stats = side(
        [KeyStat((1,), 300, other_rows=60), KeyStat((2,), 200, other_rows=60), KeyStat((3,), 100, other_rows=30)]
    )
    result = plan(stats, PlanOptions(total_slots=20, max_broadcast_rows=100), other(total=1000))
    assert [d.action for d in result.keys] == ["hot_key", "group", "hot_key"]
    assert "60 already taken" in result.keys[1].reason


def test_groups_never_take_every_slot() -> None:
    stats = side([KeyStat((k,), 300, other_rows=10_000) for k in range(3)], total=1000)
    result = plan(stats, PlanOptions(total_slots=3, max_broadcast_rows=0), other(total=1_000_000))
    assert [d.action for d in result.keys] == ["group", "group", "rest"]
    assert [d.slots for d in result.groups] == [1, 1]
    assert result.rest_slots == 1
    assert "no slot left" in result.keys[2].reason
    assert any("raise --total-slots" in note for note in result.notes)


@pytest.mark.parametrize(
    ("join_type", "position", "expected_driver"),
    [
        ("inner", "left", "b"),  # b has more rows of the key: b drives, a's rows are copied
        ("right", "left", "b"),  # b preserved, a null-supplying: copying a is allowed
        ("left", "left", "a"),  # a preserved: its rows may not be copied, so a drives and b is copied
        ("left semi", "left", "a"),
        ("left anti", "left", "a"),
        ("left", "right", "b"),  # a is the right input of a left join: null-supplying, may be copied
        ("right", "right", "a"),
    ],
)
def test_outer_joins_copy_only_the_null_supplying_side(join_type: str, position: str, expected_driver: str) -> None:
    stats = side([KeyStat((7,), 200, other_rows=5000)], total=1000, position=position)
    result = plan(stats, PlanOptions(total_slots=20, max_broadcast_rows=10, join_type=join_type), other(total=10_000))
    (d,) = result.keys
    assert d.action == "group"
    assert d.driver == expected_driver
    assert d.when == f"{expected_driver}.customer_id = 7"


def test_full_join_cannot_have_a_spreading_group() -> None:
    stats = side([KeyStat((7,), 200, other_rows=5000)], total=1000)
    result = plan(stats, PlanOptions(total_slots=20, max_broadcast_rows=10, join_type="full"), other(total=10_000))
    (d,) = result.keys
    assert d.action == "hot_key"
    assert "full join cannot copy" in d.reason
    assert any("check the executors' memory" in n for n in result.notes)
    assert "groups" not in result.config


def test_null_handling_text_follows_the_join_type() -> None:
    kept = plan(side([], total=100, nulls=50), PlanOptions(join_type="left"))
    dropped = plan(side([], total=100, nulls=50), PlanOptions(join_type="left semi"))
    assert kept.null_action == dropped.null_action == "hot_key"
    assert "kept once" in kept.null_reason
    assert "dropped" in dropped.null_reason
    assert kept.config == {"hot_keys": {"a": [None]}, "total_slots": 200}


def test_multi_column_keys() -> None:
    stats = side(
        [KeyStat((0, "EU"), 300, other_rows=1), KeyStat((0, "it's"), 200, other_rows=500)],
        total=1000,
        nulls=100,
        columns=("k_int", "region"),
        types=("int", "string"),
    )
    result = plan(
        stats,
        PlanOptions(total_slots=20, max_broadcast_rows=10),
        other(total=1000, columns=("k_int", "region"), types=("bigint", "string")),
    )
    assert result.config["hot_keys"] == {"a": [[0, "EU"], [None, None]]}
    assert result.config["groups"][0]["when"] == "b.k_int = 0 and b.region = concat('it', chr(39), 's')"
    with pytest.raises(PlanError, match="2 values for 1 columns"):
        side([KeyStat((0, "EU"), 1)])
    with pytest.raises(PlanError, match="the other side has 1 key column"):
        plan(stats, PlanOptions(), other())


def test_values_the_macro_cannot_take_are_left_alone() -> None:
    stats = side([KeyStat(("NaN",), 500), KeyStat(("1.5",), 200)], types=("decimal(10,2)",))
    result = plan(stats, PlanOptions())
    assert [d.action for d in result.keys] == ["rest", "hot_key"]
    assert result.config["hot_keys"] == {"a": ["1.5"]}


def test_option_errors() -> None:
    with pytest.raises(PlanError, match="total_slots must be at least 2"):
        PlanOptions(total_slots=1)
    with pytest.raises(PlanError, match="min_share is a fraction"):
        PlanOptions(min_share=1.5)
    with pytest.raises(PlanError, match="join_type is one of"):
        PlanOptions(join_type="cross")
    with pytest.raises(PlanError, match="different aliases"):
        plan(side([]), PlanOptions(other_alias="a"))


def test_sampled_counts_are_scaled_and_stated() -> None:
    stats = side([KeyStat((0,), 400)], total=1000, nulls=10, sample_fraction=0.1)
    result = plan(stats, PlanOptions())
    assert stats.estimate(400) == 4000
    assert stats.margin(400) == pytest.approx(1.96 * math.sqrt(0.4 * 0.6 / 1000))
    text = report(result)
    assert "about 10,000" in text and "10.00% sample" in text and "4,000" in text
    data = to_json(result)
    assert data["side"]["exact"] is False
    assert data["keys"][0]["estimated_rows"] == 4000


# -- literals and quoting ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "data_type", "literal"),
    [
        (7, "int", "7"),
        (-1234567890123456789, "bigint", "-1234567890123456789"),
        (True, "boolean", "true"),
        ("0.2500", "decimal(18,4)", "0.2500"),
        ("it's", "string", "concat('it', chr(39), 's')"),
        ("back\\slash", "string", "concat('back', chr(92), 'slash')"),
        ("2026-01-01", "date", "cast('2026-01-01' as date)"),
        ("2026-01-01 01:00:00", "timestamp", "cast('2026-01-01 01:00:00' as timestamp)"),
        ("1.0E10", "double", "cast('1.0E10' as double)"),
    ],
)
def test_spark_literals(value: Any, data_type: str, literal: str) -> None:
    assert spark_literal(value, data_type) == literal


def test_spark_literals_refuse_what_is_not_a_value_of_the_type() -> None:
    cases: list[tuple[KeyValue, str]] = [
        ("1; drop", "decimal(10,2)"),
        ("7", "int"),
        (True, "int"),
        ("x", "boolean"),
        (-12345678901234567890, "bigint"),
        ("2023-02-29", "date"),
    ]
    for value, data_type in cases:
        with pytest.raises(PlanError):
            spark_literal(value, data_type)
    assert spark_ident("customer_id") == "customer_id"
    assert spark_ident("my col`x") == "`my col``x`"


@pytest.mark.parametrize("value", AWKWARD)
def test_awkward_values_survive_yaml_and_jinja(value: str) -> None:
    stats = side(
        [KeyStat((value,), 500, other_rows=1), KeyStat((value + "2",), 300, other_rows=900)],
        types=("string",),
        nulls=100,
    )
    result = plan(stats, PlanOptions(total_slots=20, max_broadcast_rows=10), other(total=1000, types=("string",)))
    config = result.config
    assert config["hot_keys"] == {"a": [value, None]}
    assert config["groups"][0]["when"] == "b.customer_id = " + quote_spark_string(value + "2")
    assert yaml.safe_load(to_yaml(config)) == {"skew_join": config}
    assert jinja_value(to_jinja(config)) == config
    line = jinja_config_line(config)
    assert line.startswith("{{ config(skew_join=") and line.endswith(") }}")
    assert "\n" not in line, "the Jinja line is one line"
    # the line renders in a Jinja template, calling config() with the exact dict
    seen: dict[str, Any] = {}
    jinja2.Environment().from_string(line).render(config=lambda **kw: seen.update(kw) or "")
    assert seen == {"skew_join": config}


@settings(max_examples=300, deadline=None)
@given(
    value=st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text()),
        lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(st.text(), children, max_size=4)),
        max_leaves=12,
    )
)
def test_yaml_and_jinja_round_trip(value: Any) -> None:
    config = {"hot_keys": {"a": [value]}}
    assert yaml.safe_load(to_yaml(config)) == {"skew_join": config}
    assert jinja_value(to_jinja(config)) == config


def test_dbt_static_parser_never_reads_the_line_differently() -> None:
    """dbt may read config() with its static parser, which does not decode escapes: it must give up on our lines."""
    dbt_extractor = pytest.importorskip("dbt_extractor")
    for value in ["plain", "back\\slash", "it's", "line\nbreak"]:
        config = plan(side([KeyStat((value,), 500)], types=("string",)), PlanOptions()).config
        source = jinja_config_line(config) + "\nselect 1"
        try:
            extracted = dbt_extractor.py_extract_from_source(source)
        except Exception:
            continue  # dbt falls back to rendering with Jinja: the value is exact
        assert dict(extracted["configs"]) == {"skew_join": config}


# -- SQL --------------------------------------------------------------------------------


def test_top_keys_sql() -> None:
    sql = top_keys_sql("sj_profile_side", ["k1", "my col"], 20, 0.1)
    assert "group by grouping sets ((k1, `my col`), ())" in sql
    assert "tablesample (10 percent)" in sql
    assert "count_if(k1 is null or `my col` is null) as sj_null_rows" in sql
    assert sql.rstrip().endswith("limit 21")
    assert "tablesample (0.001 percent)" in top_keys_sql("t", ["k"], 5, 0.00001)
    assert "tablesample" not in top_keys_sql("t", ["k"], 5)


def test_parse_top_keys_reads_typed_values() -> None:
    rows = [(None, None, 3, 1000, 40), ("0", "EU", 0, 300, 0), ("7", "it's", 0, 200, 0)]
    top = parse_top_keys(rows, ["int", "string"])
    assert (top.total_rows, top.null_rows) == (1000, 40)
    assert top.top == [((0, "EU"), 300), ((7, "it's"), 200)]


def test_other_counts_sql_escapes_values() -> None:
    sql = other_counts_sql("o", [("k", "string")], ["string"], [["it's"], ["x\\"]])
    assert "when k = concat('it', chr(39), 's') then 0" in sql
    assert "when k = concat('x', chr(92)) then 1" in sql
    assert "try_cast(k as int) = 7" in other_counts_sql("o", [("k", "string")], ["int"], [[7]])
    assert "cast(null as int) as sj_candidate" in other_counts_sql("o", [("k", "int")], ["int"], [])


# -- the command without Spark ----------------------------------------------------------


def test_help_is_something_a_newcomer_can_follow() -> None:
    result = CliRunner().invoke(main, ["profile", "--help"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    for needle in [
        "--keys",
        "--other",
        "--sample",
        "--total-slots",
        "--thrift",
        "--warehouse",
        "--json",
        "Examples:",
        "skewjoin profile data/orders.parquet --keys customer_id",
        "hot_keys",
    ]:
        assert needle in text, needle


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["t", "--keys", "k", "--thrift", "nohost"], "--thrift expects HOST:PORT"),
        (["t", "--keys", "k", "--other-keys", "x"], "--other-keys needs --other"),
        (["t", "--keys", ","], "give at least one column name"),
        (["t", "--keys", "k", "--thrift", "127.0.0.1:1", "--warehouse", "w"], "--thrift uses a server"),
        (["t", "--keys", "k", "--total-slots", "1"], "x>=2"),
        (["t", "--keys", "k", "--sample", "0"], "0<x<=1"),
        (["t", "--keys", "k", "--side", "a b"], "an alias is a plain SQL name"),
        (["t", "--keys", "k", "--other-side", "b;"], "an alias is a plain SQL name"),
    ],
)
def test_bad_options_fail_clearly(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["profile", *args])
    assert result.exit_code != 0
    assert message in " ".join(result.output.split()), result.output


# -- on a real Spark --------------------------------------------------------------------

HOT_STRING = 'it\'s "odd" \\ ü'


def _write_json_lines(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows))


@pytest.mark.spark
def test_profile_finds_the_hot_key_and_its_exact_share_on_local_spark(tmp_path: Path) -> None:
    # 1000 rows: the awkward string key HOT_STRING holds 400 (40%), NULL 100 (10%), 'k0'..'k499' the rest;
    # the other side has 300 rows of HOT_STRING (too many to broadcast with the budget below) and 1 of 'k0'
    left = [{"id": i, "s": HOT_STRING} for i in range(400)]
    left += [{"id": 400 + i, "s": None} for i in range(100)]
    left += [{"id": 500 + i, "s": f"k{i % 250}"} for i in range(500)]
    right = [{"rid": i, "s": HOT_STRING} for i in range(300)] + [{"rid": 300 + i, "s": f"k{i}"} for i in range(250)]
    _write_json_lines(tmp_path / "left.json", left)
    _write_json_lines(tmp_path / "right.json", right)
    proc = subprocess.run(
        [sys.executable, "-m", "skewjoin", "profile", str(tmp_path / "left.json"), "--keys", "s",
         "--other", str(tmp_path / "right.json"), "--max-broadcast-rows", "100", "--total-slots", "20",
         "--conf", "spark.sql.shuffle.partitions=4", "--json"],
        capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "scanning" in proc.stderr and "done in" in proc.stderr, "progress lines on stderr"
    data = json.loads(proc.stdout)
    assert data["side"]["rows_counted"] == 1000 and data["side"]["exact"] is True
    assert data["side"]["null_rows"] == 100 and data["side"]["null_share"] == 0.1
    assert data["other"]["rows"] == 550
    top = data["keys"][0]
    assert top["key"] == [HOT_STRING]
    assert (top["rows"], top["share"], top["other_rows"]) == (400, 0.4, 300)
    assert top["action"] == "group" and top["driver"] == "a"
    # 400 of the 900 non-NULL rows a sends to the shuffle join (NULLs bypass it): 0.444 * 20 -> 9 slots
    assert top["slots"] == 9 and top["slot_range"] == [11, 19]
    assert all(k["rows"] == 2 and k["action"] == "rest" for k in data["keys"][1:])
    assert len(data["keys"]) == 20
    expected = {
        "hot_keys": {"a": [None]},
        "groups": [{"when": "a.s = " + quote_spark_string(HOT_STRING), "slots": 9, "distribute": "random"}],
        "total_slots": 20,
    }
    assert data["config"] == expected
    assert yaml.safe_load(data["yaml"]) == {"skew_join": expected}
    assert data["jinja"] == jinja_config_line(expected)
    assert not list(tmp_path.glob("metastore_db")) and not list(tmp_path.glob("spark-warehouse"))


@pytest.mark.spark
def test_emitted_config_compiles_and_joins_like_the_plain_join(inputs_built: Any, spark_thrift: Any) -> None:
    """Profile the integration inputs over Thrift, then run skew_join with the emitted config."""
    dbt_project = inputs_built  # the inputs built once for the session (the plugin's fixture)
    result = CliRunner().invoke(main, [
        "profile", "skewjoin_it.typed_left", "--keys", "k_int,region", "--other", "skewjoin_it.typed_right",
        "--thrift", f"{spark_thrift.host}:{spark_thrift.port}", "--min-share", "0.05", "--max-broadcast-rows", "2",
        "--total-slots", "20", "--join-type", "left", "--json", "-q",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    conn = dbt_project.conn
    cur = conn.cursor()
    try:
        cur.execute(
            "select count(*), count_if(k_int = 0 and region = 'EU'), count_if(k_int is null or region is null) "
            "from skewjoin_it.typed_left"
        )
        total, hot_eu, nulls = cur.fetchall()[0]
    finally:
        cur.close()
    assert data["side"]["rows_counted"] == total
    assert data["side"]["null_rows"] == nulls
    eu = next(k for k in data["keys"] if k["key"] == [0, "EU"])
    assert eu["rows"] == hot_eu and eu["share"] == hot_eu / total
    config = data["config"]
    assert config["hot_keys"]["a"], "hot keys found"
    assert config.get("groups"), "the broadcast budget of 2 rows leaves some keys to skew groups"
    prefix, suffix = "{{ config(skew_join=", ") }}"
    line = data["jinja"]
    assert line.startswith(prefix) and line.endswith(suffix)
    emitted = line[len(prefix) : -len(suffix)]  # the dict exactly as printed for the user to paste
    columns = "['a.id', 'a.k_int', 'a.region', 'b.rid', 'b.attr']"
    model = (
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int', 'region'], "
        f"join_type='left', columns={columns}, skew={emitted}) }}}}"
    )
    compiled = dbt_project.run(["compile", "--inline", model])
    sql = str(compiled.result.results[0].node.compiled_code)
    assert "hot keys of a (declared)" in sql and "skew groups: " in sql
    rows = dbt_project.assert_model_equals(
        sql,
        "select a.id, a.k_int, a.region, b.rid, b.attr from skewjoin_it.typed_left as a "
        "left join skewjoin_it.typed_right as b on a.k_int = b.k_int and a.region = b.region",
    )
    assert rows >= total, "a left join keeps every row of a at least once"


@pytest.mark.spark
def test_emitted_verify_keeps_what_the_profile_planned(inputs_built: Any, spark_thrift: Any) -> None:
    """Keys of about 3.3% planned on 20 slots (under the check's default, 1/20 = 5%): the emitted
    config carries verify 0.03 and compiles with every planned hot key kept; without it, the
    compile-time check drops them."""
    dbt_project = inputs_built  # the inputs built once for the session (the plugin's fixture)
    result = CliRunner().invoke(main, [
        "profile", "skewjoin_it.typed_left", "--keys", "k_int,region",
        "--thrift", f"{spark_thrift.host}:{spark_thrift.port}", "--min-share", "0.03",
        "--total-slots", "20", "--join-type", "left", "--json", "-q",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verify"]["share"] == 0.03 and "1/20 = 5.00%" in data["verify"]["why"]
    config = data["config"]
    assert config["verify"] == 0.03
    planned = [k["key"] for k in data["keys"] if k["action"] == "hot_key"]
    assert [7, "EU"] in planned or [7, "NA"] in planned or [7, "APAC"] in planned

    def compile_with(skew: dict[str, Any]) -> str:
        line = jinja_config_line(skew)
        emitted = line[len("{{ config(skew_join=") : -len(") }}")]
        model = (
            "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int', 'region'], "
            f"join_type='left', columns=['a.id', 'b.rid'], skew={emitted}) }}}}"
        )
        # the integration project turns the check off (var skewjoin_verify: false); a user's project has it on
        compiled = dbt_project.run(["compile", "--inline", model], vars={"skewjoin_verify": True})
        return str(compiled.result.results[0].node.compiled_code)

    sql = compile_with(config)
    assert " dropped:" not in sql and sql.count(" verified: ") == len(planned)
    without = compile_with({k: v for k, v in config.items() if k != "verify"})
    assert " dropped:" in without, "the check's default (1/20) drops the keys under 5%"


@pytest.mark.spark
def test_sampling_and_errors_over_thrift(tmp_path: Path, spark_thrift: Any) -> None:
    """A path read by the Thrift server: a sampled profile, then the errors a user meets first."""
    rows = [{"k": 0 if i % 5 < 2 else i, "v": i} for i in range(4000)]  # key 0: 40%, NULLs none
    _write_json_lines(tmp_path / "t.json", rows)
    server = f"{spark_thrift.host}:{spark_thrift.port}"
    runner = CliRunner()
    result = runner.invoke(
        main, ["profile", str(tmp_path / "t.json"), "-k", "k", "--thrift", server, "--sample", "0.5", "--json", "-q"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["side"]["exact"] is False and data["side"]["sample_fraction"] == 0.5
    counted = data["side"]["rows_counted"]
    assert 0 < counted < 4000, "a 50% sample reads about half the rows"
    assert data["side"]["estimated_rows"] == round(counted / 0.5)
    top = data["keys"][0]
    assert top["key"] == [0]
    # within 5 standard errors of the true 40% (fails by chance less than once in a million runs)
    assert abs(top["share"] - 0.4) <= 5 * math.sqrt(0.4 * 0.6 / counted)
    assert top["share_margin_95"] == pytest.approx(1.96 * math.sqrt(top["share"] * (1 - top["share"]) / counted))
    # no --total-slots and no dbt target: total_slots left out, planned with the server's setting, and said so
    assert data["config"] == {"hot_keys": {"a": [0]}}
    assert data["options"]["total_slots_in_config"] is False
    assert f"spark.sql.shuffle.partitions of the Spark Thrift Server {server}" in data["options"]["total_slots_source"]

    # the user's dbt target says 16 shuffle partitions: the config carries 16, and the report says where from
    (tmp_path / "profiles.yml").write_text(
        "shop:\n  target: dev\n  outputs:\n    dev:\n      type: spark\n      method: session\n"
        "      host: NA\n      schema: s\n      server_side_parameters:\n"
        '        spark.sql.shuffle.partitions: "16"\n'
    )
    result = runner.invoke(
        main,
        ["profile", str(tmp_path / "t.json"), "-k", "k", "--thrift", server, "-q",
         "--profiles-dir", str(tmp_path), "--profile", "shop"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "    total_slots: 16\n" in result.stdout
    assert "# total_slots 16: spark.sql.shuffle.partitions of dbt target 'dev' of profile 'shop'" in result.stdout
    assert "{# total_slots 16: spark.sql.shuffle.partitions of dbt target 'dev'" in result.stdout

    for args, message in [
        ([str(tmp_path / "t.json"), "-k", "nope"], "has no column 'nope'; its columns are: k, v"),
        (["no_such_schema.no_such_table", "-k", "k"], "TABLE_OR_VIEW_NOT_FOUND"),
        ([str(tmp_path / "t.json"), "-k", "k", "--other", str(tmp_path / "t.json"), "--other-keys", "k,v"],
         "--other-keys names 2 column(s) and --keys 1"),
        (["bad name!", "-k", "k"], "is neither an existing path nor a table name"),
    ]:  # fmt: skip
        result = runner.invoke(main, ["profile", *args, "--thrift", server, "-q"])
        assert result.exit_code == 1, result.output
        assert message in result.output, result.output

"""skew_join: 'auto' plans in Jinja (`_sj_auto_plan`); skewjoin.join_plan plans
in Python by the same rules. Fed the same measured counts, both must make the
same plan: the same action, side, slots and distribution for every key, and
the same specification. Property-based (hypothesis), no Spark."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from skewjoin.join_plan import AutoOptions, JoinKey, MeasuredKey, MeasuredSide, plan_join
from skewjoin.planner import JOIN_TYPES

from .harness import Renderer

TYPES = {
    "int": st.integers(-5, 40),
    "bigint": st.integers(-(2**40), 2**40),
    "string": st.text(alphabet="ab'\\ x", max_size=3),
    "date": st.dates().map(str),
    "double": st.sampled_from(["0.5", "1.0E10", "-2.25", "NaN", "Infinity", "3.0"]),
    "decimal(10,2)": st.sampled_from(["0.00", "1.50", "-12.25", "99999999.99"]),
}


@st.composite
def measured_joins(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 2))
    types = [draw(st.sampled_from(sorted(TYPES))) for _ in range(n)]
    tuples = draw(st.lists(st.tuples(*[TYPES[t] for t in types]), max_size=8, unique=True))
    counts = [(draw(st.integers(0, 2000)), draw(st.integers(0, 2000))) for _ in tuples]
    totals = []
    nulls = []
    for i in range(2):
        null = draw(st.integers(0, 500))
        rest = draw(st.integers(0, 5000))
        nulls.append(null)
        totals.append(sum(c[i] for c in counts) + null + rest)
    options = {
        "min_share": draw(st.sampled_from([0.01, 0.05, 0.2, 0.5])),
        "max_keys": draw(st.integers(1, 6)),
        "max_broadcast_rows": draw(st.sampled_from([0, 50, 500, 3000, 100000])),
        "max_multicast_rows": draw(st.sampled_from([0, 100, 2000, 10**7])),
        "sample_fraction": draw(st.sampled_from([None, 0.1, 0.5, 1.0])),
    }
    return {
        "types": types, "tuples": tuples, "counts": counts, "totals": totals, "nulls": nulls, "options": options,
        "join_type": draw(st.sampled_from(JOIN_TYPES)), "total_slots": draw(st.integers(2, 40)),
    }  # fmt: skip


def _text(v: Any) -> str:
    return str(v)


def _jinja_plan(renderer: Callable[..., Renderer], case: dict[str, Any]) -> dict[str, Any]:
    r = renderer()
    jt = case["join_type"]
    j = {
        "join_type": jt, "semantics": r.call("_sj_join_semantics", jt),
        "left": {"alias": "a"}, "right": {"alias": "b"},
        "keys": [{"left_ident": f"k{i}", "right_ident": f"k{i}", "type": t} for i, t in enumerate(case["types"])],
    }  # fmt: skip
    measured = {
        "left": {"total": case["totals"][0], "null": case["nulls"][0], "splits": 1},
        "right": {"total": case["totals"][1], "null": case["nulls"][1], "splits": 1},
        "keys": [
            {"values": [_text(v) for v in t], "left": c[0], "right": c[1], "bounded": []}
            for t, c in zip(case["tuples"], case["counts"], strict=True)
        ],
    }
    return r.call("_sj_auto_plan", j, measured, case["options"], case["total_slots"])  # type: ignore[no-any-return]


def _python_plan(case: dict[str, Any]) -> Any:
    keys = [JoinKey(f"k{i}", f"k{i}", t) for i, t in enumerate(case["types"])]
    measured = [MeasuredKey(tuple(t), c[0], c[1]) for t, c in zip(case["tuples"], case["counts"], strict=True)]
    options = AutoOptions(total_slots=case["total_slots"], join_type=case["join_type"], **case["options"])
    return plan_join(
        MeasuredSide("a", case["totals"][0], case["nulls"][0]), MeasuredSide("b", case["totals"][1], case["nulls"][1]),
        keys, measured, options,
    )  # fmt: skip


def _as_text(value: Any) -> Any:
    if isinstance(value, list):
        return [_as_text(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_text(v) for k, v in value.items()}
    if value is None or isinstance(value, str):
        return value
    return str(value)


def _compare(renderer: Callable[..., Renderer], case: dict[str, Any]) -> None:
    python = _python_plan(case)
    jinja = _jinja_plan(renderer, case)
    python_decisions = [([_text(v) for v in values], action, side, slots)
                        for values, action, side, slots in python.decisions()]  # fmt: skip
    jinja_decisions = [(k["values"], k["action"], k["side"], k["slots"]) for k in jinja["keys"]]
    assert [k["multicast_rows"] for k in jinja["keys"]] == [k.multicast_rows for k in python.keys], case
    assert jinja_decisions == python_decisions, case
    assert jinja["null_bypass"] == python.null_bypass, case
    groups_py = python.config.get("groups", [])
    config_py = {k: v for k, v in python.config.items() if k != "groups"}
    config_jinja = {k: v for k, v in jinja["config"].items() if k != "groups"}
    assert _as_text(config_jinja) == _as_text(config_py), case
    assert jinja["config"].get("groups", []) == groups_py, case


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=measured_joins())
# two groups whose shares tie in floats but not exactly: the extra slot goes by the exact remainder
@example(case={"types": ["int"], "tuples": [(1,), (2,), (3,)], "counts": [(700, 600), (699, 600), (300, 900)],
               "totals": [2000, 2100], "nulls": [0, 0], "join_type": "inner", "total_slots": 5,
               "options": {"min_share": 0.01, "max_keys": 5, "max_broadcast_rows": 0, "max_multicast_rows": 10**7,
                           "sample_fraction": None}})  # fmt: skip
# the multicast guard: fewer slots, then none (the key left to the shuffle join)
@example(case={"types": ["string"], "tuples": [("x",), ("y",)], "counts": [(900, 400), (800, 1500)],
               "totals": [2000, 2000], "nulls": [300, 0], "join_type": "left", "total_slots": 20,
               "options": {"min_share": 0.05, "max_keys": 5, "max_broadcast_rows": 100,
                           "max_multicast_rows": 1000, "sample_fraction": None}})  # fmt: skip
def test_jinja_and_python_plan_alike(renderer: Callable[..., Renderer], case: dict[str, Any]) -> None:
    _compare(renderer, case)


def test_the_rules_on_one_example(renderer: Callable[..., Renderer]) -> None:
    """What the plan is, spelled out: key 0 heavy on a with few b rows is a hot
    key of a; key 1 heavy on both sides is a group driven by a (b copied);
    key 2 is below min_share; b's NULL keys bypass the join."""
    case = {"types": ["int"], "tuples": [(0,), (1,), (2,)], "counts": [(5000, 3), (2000, 800), (5, 5)],
            "totals": [10000, 4000], "nulls": [0, 400], "join_type": "left", "total_slots": 20,
            "options": {"min_share": 0.05, "max_keys": 5, "max_broadcast_rows": 100, "max_multicast_rows": 10**7,
                        "sample_fraction": None}}  # fmt: skip
    _compare(renderer, case)
    plan = _python_plan(case)
    assert plan.decisions() == [((0,), "hot_key", "left", 0), ((1,), "group", "left", 8)]
    # key 1: a's 2,000 of the 5,000 rows it still shuffles -> 0.4 x 20 = 8 slots; b's 800 rows copied 8 times
    assert plan.keys[1].multicast_rows == 6400
    assert plan.config == {
        "hot_keys": {"a": [0], "b": [None]},
        "groups": [{"when": "a.k0 = 1", "slots": 8, "distribute": "random"}],
        "total_slots": 20,
    }
    # the multicast guard: 8 slots x 800 rows of b is over a budget of 2,000 rows, which allows 2 slots;
    # a budget of 1,000 allows fewer than 2: nothing copied, the key left to the shuffle join
    case["options"]["max_multicast_rows"] = 2000
    _compare(renderer, case)
    assert _python_plan(case).decisions()[1] == ((1,), "group", "left", 2)
    case["options"]["max_multicast_rows"] = 1000
    _compare(renderer, case)
    plan = _python_plan(case)
    assert plan.decisions()[1] == ((1,), "rest", None, 0)
    assert plan.keys[1].multicast_rows == 0 and "groups" not in plan.config
    case["options"]["max_multicast_rows"] = 10**7
    # a left join may copy only b: a key heavier on b is still driven by a (a's 800 of the 5,000
    # rows it shuffles: 3.2 -> 3 slots), and b's 2,000 rows are copied to each of them
    case["counts"] = [(5000, 3), (800, 2000), (5, 5)]
    _compare(renderer, case)
    plan = _python_plan(case)
    assert plan.decisions()[1] == ((1,), "group", "left", 3)
    assert plan.keys[1].multicast_rows == 6000
    # a full outer join copies neither side: over budget, the key is broadcast anyway
    case["join_type"] = "full"
    _compare(renderer, case)
    assert _python_plan(case).decisions()[1] == ((1,), "hot_key", "right", 0)


def test_nothing_above_min_share_is_the_plain_join(renderer: Callable[..., Renderer]) -> None:
    case = {"types": ["int"], "tuples": [(0,), (1,)], "counts": [(10, 10), (20, 1)], "totals": [10000, 4000],
            "nulls": [5, 5], "join_type": "inner", "total_slots": 20,
            "options": {"min_share": 0.01, "max_keys": 5, "max_broadcast_rows": 100, "max_multicast_rows": 10**7,
                        "sample_fraction": None}}  # fmt: skip
    _compare(renderer, case)
    assert _python_plan(case).config == {}
    assert _jinja_plan(renderer, case)["config"] == {}

"""skew_join: the 'auto' plan (`_sj_auto_plan`) from measured counts, spelled out on
examples: the action, side, slots and multicast rows of every key, the NULL bypass,
and the specification. No Spark (the measured counts are given)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .harness import Renderer


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
            {"values": [str(v) for v in t], "left": c[0], "right": c[1], "bounded": []}
            for t, c in zip(case["tuples"], case["counts"], strict=True)
        ],
    }
    return r.call("_sj_auto_plan", j, measured, case["options"], case["total_slots"])  # type: ignore[no-any-return]


def _decisions(plan: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(k["values"], k["action"], k["side"], k["slots"]) for k in plan["keys"] if k["action"] != "rest"]


def _example() -> dict[str, Any]:
    return {"types": ["int"], "tuples": [(0,), (1,), (2,)], "counts": [(5000, 3), (2000, 800), (5, 5)],
            "totals": [10000, 4000], "nulls": [0, 400], "join_type": "left", "total_slots": 20,
            "options": {"min_share": 0.05, "max_keys": 5, "max_broadcast_rows": 100, "max_multicast_rows": 10**7,
                        "sample_fraction": None}}  # fmt: skip


def test_the_rules_on_one_example(renderer: Callable[..., Renderer]) -> None:
    """What the plan is, spelled out: key 0 heavy on a with few b rows is a hot
    key of a; key 1 heavy on both sides is a group driven by a (b copied);
    key 2 is below min_share; b's NULL keys bypass the join."""
    case = _example()
    plan = _jinja_plan(renderer, case)
    assert _decisions(plan) == [(["0"], "hot_key", "left", 0), (["1"], "group", "left", 8)]
    # key 1: a's 2,000 of the 5,000 rows it still shuffles -> 0.4 x 20 = 8 slots; b's 800 rows copied 8 times
    assert [k["multicast_rows"] for k in plan["keys"]][:2] == [0, 6400]
    assert plan["null_bypass"] == {"left": False, "right": True}
    config = plan["config"]
    assert config["groups"] == [{"when": "a.k0 = 1", "slots": 8, "distribute": "random"}]
    assert config["total_slots"] == 20
    assert [str(v) for v in config["hot_keys"]["a"]] == ["0"] and config["hot_keys"]["b"] == [None]


def test_the_multicast_guard(renderer: Callable[..., Renderer]) -> None:
    """8 slots x 800 rows of b is over a budget of 2,000 rows, which allows 2 slots;
    a budget of 1,000 allows fewer than 2: nothing copied, the key left to the shuffle join."""
    case = _example()
    case["options"]["max_multicast_rows"] = 2000
    assert _decisions(_jinja_plan(renderer, case))[1] == (["1"], "group", "left", 2)
    case["options"]["max_multicast_rows"] = 1000
    plan = _jinja_plan(renderer, case)
    assert (["1"], "rest", None, 0) in [(k["values"], k["action"], k["side"], k["slots"]) for k in plan["keys"]]
    assert plan["keys"][1]["multicast_rows"] == 0 and "groups" not in plan["config"]


def test_an_outer_join_copies_only_the_null_supplying_side(renderer: Callable[..., Renderer]) -> None:
    """A left join may copy only b: a key heavier on b is still driven by a (a's 800 of the 5,000
    rows it shuffles: 3.2 -> 3 slots), and b's 2,000 rows are copied to each of them; a full outer
    join copies neither side: the key is broadcast anyway."""
    case = _example()
    case["counts"] = [(5000, 3), (800, 2000), (5, 5)]
    plan = _jinja_plan(renderer, case)
    assert _decisions(plan)[1] == (["1"], "group", "left", 3)
    assert plan["keys"][1]["multicast_rows"] == 6000
    case["join_type"] = "full"
    assert _decisions(_jinja_plan(renderer, case))[1] == (["1"], "hot_key", "right", 0)


def test_nothing_above_min_share_is_the_plain_join(renderer: Callable[..., Renderer]) -> None:
    case = {"types": ["int"], "tuples": [(0,), (1,)], "counts": [(10, 10), (20, 1)], "totals": [10000, 4000],
            "nulls": [5, 5], "join_type": "inner", "total_slots": 20,
            "options": {"min_share": 0.01, "max_keys": 5, "max_broadcast_rows": 100, "max_multicast_rows": 10**7,
                        "sample_fraction": None}}  # fmt: skip
    assert _jinja_plan(renderer, case)["config"] == {}

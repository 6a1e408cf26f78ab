"""The profile's config and skew_join's compile-time check (macros/skew_join/verify.sql) agree:
the check drops a declared hot key or group holding less than one slot's even share
(1/total_slots) unless the config sets `verify`; the profile plans keys down to min_share, so
when one is under 1/total_slots its config carries `verify` and its report says why. No Spark."""

from __future__ import annotations

from skewjoin.config_text import jinja_config_line
from skewjoin.planner import KeyStat, OtherStats, PlanOptions, SideStats, plan
from skewjoin.report import report, to_json


def _side(shares: list[int], total: int = 10_000) -> SideStats:
    return SideStats("a", ("k",), ("int",), total, 0, tuple(KeyStat((i,), n) for i, n in enumerate(shares)), source="t")


def test_keys_under_one_slots_share_get_verify_and_a_reason() -> None:
    # 16 slots: the check's default is 1/16 = 6.25% of a side's rows; keys of 2% each are planned
    result = plan(_side([200, 200, 900]), PlanOptions(total_slots=16, min_share=0.01))
    assert [d.action for d in result.keys] == ["hot_key", "hot_key", "hot_key"]
    assert result.verify_share == 0.01
    assert result.config["verify"] == 0.01
    text = report(result)
    assert "'verify': 0.01" in jinja_config_line(result.config) and "'verify': 0.01" in text
    assert "verify: 0.01" in text  # the YAML
    note = next(line for line in text.splitlines() if line.startswith("  - verify 0.01"))
    assert "1/16 = 6.25%" in note and "2 planned key(s) hold less" in note
    assert "0 (2.00%)" in note and "1 (2.00%)" in note and "2 (9.00%)" not in note
    assert to_json(result)["verify"]["share"] == 0.01


def test_no_verify_when_every_key_clears_the_default_check() -> None:
    # 200 slots: 1/200 = 0.5%, every planned key holds at least min_share 1%
    result = plan(_side([200, 900]), PlanOptions(total_slots=200, min_share=0.01))
    assert result.verify_share is None and "verify" not in result.config
    assert "verify" not in report(result) and to_json(result)["verify"] is None
    # 16 slots, keys of 9% and 7%: above 6.25%
    assert plan(_side([900, 700]), PlanOptions(total_slots=16)).verify_share is None


def test_verify_is_the_smallest_planned_share_rounded_down() -> None:
    # min_share 0.025: keys of 3% and 2.5% on 16 slots; the verify share keeps both
    result = plan(_side([300, 250]), PlanOptions(total_slots=16, min_share=0.025))
    assert result.verify_share == 0.025
    # a group driven by the other side is checked against the other side's rows (here 1.234%,
    # under min_share 5%): verify 0.012 keeps it
    other = OtherStats("b", ("k",), ("int",), 100_000, 0, source="o")
    side = SideStats("a", ("k",), ("int",), 10_000, 0, (KeyStat((1,), 1000, 1234),), source="t")
    grouped = plan(side, PlanOptions(total_slots=16, min_share=0.05, max_broadcast_rows=100), other)
    assert [d.action for d in grouped.keys] == ["group"] and grouped.keys[0].driver == "b"
    assert grouped.verify_share == 0.012


def test_no_config_no_verify() -> None:
    result = plan(_side([10, 20]), PlanOptions(total_slots=16, min_share=0.05))
    assert result.config == {} and result.verify_share is None

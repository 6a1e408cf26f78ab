"""The two-sided planner: the plan ``skew_join: 'auto'`` makes from measured counts.

``skew_join`` with ``skew_join: 'auto'`` measures both inputs at run time (one
aggregate query a side) and plans in Jinja (``_sj_auto_plan`` in
macros/skew_join/skew_auto.sql). This module is that planning in Python, rule
for rule: a property-based test feeds the same counts to both and compares
the two plans, so the macro and the Python helpers decide identically.

The rules are those of :func:`skewjoin.planner.plan` (``skewjoin profile``),
applied to both sides at once:

- A key is a candidate when it holds at least ``min_share`` of the rows of
  either side; the ``max_keys`` heaviest (by the larger of its two shares)
  are planned, the others left to the shuffle join.
- The side with more rows of the key is its heavy side. The key is a hot key
  of that side (its rows streamed, the other side's rows of the key
  broadcast) while all hot keys' broadcast rows together stay within
  ``max_broadcast_rows``.
- Over that budget it becomes a skew group, driven by the heavy side when the
  join may copy the other side's rows (outer joins copy only the
  null-supplying side), else by the other side; when neither side may be
  copied (a full outer join) it stays a hot key and the plan says the
  broadcast is over budget.
- Slots: a group's share is its driver's rows of the key over the rows its
  driver sends to the shuffle join; the slots come from
  :func:`skewjoin.planner.allocate_slots` in exact fractions.
- Multicast guard: a group copies the other side's rows of its key to each
  of its slots; where that exceeds ``max_multicast_rows``, the group gets as
  many slots as the budget allows; where that is fewer than two, nothing is
  copied and the key goes to one slot by its hash, as ``distribute: keys``
  would.
- One slot spreads nothing: a group left with one slot is no group, and its
  key stays in the shuffle join.
- NULL keys never match: a side whose NULL-key rows reach ``min_share``
  routes them around the join (``null`` in its hot keys).
- Nothing above ``min_share`` gives the plain join (an empty config).

Counts may come from a sample (``sample_fraction``): shares are the sample's,
and the broadcast and multicast budgets are compared with the counts scaled
to the whole input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from skewjoin.errors import PlanError
from skewjoin.literals import KeyValue, declarable, spark_ident, spark_literal
from skewjoin.planner import JOIN_SEMANTICS, JOIN_TYPES, allocate_slots, scaled_count

__all__ = ["AutoOptions", "JoinKey", "JoinPlan", "MeasuredKey", "MeasuredSide", "PlannedKey", "plan_join"]

Side = Literal["left", "right"]
SIDES: tuple[Side, Side] = ("left", "right")


def _other(side: Side) -> Side:
    return "right" if side == "left" else "left"


@dataclass(frozen=True)
class JoinKey:
    """One key column pair: each side's column and the type the keys are compared in."""

    left: str
    right: str
    type: str


@dataclass(frozen=True)
class MeasuredSide:
    """One input as measured: its alias, its rows and its rows with a NULL key (of the sample when sampled)."""

    alias: str
    total_rows: int
    null_rows: int = 0

    def __post_init__(self) -> None:
        if self.total_rows < 0 or not 0 <= self.null_rows <= self.total_rows:
            raise PlanError(f"{self.alias}: inconsistent counts, {self.null_rows} NULL-key rows of {self.total_rows}")


@dataclass(frozen=True)
class MeasuredKey:
    """One non-NULL key value and its rows on each side."""

    values: tuple[KeyValue, ...]
    left_rows: int
    right_rows: int

    def rows(self, side: Side) -> int:
        return self.left_rows if side == "left" else self.right_rows


@dataclass(frozen=True)
class AutoOptions:
    total_slots: int = 200
    min_share: float = 0.01
    max_keys: int = 20
    max_broadcast_rows: int = 100_000
    max_multicast_rows: int = 10_000_000
    sample_fraction: float | None = None
    join_type: str = "inner"

    def __post_init__(self) -> None:
        if self.total_slots < 2:
            raise PlanError(f"total_slots must be at least 2; got {self.total_slots}")
        if not 0 < self.min_share < 1:
            raise PlanError(f"min_share is a fraction above 0 and below 1; got {self.min_share}")
        if self.max_keys < 1 or self.max_broadcast_rows < 0 or self.max_multicast_rows < 0:
            raise PlanError("max_keys >= 1, max_broadcast_rows >= 0 and max_multicast_rows >= 0")
        if self.sample_fraction is not None and not 0 < self.sample_fraction <= 1:
            raise PlanError(f"sample_fraction is above 0 and at most 1; got {self.sample_fraction}")
        if self.join_type not in JOIN_TYPES:
            raise PlanError(f"join_type is one of {', '.join(JOIN_TYPES)}; got {self.join_type!r}")

    def estimate(self, rows: int) -> int:
        """Counted *rows* scaled to the whole input when sampled."""
        return scaled_count(rows, self.sample_fraction)


@dataclass
class PlannedKey:
    """What the plan does with one candidate key."""

    key: MeasuredKey
    shares: dict[str, float]
    #: hot_key: streamed on `side`, the other side broadcast; group: driven by `side`
    action: Literal["hot_key", "group", "rest"]
    side: Side | None = None
    reason: str = ""
    slots: int = 0
    #: the copied side's rows of the key (scaled when sampled) times the slots
    multicast_rows: int = 0
    #: (numerator, denominator) of the group's share of its driver's shuffled rows
    share_of_driver: tuple[int, int] = (0, 1)


@dataclass
class JoinPlan:
    keys: list[PlannedKey]
    null_bypass: dict[str, bool]
    config: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    def decisions(self) -> list[tuple[tuple[KeyValue, ...], str, str | None, int]]:
        """(values, action, side, slots) per candidate key: what the parity test compares."""
        return [(k.key.values, k.action, k.side, k.slots) for k in self.keys]


def _max_share(k: MeasuredKey, totals: dict[str, int]) -> float:
    return max(k.left_rows / totals["left"] if totals["left"] else 0.0,
               k.right_rows / totals["right"] if totals["right"] else 0.0)  # fmt: skip


def _when(alias: str, columns: Sequence[str], keys: Sequence[JoinKey], values: Sequence[KeyValue]) -> str:
    return " and ".join(
        f"{alias}.{spark_ident(c)} = {spark_literal(v, k.type)}" for c, k, v in zip(columns, keys, values, strict=True)
    )


def _size_group(p: PlannedKey, slots: int, copied: int, budget: int) -> None:
    """The group's slots, the multicast guard, and the one-slot rule (see the module doc)."""
    p.slots = slots
    if slots >= 2 and copied * slots > budget:
        fit = budget // copied
        if fit >= 2:
            p.reason += f"; the multicast budget {budget:,} rows allows {fit} slots of {slots}"
            p.slots = fit
        else:
            p.reason += (
                f"; {slots} slots would copy {copied * slots:,} rows, over the multicast budget {budget:,}: "
                "nothing copied, the key hashed to one slot as distribute keys would"
            )
            p.slots = 1
    if p.slots < 2:
        p.action, p.side, p.slots = "rest", None, 0
        p.reason += "; one slot spreads nothing: left to the shuffle join"
        return
    p.multicast_rows = copied * p.slots


def plan_join(
    left: MeasuredSide, right: MeasuredSide, keys: Sequence[JoinKey], measured: Sequence[MeasuredKey],
    options: AutoOptions, left_columns: Sequence[str] | None = None, right_columns: Sequence[str] | None = None,
) -> JoinPlan:  # fmt: skip
    """The plan for the measured counts (see the module doc)."""
    sides = {"left": left, "right": right}
    totals = {"left": left.total_rows, "right": right.total_rows}
    columns = {
        "left": tuple(left_columns or [k.left for k in keys]),
        "right": tuple(right_columns or [k.right for k in keys]),
    }
    semantics = JOIN_SEMANTICS[options.join_type]
    types = [k.type for k in keys]
    for m in measured:
        if len(m.values) != len(keys):
            raise PlanError(f"key {m.values!r} has {len(m.values)} values for {len(keys)} key columns")
    candidates = [m for m in measured if _max_share(m, totals) >= options.min_share]
    candidates = sorted(candidates, key=lambda m: -_max_share(m, totals))
    planned: list[PlannedKey] = []
    notes: list[str] = []
    broadcast = 0
    for m in candidates[: options.max_keys]:
        shares = {s: (m.rows(s) / totals[s] if totals[s] else 0.0) for s in SIDES}
        heavy: Side = "left" if m.left_rows >= m.right_rows else "right"
        light = _other(heavy)
        if not all(declarable(v, t) for v, t in zip(m.values, types, strict=True)):
            planned.append(PlannedKey(m, shares, "rest", reason="the value cannot be declared (not a finite number)"))
            continue
        o = options.estimate(m.rows(light))
        if broadcast + o <= options.max_broadcast_rows:
            broadcast += o
            planned.append(PlannedKey(m, shares, "hot_key", heavy,
                                      f"broadcast {sides[light].alias}'s {o:,} row(s) of this key"))  # fmt: skip
            continue
        over = (
            f"{sides[light].alias} has {o:,} rows of this key, over the broadcast budget of "
            f"{options.max_broadcast_rows:,} rows" + (f" ({broadcast:,} already taken)" if broadcast else "")
        )
        driver = next((d for d in (heavy, light) if _other(d) not in semantics.no_multicast), None)
        if driver is None:
            planned.append(PlannedKey(m, shares, "hot_key", heavy, over + f"; a {options.join_type} join cannot "
                                      "copy either side's rows, so it is broadcast anyway"))  # fmt: skip
            notes.append(f"key {', '.join(map(str, m.values))}: {o:,} rows broadcast, over the budget")
            continue
        planned.append(PlannedKey(m, shares, "group", driver, over))

    null_bypass = {s: bool(sides[s].null_rows) and sides[s].null_rows / totals[s] >= options.min_share for s in SIDES}
    groups = [p for p in planned if p.action == "group"]
    if groups:
        shuffled = {}
        for s in SIDES:
            hot = sum(p.key.rows(s) for p in planned if p.action == "hot_key")
            shuffled[s] = totals[s] - hot - (sides[s].null_rows if null_bypass[s] else 0)
        kept = groups[: options.total_slots - 1]
        for p in groups[len(kept) :]:
            p.action, p.side = "rest", None
            p.reason += f"; no slot left (total_slots {options.total_slots})"
        fractions = []
        for p in kept:
            assert p.side is not None
            d = shuffled[p.side]
            p.share_of_driver = (p.key.rows(p.side), d) if d > 0 else (0, 1)
            fractions.append(Fraction(*p.share_of_driver))
        for p, n in zip(kept, allocate_slots(fractions, options.total_slots), strict=True):
            assert p.side is not None
            p.reason += f"; {n} slot(s) for {p.share_of_driver[0]:,} of the {p.share_of_driver[1]:,} rows " \
                        f"{sides[p.side].alias} shuffles"  # fmt: skip
            _size_group(p, n, options.estimate(p.key.rows(_other(p.side))), options.max_multicast_rows)

    config: dict[str, Any] = {}
    hot_keys: dict[str, list[Any]] = {}
    for s in SIDES:
        values: list[Any] = [
            (p.key.values[0] if len(keys) == 1 else list(p.key.values))
            for p in planned
            if p.action == "hot_key" and p.side == s
        ]
        if null_bypass[s]:
            values.append(None if len(keys) == 1 else [None] * len(keys))
        if values:
            hot_keys[sides[s].alias] = values
    if hot_keys:
        config["hot_keys"] = hot_keys
    live = [p for p in planned if p.action == "group"]
    if live:
        config["groups"] = [
            {"when": _when(sides[p.side].alias, columns[p.side], keys, p.key.values), "slots": p.slots,
             "distribute": "random"}
            for p in live
            if p.side is not None
        ]  # fmt: skip
        config["total_slots"] = options.total_slots
    if len(candidates) > options.max_keys:
        notes.append(f"{len(candidates) - options.max_keys} more key(s) above min_share left to the shuffle join "
                     "(max_keys)")  # fmt: skip
    return JoinPlan(planned, null_bypass, config, notes)

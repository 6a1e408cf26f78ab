"""The slot planner: from measured key counts to a ready-to-paste ``skew_join`` config.

Pure Python (no Spark): :func:`plan` takes what ``skewjoin profile`` measured
(:class:`SideStats` for the profiled input, optionally :class:`OtherStats` and
per-key counts on the other input) and decides, key by key, how the
``skew_join`` macro should treat it:

- ``hot_key``: joined by broadcast where it is read (Hive's skewed join). Chosen when the
  other side's rows of the key are few (all hot keys' rows together stay under
  ``max_broadcast_rows``), or when the other side was not measured (the seed's
  assumption, stated in the notes).
- ``group``: an explicit skew group (HIVE-3286) whose driver side's rows are
  spread at random over a slot range and whose other side's rows are copied to
  each slot of the range. Chosen when the other side has too many rows of the
  key to broadcast (typically: hot on both sides). The driver is the side with
  more rows of the key; outer joins may only multicast the null-supplying side.
- ``rest``: below ``min_share``: left to the ordinary shuffle join.

NULL keys never match; when they are at least ``min_share`` of the rows,
``null`` goes into ``hot_keys`` and the macro routes them around the join.

Slot sizing (:func:`allocate_slots`): a group whose key holds a share ``s`` of
the rows its driver side sends to the shuffle join gets ``round(s * total)``
slots, at least 1; the rows in no group keep at least one slot, so the groups
together take at most ``total - 1`` (the rule ``skew_join`` enforces); when
the groups ask for more, the slots above one each are shared out in
proportion to the shares (largest remainders).

The config comes out as a Python dict (:attr:`Plan.config`);
:mod:`skewjoin.literals` writes it as YAML and Jinja, :mod:`skewjoin.report`
as the report.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from skewjoin.errors import PlanError
from skewjoin.literals import KeyValue, declarable, normalize_type, spark_ident, spark_literal, type_kind
from skewjoin.options import DEFAULTS, JOIN_TYPES

__all__ = [
    "JOIN_TYPES",
    "KeyDecision",
    "KeyStat",
    "OtherStats",
    "Plan",
    "PlanError",
    "PlanOptions",
    "SideStats",
    "allocate_slots",
    "plan",
]

Action = Literal["hot_key", "group", "rest"]


# -- measurements -----------------------------------------------------------------------


@dataclass(frozen=True)
class KeyStat:
    """One non-NULL key value (tuple for multi-column keys) and its row counts."""

    values: tuple[KeyValue, ...]
    rows: int
    #: exact rows with this key on the other side (None when not measured)
    other_rows: int | None = None


def scaled_count(rows: int, sample_fraction: float | None) -> int:
    """*rows* counted in a sample of *sample_fraction* (None or 1: no sample), scaled to the whole input."""
    if sample_fraction is None or sample_fraction >= 1:
        return rows
    return round(rows / sample_fraction)


@dataclass(frozen=True)
class SideStats:
    """What was measured on the profiled input (counts are of the sample when sampled)."""

    alias: str
    columns: tuple[str, ...]
    types: tuple[str, ...]
    total_rows: int
    null_rows: int
    top: tuple[KeyStat, ...]
    source: str = ""
    sample_fraction: float | None = None
    #: "left" or "right": the input's position in skew_join(left, right, ...)
    position: Literal["left", "right"] = "left"

    def __post_init__(self) -> None:
        if len(self.columns) != len(self.types) or not self.columns:
            raise PlanError("one type per key column, and at least one key column")
        if self.total_rows < 0 or not 0 <= self.null_rows <= self.total_rows:
            raise PlanError(f"inconsistent counts: {self.null_rows} NULL-key rows of {self.total_rows}")
        for stat in self.top:
            if len(stat.values) != len(self.columns):
                raise PlanError(f"key {stat.values!r} has {len(stat.values)} values for {len(self.columns)} columns")

    @property
    def sampled(self) -> bool:
        return self.sample_fraction is not None and self.sample_fraction < 1

    def share(self, rows: int) -> float:
        """*rows* as a fraction of all rows counted (0 for an empty input)."""
        return rows / self.total_rows if self.total_rows else 0.0

    def estimate(self, rows: int) -> int:
        """*rows* counted, scaled to the whole input when sampled."""
        return scaled_count(rows, self.sample_fraction)

    def margin(self, rows: int) -> float:
        """Half-width of the 95% interval of the share of *rows* (0 when exact)."""
        if not self.sampled or not self.total_rows:
            return 0.0
        p = self.share(rows)
        return 1.96 * math.sqrt(p * (1 - p) / self.total_rows)


@dataclass(frozen=True)
class OtherStats:
    """The other join input: its key columns, its size and its NULL-key rows (exact)."""

    alias: str
    columns: tuple[str, ...]
    types: tuple[str, ...]
    total_rows: int
    null_rows: int = 0
    source: str = ""


@dataclass(frozen=True)
class PlanOptions:
    """The knobs of :func:`plan` (the CLI options of ``skewjoin profile``; defaults from
    :data:`skewjoin.options.DEFAULTS`)."""

    #: the slot count the groups are planned with
    total_slots: int = 200
    #: where that number comes from (or, when it is not written, what it assumes)
    total_slots_source: str = "Spark's default spark.sql.shuffle.partitions"
    #: write ``total_slots`` into the config; when False the model's own default applies at run time
    write_total_slots: bool = True
    min_share: float = DEFAULTS.min_share
    max_keys: int = DEFAULTS.max_keys
    max_broadcast_rows: int = DEFAULTS.max_broadcast_rows
    join_type: str = DEFAULTS.join_type
    other_alias: str | None = None

    def __post_init__(self) -> None:
        if self.total_slots < 2:
            raise PlanError(
                f"total_slots must be at least 2 (one for a group, one for the rest); got {self.total_slots}"
            )
        if not 0 < self.min_share < 1:
            raise PlanError(f"min_share is a fraction above 0 and below 1; got {self.min_share}")
        if self.max_keys < 1:
            raise PlanError(f"max_keys must be at least 1; got {self.max_keys}")
        if self.max_broadcast_rows < 0:
            raise PlanError(f"max_broadcast_rows must be >= 0; got {self.max_broadcast_rows}")
        if self.join_type not in JOIN_TYPES:
            raise PlanError(f"join_type is one of {', '.join(JOIN_TYPES)}; got {self.join_type!r}")


# -- slots ------------------------------------------------------------------------------


def _round_half_up(x: float | Fraction) -> int:
    if isinstance(x, Fraction):
        return math.floor(x + Fraction(1, 2))
    # the tolerance keeps products such as 0.145 * 100 = 14.499999999999998 at their decimal half
    return int(math.floor(x + 0.5 + 1e-9))


def allocate_slots(shares: Sequence[float | Fraction], total_slots: int) -> list[int]:
    """Slots for groups with the given *shares* (fractions of the rows to spread).

    Each group gets ``round(share * total_slots)`` (half up, exact for
    :class:`~fractions.Fraction` shares), at least 1. The
    groups together keep at least one slot for the rows in no group; when they
    would take more than ``total_slots - 1``, each keeps 1 and the remaining
    ``total_slots - 1 - len(shares)`` slots are shared in proportion to the
    shares by largest remainders (ties to the earlier group). Raises
    :class:`PlanError` when there are more groups than ``total_slots - 1``.
    """
    if total_slots < 2:
        raise PlanError(f"total_slots must be at least 2; got {total_slots}")
    if any(not (s >= 0) or math.isinf(s) for s in shares):
        raise PlanError(f"shares must be finite and >= 0; got {list(shares)}")
    n = len(shares)
    if n == 0:
        return []
    budget = total_slots - 1
    if n > budget:
        raise PlanError(f"{n} groups need at least {n} slots plus one for the rest; total_slots is {total_slots}")
    wanted = [max(1, _round_half_up(s * total_slots)) for s in shares]
    if sum(wanted) <= budget:
        return wanted
    spare = budget - n
    # exact fractions: in floats, shares of 1.0 and 0.9999999999999999 can get the
    # same remainder, and the smaller share the extra slot
    exact = [Fraction(s) for s in shares]
    weight = sum(exact)
    if weight <= 0:
        return [1] * n
    ideal = [x / weight * spare for x in exact]
    extra = [math.floor(x) for x in ideal]
    left = spare - sum(extra)
    order = sorted(range(n), key=lambda i: (-(ideal[i] - extra[i]), i))
    for i in order[:left]:
        extra[i] += 1
    return [1 + e for e in extra]


# -- the plan ---------------------------------------------------------------------------


@dataclass
class KeyDecision:
    """What the plan does with one measured key."""

    stat: KeyStat
    share: float
    action: Action
    reason: str
    driver: str | None = None
    #: the driver side's share of rows reaching the shuffle join (groups only)
    group_share: float = 0.0
    slots: int = 0
    first_slot: int | None = None
    last_slot: int | None = None
    when: str | None = None


@dataclass
class Plan:
    side: SideStats
    other: OtherStats | None
    options: PlanOptions
    keys: list[KeyDecision]
    null_action: Action
    null_reason: str
    rest_slots: int
    other_alias: str = "b"
    notes: list[str] = field(default_factory=list)

    @property
    def hot_keys(self) -> list[KeyDecision]:
        return [k for k in self.keys if k.action == "hot_key"]

    @property
    def groups(self) -> list[KeyDecision]:
        return [k for k in self.keys if k.action == "group"]

    @property
    def rest_rows(self) -> int:
        """Counted rows of the profiled side left to the plain shuffle join."""
        taken = sum(k.stat.rows for k in self.keys if k.action != "rest")
        if self.null_action == "hot_key":
            taken += self.side.null_rows
        return self.side.total_rows - taken

    @property
    def config(self) -> dict[str, Any]:
        """The ``skew_join`` specification: ``{}`` when nothing needs handling."""
        side = self.side
        hot: list[Any] = []
        for k in self.hot_keys:
            hot.append(k.stat.values[0] if len(k.stat.values) == 1 else list(k.stat.values))
        if self.null_action == "hot_key":
            hot.append(None if len(side.columns) == 1 else [None] * len(side.columns))
        config: dict[str, Any] = {}
        if hot:
            config["hot_keys"] = {side.alias: hot}
        if self.groups:
            config["groups"] = [{"when": k.when, "slots": k.slots, "distribute": "random"} for k in self.groups]
        if config and self.options.write_total_slots:
            config["total_slots"] = self.options.total_slots
        if config and self.verify_share is not None:
            config["verify"] = self.verify_share
        return config

    def verified_shares(self) -> list[tuple[KeyDecision, float]]:
        """Each planned hot key and group with the share skew_join's check counts for it at compile
        time (macros/skew_join/verify.sql): a hot key's share of the profiled side's rows, a group's
        share of its driver side's rows. NULL keys are not checked."""
        shares: list[tuple[KeyDecision, float]] = []
        for d in self.keys:
            if d.action == "hot_key" or (d.action == "group" and d.driver == self.side.alias):
                shares.append((d, d.share))
            elif d.action == "group" and self.other is not None and self.other.total_rows > 0:
                shares.append((d, (d.stat.other_rows or 0) / self.other.total_rows))
        return shares

    @property
    def verify_share(self) -> float | None:
        """The ``verify`` share the config must carry for the check to keep every planned key, or None.

        Before it plans, skew_join counts each declared hot key and group and drops one holding less
        than ``verify`` of its side's rows, which by default is one slot's even share,
        ``1 / total_slots``. This plan keeps keys down to ``min_share``: when one is under
        ``1 / total_slots``, the config sets ``verify`` to the smallest share planned, rounded down
        (at most ``min_share``), so the check keeps what the profile planned.
        """
        shares = [s for _, s in self.verified_shares()]
        if not shares or min(shares) >= 1 / self.options.total_slots:
            return None
        smallest = min(min(shares), self.options.min_share)
        # rounded down to two significant digits: 0.0123 -> 0.012, never above a planned share
        digits = max(2, 1 - math.floor(math.log10(smallest))) if smallest > 0 else 4
        value = math.floor(smallest * 10**digits) / 10**digits
        return value if value > 0 else None


@dataclass(frozen=True)
class JoinSemantics:
    """What a join type means for its two sides ("left", "right"): the same
    table as the macros' ``_sj_join_semantics`` (macros/_internal/
    join_semantics.sql); a unit test renders the macro and compares.

    keeps_unmatched: sides whose rows that match nothing are still returned;
    no_multicast: sides whose rows must never be copied to several slots;
    broadcastable: sides a broadcast hash join may build.
    """

    keeps_unmatched: frozenset[str]
    no_multicast: frozenset[str]
    broadcastable: frozenset[str]
    returns_right: bool


def _sides(*names: str) -> frozenset[str]:
    return frozenset(names)


JOIN_SEMANTICS: dict[str, JoinSemantics] = {
    "inner": JoinSemantics(_sides(), _sides(), _sides("left", "right"), True),
    "left": JoinSemantics(_sides("left"), _sides("left"), _sides("right"), True),
    "right": JoinSemantics(_sides("right"), _sides("right"), _sides("left"), True),
    "full": JoinSemantics(_sides("left", "right"), _sides("left", "right"), _sides(), True),
    "left semi": JoinSemantics(_sides(), _sides("left"), _sides("right"), False),
    "left anti": JoinSemantics(_sides("left"), _sides("left"), _sides("right"), False),
}


def _when(alias: str, columns: Sequence[str], types: Sequence[str], values: Sequence[KeyValue]) -> str:
    parts = [
        f"{alias}.{spark_ident(c)} = {spark_literal(v, t)}" for c, t, v in zip(columns, types, values, strict=True)
    ]
    return " and ".join(parts)


def fmt_rows(n: int) -> str:
    """A row count with thousands separators."""
    return f"{n:,}"


def fmt_share(share: float, threshold: float | None = None) -> str:
    """A share as a percentage with two decimals, or as many more (up to six) as it takes not to print the
    same text as a different `threshold` (0.998% under a min_share of 1% is 0.998%, not 1.00%)."""
    for places in range(2, 7):
        text = f"{share:.{places}%}"
        if threshold is None or share == threshold or text != f"{threshold:.{places}%}":
            return text
    return text


def plan(side: SideStats, options: PlanOptions, other: OtherStats | None = None) -> Plan:
    """Decide each measured key's treatment and size the skew groups (see the module doc)."""
    if other is not None and len(other.columns) != len(side.columns):
        raise PlanError(
            f"the other side has {len(other.columns)} key column(s) ({', '.join(other.columns)}) "
            f"and {side.alias} has {len(side.columns)} ({', '.join(side.columns)})"
        )
    other_alias = options.other_alias or (other.alias if other is not None else ("b" if side.alias != "b" else "a"))
    if other_alias.lower() == side.alias.lower():
        raise PlanError(f"the two sides need different aliases; both are {side.alias!r}")
    other_position = "right" if side.position == "left" else "left"
    preserved = JOIN_SEMANTICS[options.join_type].no_multicast
    notes: list[str] = []
    decisions: list[KeyDecision] = []
    budget = options.max_broadcast_rows
    broadcast_rows = 0

    candidates = sorted(side.top, key=lambda s: -s.rows)[: options.max_keys]
    for stat in candidates:
        share = side.share(stat.rows)
        shown = ", ".join(str(v) for v in stat.values)
        if share < options.min_share:
            decisions.append(
                KeyDecision(
                    stat,
                    share,
                    "rest",
                    f"{fmt_share(share, options.min_share)} is below min_share {options.min_share:.2%}",
                )
            )
            continue
        if any(normalize_type(t) == "binary" and "\ufffd" in str(v)
               for v, t in zip(stat.values, side.types, strict=True)):  # fmt: skip
            # the profile reads keys as text (cast(k as string)); bytes that are not UTF-8 come back as U+FFFD,
            # and a binary hot key is written as text cast to binary: those bytes cannot be written
            decisions.append(KeyDecision(stat, share, "rest", f"the value {shown} cannot be declared (not UTF-8)"))
            notes.append(
                f"key {shown} left to the shuffle join: its bytes are not UTF-8 text, and a binary hot key is "
                "declared as text (cast to binary)"
            )
            continue
        if not all(declarable(v, t) for v, t in zip(stat.values, side.types, strict=True)):
            decisions.append(KeyDecision(stat, share, "rest", f"the value {shown} cannot be declared (not a number)"))
            notes.append(
                f"key {shown} left to the shuffle join: skew_join takes a number (or NaN or an infinity of a "
                "float or double) as a key of this type"
            )
            continue
        if stat.other_rows is None:
            decisions.append(
                KeyDecision(stat, share, "hot_key", f"broadcast {other_alias}'s rows of this key (not measured)")
            )
            continue
        o = stat.other_rows
        both = other is not None and other.total_rows > 0 and o / other.total_rows >= options.min_share
        if broadcast_rows + o <= budget:
            broadcast_rows += o
            if o == 0:
                reason = f"{other_alias} has no rows of this key: nothing to broadcast"
            else:
                reason = f"broadcast {other_alias}'s {fmt_rows(o)} row(s) of this key"
                if both and other is not None:
                    reason += (
                        f" (hot on both sides, {o / other.total_rows:.1%} of {other_alias}, but within the "
                        f"broadcast budget: cheaper than copying them to every slot of a skew group)"
                    )
            decisions.append(KeyDecision(stat, share, "hot_key", reason))
            continue
        # too many rows on the other side to broadcast: a skew group, driven by the side with more rows of it
        why = (
            f"{other_alias} has {fmt_rows(o)} rows of this key"
            + (f" ({o / other.total_rows:.1%} of {other_alias}: hot on both sides)" if both and other else "")
            + f", over the broadcast budget of {fmt_rows(budget)} rows"
            + (f" ({fmt_rows(broadcast_rows)} already taken by other hot keys)" if broadcast_rows else "")
        )
        sides_by_rows = [(side.alias, side.position, other_position), (other_alias, other_position, side.position)]
        if other is not None and o > side.estimate(stat.rows):
            sides_by_rows.reverse()
        driver = None
        for alias, _position, copied_position in sides_by_rows:
            if copied_position not in preserved:
                driver = alias
                break
        if driver is None:
            decisions.append(
                KeyDecision(
                    stat,
                    share,
                    "hot_key",
                    why + f"; but a {options.join_type} join cannot copy either side's rows to several slots, "
                    "so it goes through the broadcast branch anyway",
                )
            )
            notes.append(
                f"key {shown}: a {options.join_type} join preserves both sides, so no skew group can spread it; "
                f"it is declared hot and {fmt_rows(o)} rows of {other_alias} will be broadcast: check the "
                "executors' memory (spark.sql.autoBroadcastJoinThreshold does not apply to hints)"
            )
            continue
        decisions.append(KeyDecision(stat, share, "group", why, driver=driver))

    # NULL keys
    null_share = side.share(side.null_rows)
    if side.null_rows and null_share >= options.min_share:
        null_action: Action = "hot_key"
        if side.position in JOIN_SEMANTICS[options.join_type].keeps_unmatched:
            null_reason = "NULL keys never match: these rows bypass the join, kept once with NULLs for the other side"
        else:
            null_reason = "NULL keys never match: these rows are dropped before the join instead of shuffled"
    else:
        null_action = "rest"
        null_reason = (
            "no NULL keys"
            if not side.null_rows
            else f"{fmt_share(null_share, options.min_share)} is below min_share {options.min_share:.2%}: "
            "left to the shuffle join"
        )

    # size the groups: share of the rows their driver sends to the shuffle join
    groups = [d for d in decisions if d.action == "group"]
    if groups:
        hot_rows_side = sum(d.stat.rows for d in decisions if d.action == "hot_key")
        side_shuffled = side.total_rows - hot_rows_side - (side.null_rows if null_action == "hot_key" else 0)
        other_shuffled = None
        if other is not None:
            other_shuffled = other.total_rows - sum(d.stat.other_rows or 0 for d in decisions if d.action == "hot_key")
        kept = groups[: options.total_slots - 1]
        for d in groups[len(kept) :]:
            d.action = "rest"
            d.driver = None
            d.reason += f"; no slot left (total_slots {options.total_slots})"
            notes.append(f"raise --total-slots to give key {', '.join(map(str, d.stat.values))} a group of its own")
        for d in kept:
            if d.driver == side.alias:
                d.group_share = d.stat.rows / side_shuffled if side_shuffled > 0 else 0.0
            else:
                o_rows = d.stat.other_rows or 0
                d.group_share = o_rows / other_shuffled if other_shuffled else 0.0
        slots = allocate_slots([d.group_share for d in kept], options.total_slots)
        rest_slots = options.total_slots - sum(slots)
        start = rest_slots
        for d, n in zip(kept, slots, strict=True):
            d.slots = n
            d.first_slot, d.last_slot = start, start + n - 1
            start += n
            if d.driver == side.alias:
                d.when = _when(side.alias, side.columns, side.types, d.stat.values)
            else:
                assert other is not None
                # literals in the profiled side's types: the values are its values
                d.when = _when(other_alias, other.columns, side.types, d.stat.values)
    else:
        rest_slots = options.total_slots

    if side.top and any(d.stat.other_rows is None for d in decisions if d.action == "hot_key"):
        notes.append(
            f"the other side was not measured: hot keys assume {other_alias} has few rows of each "
            "(as a map join does); pass --other to count them and get skew groups where it has many"
        )
    timestamp_keys = [c for c, t in zip(side.columns, side.types, strict=True) if type_kind(t) == "timestamp"]
    if timestamp_keys and any(d.action != "rest" for d in decisions):
        notes.append(
            f"timestamp key(s) {', '.join(timestamp_keys)} are written as text in the profiling session's time "
            "zone; dbt must run with the same spark.sql.session.timeZone to read them back as the same instants"
        )
    if side.sampled:
        notes.append(
            f"shares come from a {side.sample_fraction:.2%} sample; counts are scaled estimates "
            "(± is the 95% margin of the share)"
        )
    if len(side.top) >= options.max_keys and decisions and decisions[-1].share >= options.min_share:
        notes.append(
            f"the {options.max_keys}th key still has {decisions[-1].share:.2%}: more keys may be above "
            "min_share; raise --max-keys to see them"
        )
    return Plan(side, other, options, decisions, null_action, null_reason, rest_slots, other_alias, notes)

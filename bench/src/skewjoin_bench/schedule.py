"""Projected makespan: the measured tasks list-scheduled on P executor slots.

The machines the benchmark runs on have two cores, where a straggler and
everything else run side by side and wall time hides skew. What transfers to
a cluster is the set of task durations and the stages' dependencies: this
module replays them on P slots.

The model (:func:`makespan`):

- A stage becomes ready when all its parent stages have finished (Spark's
  DAG scheduler; the caller passes, as parents, the shuffle dependencies plus
  the jobs the driver waited for, e.g. a broadcast).
- Each time a slot is free, it takes a task of the ready stage that became
  ready first (ties: lower stage order, i.e. Spark's FIFO scheduler), and
  within that stage the longest remaining task (``longest-first``, the LPT
  rule: at most 4/3 of the optimal makespan) or the next task in the order
  the tasks were launched in the measured run (``launch``).
- Tasks are not preempted; a task's duration is its measured launch-to-finish
  time. Scheduling delay, executor start-up and data locality are ignored.

When a slot frees up and no stage is ready, it idles until the next stage
becomes ready.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

Order = Literal["longest-first", "launch"]
ORDERS: tuple[Order, ...] = ("longest-first", "launch")


@dataclass(frozen=True)
class StageTasks:
    """One stage: its task durations (seconds), in launch order, and the stages it waits for."""

    stage_id: int
    durations: tuple[float, ...]
    parents: frozenset[int] = field(default_factory=frozenset)
    #: the order the FIFO rule uses between stages ready at the same time (Spark: job id, stage id)
    order: tuple[int, ...] = ()


def makespan(stages: Sequence[StageTasks], slots: int, order: Order = "longest-first") -> float:
    """The time the *stages*' tasks take on *slots* slots under the model above.

    Parents that are not among *stages* are ignored (they did not run: skipped
    or reused). Raises ``ValueError`` on a dependency cycle, a negative
    duration or fewer than one slot.
    """
    if slots < 1:
        raise ValueError(f"slots must be >= 1, got {slots}")
    if order not in ORDERS:
        raise ValueError(f"order must be one of {ORDERS}, got {order!r}")
    by_id = {s.stage_id: s for s in stages}
    if len(by_id) != len(stages):
        raise ValueError("duplicate stage ids")
    for s in stages:
        if any(d < 0 for d in s.durations):
            raise ValueError(f"stage {s.stage_id} has a negative task duration")
    parents = {s.stage_id: {p for p in s.parents if p in by_id and p != s.stage_id} for s in stages}
    children: dict[int, list[int]] = {sid: [] for sid in by_id}
    for sid, ps in parents.items():
        for p in ps:
            children[p].append(sid)
    waiting = {sid: len(ps) for sid, ps in parents.items()}
    ready_at: dict[int, float] = {sid: 0.0 for sid, n in waiting.items() if n == 0}
    remaining: dict[int, list[float]] = {}
    for s in stages:
        if order == "longest-first":
            remaining[s.stage_id] = sorted(s.durations)  # pop() takes the longest
        else:
            remaining[s.stage_id] = list(reversed(s.durations))  # pop() takes the first launched
    finish: dict[int, float] = {}
    last_end: dict[int, float] = {sid: 0.0 for sid in by_id}
    free = [0.0] * slots  # min-heap of the times slots become free
    end_all = 0.0

    def stage_done(sid: int, at: float) -> None:
        finish[sid] = at
        for child in children[sid]:
            waiting[child] -= 1
            if waiting[child] == 0:
                ready_at[child] = max(finish[p] for p in parents[child])

    # stages without tasks finish as soon as they are ready
    def settle_empty() -> None:
        changed = True
        while changed:
            changed = False
            for sid in list(ready_at):
                if sid not in finish and not remaining[sid]:
                    stage_done(sid, ready_at[sid])
                    changed = True

    settle_empty()
    while len(finish) < len(by_id):
        candidates = [sid for sid in ready_at if sid not in finish and remaining[sid]]
        if not candidates:
            raise ValueError("the stage dependencies form a cycle")
        t_free = free[0]
        earliest = min(ready_at[sid] for sid in candidates)
        t = max(t_free, earliest)
        sid = min(
            (c for c in candidates if ready_at[c] <= t),
            key=lambda c: (ready_at[c], by_id[c].order or (c,), c),
        )
        heapq.heappop(free)
        duration = remaining[sid].pop()
        end = t + duration
        heapq.heappush(free, end)
        last_end[sid] = max(last_end[sid], end)
        end_all = max(end_all, end)
        if not remaining[sid]:
            stage_done(sid, max(last_end[sid], ready_at[sid]))
            settle_empty()
    return max(end_all, max(finish.values(), default=0.0))


def makespans(
    stages: Sequence[StageTasks], slot_counts: Iterable[int], order: Order = "longest-first"
) -> dict[int, float]:
    """:func:`makespan` for each slot count."""
    return {p: makespan(stages, p, order) for p in slot_counts}


def lower_bound(stages: Sequence[StageTasks], slots: int) -> float:
    """No schedule beats max(longest task, total work / slots) (ignoring dependencies)."""
    durations = [d for s in stages for d in s.durations]
    if not durations:
        return 0.0
    return max(max(durations), sum(durations) / slots)

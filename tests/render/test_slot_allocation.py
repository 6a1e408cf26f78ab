"""Slot sizing has two homes: `skewjoin profile`'s planner (skewjoin.planner.allocate_slots) and
skew_join's 'auto' plan (`_sj_allocate_slots`). This twin is kept because the profile plans
without dbt and pastes a config the macro then runs; the two are held equal here over generated
shares, without Spark."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from skewjoin.errors import PlanError
from skewjoin.planner import allocate_slots

from .harness import Renderer

FRACTIONS = st.lists(st.tuples(st.integers(0, 1000), st.integers(1, 1000)), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fractions=FRACTIONS, total=st.integers(2, 300))
@example(fractions=[(1, 1), (1, 1)], total=3)
@example(fractions=[(1, 2), (1, 2), (1, 2)], total=4)
@example(fractions=[(0, 1), (0, 5)], total=10)
@example(fractions=[(29, 100), (145, 1000), (1, 3)], total=100)
def test_python_and_macro_allocate_alike(renderer: Callable[..., Renderer], fractions: list[tuple[int, int]],
                                         total: int) -> None:  # fmt: skip
    assume(len(fractions) < total)  # more groups than slots: the planner refuses (below)
    macro = renderer().call("_sj_allocate_slots", [list(f) for f in fractions], total)
    ours = allocate_slots([Fraction(n, d) for n, d in fractions], total)
    assert ours == list(macro)
    assert sum(ours) <= total - 1 and all(s >= 1 for s in ours)


def test_more_groups_than_slots_are_refused() -> None:
    with pytest.raises(PlanError, match="3 groups need at least 3 slots plus one for the rest"):
        allocate_slots([Fraction(1, 3)] * 3, 3)

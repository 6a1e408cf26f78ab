"""The planner's options and their defaults, defined once.

``skewjoin profile`` (its click options), the profile request
(:class:`skewjoin.profiler.ProfileRequest`) and the planner
(:class:`skewjoin.planner.PlanOptions`) read their defaults from
:data:`DEFAULTS`. The ``skew_join`` macro's ``'auto'`` plan has its own
defaults (``_sj_auto_defaults`` in macros/skew_join/skew_auto.sql): a unit
test renders that macro and holds the shared options equal to these
(tests/render/test_planner_options.py).
"""

from __future__ import annotations

from dataclasses import dataclass

#: the join types skew_join supports (macros/_internal/join_semantics.sql)
JOIN_TYPES = ("inner", "left", "right", "full", "left semi", "left anti")


@dataclass(frozen=True)
class PlannerOptions:
    """What the planner is asked, and each option's default."""

    #: a key (or NULL) with at least this fraction of a side's rows is handled
    min_share: float = 0.01
    #: the heaviest keys looked at
    max_keys: int = 20
    #: the other side's rows the hot keys may broadcast in all
    max_broadcast_rows: int = 100_000
    #: the join skew_join does
    join_type: str = "inner"


DEFAULTS = PlannerOptions()

#: the options the macro's 'auto' plan shares with the Python planner (same name, same meaning)
SHARED_WITH_THE_MACRO = ("min_share", "max_keys", "max_broadcast_rows")

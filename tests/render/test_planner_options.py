"""The planner's options are defined once in Python (skewjoin.options.PlannerOptions, read by
`skewjoin profile`, its request and the planner) and once in the macros (`_sj_auto_defaults`,
the defaults of skew_join's 'auto' plan). This is the one twin: the options both have must
default alike. No Spark: the macro is rendered by the harness."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

from skewjoin.options import DEFAULTS, JOIN_TYPES, SHARED_WITH_THE_MACRO, PlannerOptions
from skewjoin.planner import JOIN_SEMANTICS, PlanOptions
from skewjoin.profiler import ProfileRequest

from .harness import Renderer


def test_the_macro_defaults_equal_the_python_defaults(renderer: Callable[..., Renderer]) -> None:
    macro = renderer().call("_sj_auto_defaults")
    for name in SHARED_WITH_THE_MACRO:
        assert name in macro, f"{name} is no option of the macro's 'auto' plan: {sorted(macro)}"
        assert macro[name] == getattr(DEFAULTS, name), name
        assert type(macro[name]) is type(getattr(DEFAULTS, name)), name


def test_every_python_reader_takes_its_defaults_from_one_place() -> None:
    """The planner and the profile request default to skewjoin.options.DEFAULTS, field for field."""
    request = ProfileRequest(table="t", keys=["k"])
    planner = PlanOptions()
    for f in fields(PlannerOptions):
        assert getattr(request, f.name) == getattr(DEFAULTS, f.name), f.name
        assert getattr(planner, f.name) == getattr(DEFAULTS, f.name), f.name
    assert set(JOIN_TYPES) == set(JOIN_SEMANTICS)


def test_the_cli_defaults_are_the_same() -> None:
    """`skewjoin profile`'s options default to DEFAULTS, and every other option is a request field."""
    from skewjoin.cli import profile

    params = {p.name: p for p in profile.params}
    for f in fields(PlannerOptions):
        assert params[f.name].default == getattr(DEFAULTS, f.name), f.name
    request_fields = {f.name for f in fields(ProfileRequest)}
    cli_only = {"position", "sample", "project_dir", "profiles_dir", "dbt_profile", "dbt_target", "thrift",
                "warehouse", "metastore", "conf", "driver_memory", "as_json", "quiet"}  # fmt: skip
    assert set(params) - cli_only <= request_fields

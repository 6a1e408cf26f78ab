"""The join-semantics table: one definition in the macros
(`_sj_join_semantics`), the same in the Python planner (no Spark)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from skewjoin.planner import JOIN_SEMANTICS

from .harness import Renderer

JOIN_TYPES = ["inner", "left", "right", "full", "left semi", "left anti"]


def _macro_table(renderer: Callable[..., Renderer]) -> dict[str, dict[str, object]]:
    r = renderer()
    out = r.render(
        "{%- set t = {} -%}{%- for jt in " + json.dumps(JOIN_TYPES) + " -%}"
        "{%- do t.update({jt: skewjoin._sj_join_semantics(jt)}) -%}{%- endfor -%}{{ tojson(t) }}"
    )
    return json.loads(out)  # type: ignore[no-any-return]


def test_python_planner_uses_the_macros_join_semantics(renderer: Callable[..., Renderer]) -> None:
    macro = _macro_table(renderer)
    assert set(macro) == set(JOIN_SEMANTICS) == set(JOIN_TYPES)
    for jt in JOIN_TYPES:
        python = JOIN_SEMANTICS[jt]
        assert set(macro[jt]["keeps_unmatched"]) == python.keeps_unmatched, jt  # type: ignore[arg-type]
        assert set(macro[jt]["no_multicast"]) == python.no_multicast, jt  # type: ignore[arg-type]
        assert set(macro[jt]["broadcastable"]) == python.broadcastable, jt  # type: ignore[arg-type]
        assert macro[jt]["returns_right"] is python.returns_right, jt


@pytest.mark.parametrize(
    ("join_type", "keeps", "no_multicast", "broadcastable"),
    [
        # a preserved side is never multicast nor built into a broadcast hash table
        ("inner", [], [], ["left", "right"]),
        ("left", ["left"], ["left"], ["right"]),
        ("right", ["right"], ["right"], ["left"]),
        ("full", ["left", "right"], ["left", "right"], []),
        # a semi join returns each left row once: copies of it would duplicate it
        ("left semi", [], ["left"], ["right"]),
        # an anti join returns exactly the unmatched left rows
        ("left anti", ["left"], ["left"], ["right"]),
    ],
)
def test_join_semantics_rules(
    renderer: Callable[..., Renderer], join_type: str, keeps: list[str], no_multicast: list[str], broadcastable: list[str]
) -> None:
    row = _macro_table(renderer)[join_type]
    assert sorted(row["keeps_unmatched"]) == keeps  # type: ignore[arg-type]
    assert sorted(row["no_multicast"]) == no_multicast  # type: ignore[arg-type]
    assert sorted(row["broadcastable"]) == broadcastable  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spelling", "meaning"),
    [("LEFT OUTER JOIN", "left"), ("left  outer", "left"), ("outer", "full"), ("semi", "left semi"),
     ("anti join", "left anti"), ("inner", "inner"), ("join", "inner"), ("lfet", None)],
)
def test_join_type_spellings(renderer: Callable[..., Renderer], spelling: str, meaning: str | None) -> None:
    r = renderer()
    source = "{{ skewjoin._sj_normalize_join_type('skew_join', 'join_type', " + json.dumps(spelling) + ") }}"
    if meaning is None:
        message = r.compile_error(source)
        assert "unknown join type 'lfet' (did you mean 'left'?)" in message, message
    else:
        assert r.render(source).strip() == meaning

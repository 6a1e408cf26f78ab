"""The record's last line names the strategy the compiled SQL has: a union only where a hot-key branch or
kept NULL-key rows are unioned with the rest, a broadcast only where a hot-key branch is rendered.

A NULL-only hot-key specification (`[none]`), or hot keys that verification dropped beside a kept `none`,
renders no broadcast: the record said "hot keys by broadcast + ... results unioned" over SQL that filtered
the NULL keys out of a plain or salted shuffle join (skew_join), or over a chain whose NULL-key rows were
unioned around it (skew_join_chain)."""

from __future__ import annotations

from typing import Any

import pytest

from .harness import Renderer

SKEW = {"hot": "broadcast", "plain": "plain shuffle join", "slotted": "a shuffle join"}
CHAIN = {"hot": "a chain of broadcast joins", "plain": "the plain chain", "slotted": "a chain of shuffle joins"}


@pytest.fixture(scope="module")
def r(pkg: Any) -> Renderer:
    return Renderer({}, pkg=pkg)


@pytest.mark.parametrize(
    ("branch", "nulls", "grouped", "words", "expected"),
    [
        (True, None, False, SKEW, "strategy: hot keys by broadcast + plain shuffle join for the rest, results unioned"),
        (True, "kept", True, SKEW, "strategy: hot keys by broadcast + skew groups for the rest, results unioned"),
        (False, None, True, SKEW, "strategy: skew groups over a shuffle join on (keys, slot)"),
        (False, "dropped", False, SKEW, "strategy: plain shuffle join, the rows with a NULL key dropped before it"),
        (False, "dropped", True, SKEW,
         "strategy: skew groups over a shuffle join on (keys, slot), the rows with a NULL key dropped before it"),
        (False, "kept", False, SKEW,
         "strategy: plain shuffle join, the rows with a NULL key routed around it and kept, results unioned"),
        (False, "kept", False, CHAIN,
         "strategy: the plain chain, the rows with a NULL key routed around it and kept, results unioned"),
        (True, "kept", True, CHAIN,
         "strategy: hot keys by a chain of broadcast joins + skew groups for the rest, results unioned"),
    ],
)  # fmt: skip
def test_the_strategy_line_says_what_the_sql_does(
    r: Renderer, branch: bool, nulls: str | None, grouped: bool, words: dict, expected: str
) -> None:
    assert r.call("_sj_strategy_record", branch, nulls, grouped, words) == expected

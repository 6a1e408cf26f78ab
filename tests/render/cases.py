"""Compile-error cases as data: one row per bad input, run by the test files."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest


@dataclass(frozen=True)
class ErrorCase:
    """A call that must stop the compile.

    id: the test id; args: the macro's arguments after its fixed leading ones,
    as Jinja source; argument: the argument the message must name (a path
    such as ``skew_join.groups[0].when``); expected: a fragment of the message;
    config / vars: the model config and project vars of the compile.
    """

    id: str
    args: str
    argument: str
    expected: str
    config: dict[str, Any] = field(default_factory=dict)
    vars: dict[str, Any] = field(default_factory=dict)


def params(cases: list[ErrorCase]) -> list[Any]:
    ids = [c.id for c in cases]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    return [pytest.param(c, id=c.id) for c in cases]

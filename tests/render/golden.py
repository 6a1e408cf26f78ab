"""Expected-output files: each model case's compiled SQL (its decision record
comment at the top) and what the compile logged, kept under ``expected/``.

A case (``ModelCase``) is one model compile: the inputs (tables.py names), the
vars, Spark settings and model config, the model's Jinja source, and a
``setup`` for what a case changes in its fake Spark (rows, splits, canned
answers). ``model_cases.CASES`` is the table; test_expected_output.py renders
each and compares with ``expected/<id>.sql`` and ``expected/<id>.log``; tests
that check the structure of a case take its render from ``render_case``.

Compile errors' full messages are kept as ``expected/errors/<macro>/<id>.txt``.

After an intended change: ``make expected`` (pytest ``--rewrite-expected``)
rewrites every file; review the diff before committing it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from .harness import Package, Renderer, Result, Table
from .tables import tables

EXPECTED_DIR = Path(__file__).parent / "expected"

# The one part of a record that is not a function of the inputs: the wall-clock
# time of the compile's queries ("key queries: 0.12 s", "exact counts, 0.0 s):"),
# written as <elapsed>.
_ELAPSED = re.compile(r"(?<=[:,;] )\d+\.\d+ s\b")


def stable(text: str) -> str:
    return _ELAPSED.sub("<elapsed> s", text)


@dataclass(frozen=True)
class ModelCase:
    """One model compile. id: the file name under expected/; inputs: names of
    tables.INPUTS; source: the model's Jinja; setup: changes to the fake Spark
    before the render (rows, splits, canned answers)."""

    id: str
    inputs: tuple[str, ...]
    source: str
    vars: dict[str, Any] = field(default_factory=dict)
    conf: dict[str, str] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    model: str = "unit_model"
    adapter_type: str = "spark"
    execute: bool = True
    extra_tables: dict[str, Table] = field(default_factory=dict)
    setup: Callable[[Renderer], None] | None = None


@dataclass
class Rendered:
    """A case's render. measured: skew_join's measure phase (`_sj_skew_measure`) returned at least once;
    after_measure: every query sent after it returned and before another measure began (the plan and
    the render ask Spark nothing: tests/render/test_plan_phase.py)."""

    case: ModelCase
    renderer: Renderer
    sql: str
    measured: bool = False
    after_measure: list[str] = field(default_factory=list)

    @property
    def queries(self) -> list[str]:
        return self.renderer.spark.queries

    def log_text(self) -> str:
        """What the compile said besides its SQL: log() lines, warnings, and every query it ran."""
        r = self.renderer
        parts = [f"-- log() ({len(r.logs)})", *r.logs, f"-- exceptions.warn() ({len(r.warnings)})", *r.warnings,
                 f"-- queries ({len(r.spark.queries)})"]  # fmt: skip
        for i, q in enumerate(r.spark.queries, 1):
            parts += [f"-- query {i}", str(q).strip()]
        return "\n".join(parts) + "\n"


def render_case(case: ModelCase, pkg: Package | None = None) -> Rendered:
    import copy

    r = Renderer(
        tables(*case.inputs, **copy.deepcopy(case.extra_tables)),
        vars=case.vars, conf=case.conf, config=copy.deepcopy(case.config), adapter_type=case.adapter_type,
        model=case.model, execute=case.execute, pkg=pkg,
    )  # fmt: skip
    if case.setup is not None:
        case.setup(r)
    phase = {"measured": False, "sealed": False}
    after: list[str] = []
    macros = r.macros._macros
    measure = macros["_sj_skew_measure"]

    def measured(*args: Any, **kwargs: Any) -> Any:
        phase["sealed"] = False
        facts = measure(*args, **kwargs)
        phase["measured"] = phase["sealed"] = True
        return facts

    macros["_sj_skew_measure"] = measured  # type: ignore[assignment]
    run_query = r.spark.run_query

    def watched(sql: str) -> Result:
        if phase["sealed"]:
            after.append(sql)
        return run_query(sql)

    r.spark.run_query = watched  # type: ignore[method-assign]
    sql = r.render(case.source)
    return Rendered(case, r, sql, measured=phase["measured"], after_measure=after)


_RENDERED: dict[tuple[str, int], Rendered] = {}


def render_case_once(case: ModelCase, pkg: Package) -> Rendered:
    """``render_case`` of ``case`` the first time it is asked for in this session, the same result after:
    the expected-output test and the query ledger's read one rendering of each case, and neither
    changes it."""
    key = (case.id, id(pkg))
    if key not in _RENDERED:
        _RENDERED[key] = render_case(case, pkg)
    return _RENDERED[key]


def check_expected(relpath: str, actual: str, rewrite: bool) -> None:
    """Compare ``actual`` with ``expected/<relpath>`` (or write it, with ``--rewrite-expected``)."""
    path = EXPECTED_DIR / relpath
    actual = stable(actual)
    if rewrite:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != actual:
            path.write_text(actual)
        return
    if not path.exists():
        pytest.fail(f"no expected file expected/{relpath}: run `make expected` and review it", pytrace=False)
    expected = path.read_text()
    if expected != actual:
        diff = "".join(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            fromfile=f"expected/{relpath}", tofile="rendered now",
        ))  # fmt: skip
        pytest.fail(
            f"the output differs from expected/{relpath} (if the change is intended: `make expected`, "
            f"then review the diff)\n{diff}",
            pytrace=False,
        )

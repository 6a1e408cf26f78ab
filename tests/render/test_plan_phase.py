"""skew_join and skew_join_chain run every query in their measure phase
(`_sj_skew_measure`): the plan, the decision record and the SQL are rendered
from its facts without asking Spark anything. Each model case of either macro
is rendered again with Spark sealed once the measure returns: any later query
fails the test, and the output must be the case's expected SQL."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from .golden import EXPECTED_DIR, ModelCase, stable
from .harness import Renderer, Result
from .model_cases import CASES
from .tables import tables

SKEW_CASES = [c for c in CASES if "skewjoin.skew_join" in c.source and c.execute]


def _render_sealed(case: ModelCase) -> tuple[str, bool]:
    r = Renderer(
        tables(*case.inputs, **copy.deepcopy(case.extra_tables)),
        vars=case.vars, conf=case.conf, config=copy.deepcopy(case.config), adapter_type=case.adapter_type,
        model=case.model, execute=case.execute,
    )  # fmt: skip
    if case.setup is not None:
        case.setup(r)
    sealed = {"on": False}
    macros = r.macros._macros
    measure = macros["_sj_skew_measure"]

    def measured(*args: Any, **kwargs: Any) -> Any:
        facts = measure(*args, **kwargs)
        sealed["on"] = True
        return facts

    macros["_sj_skew_measure"] = measured  # type: ignore[assignment]
    run_query = r.spark.run_query

    def guarded(sql: str) -> Result:
        if sealed["on"]:
            raise AssertionError(f"a query after the measure phase:\n{sql}")
        return run_query(sql)

    r.spark.run_query = guarded  # type: ignore[method-assign]
    return r.render(case.source), sealed["on"]


def test_the_cases_cover_both_macros() -> None:
    assert len(SKEW_CASES) >= 60
    assert any("skew_join_chain" in c.source for c in SKEW_CASES)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in SKEW_CASES])
def test_no_query_after_the_measure(case: ModelCase) -> None:
    sql, measured = _render_sealed(case)
    assert measured, "the case never reached the measure phase"
    assert stable(sql.rstrip("\n") + "\n") == (EXPECTED_DIR / f"{case.id}.sql").read_text()

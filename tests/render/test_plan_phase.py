"""skew_join and skew_join_chain run every query in their measure phase
(`_sj_skew_measure`): the plan, the decision record and the SQL are rendered
from its facts without asking Spark anything. Each model case of either macro
is rendered (once, the render the expected-output test reads) with every query
after the measure returns recorded: any such query fails the test, and the
output must be the case's expected SQL."""

from __future__ import annotations

import pytest

from .golden import EXPECTED_DIR, ModelCase, render_case_once, stable
from .harness import Package
from .model_cases import CASES

SKEW_CASES = [c for c in CASES if "skewjoin.skew_join" in c.source and c.execute]


def test_the_cases_cover_both_macros() -> None:
    assert len(SKEW_CASES) >= 60
    assert any("skew_join_chain" in c.source for c in SKEW_CASES)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in SKEW_CASES])
def test_no_query_after_the_measure(pkg: Package, case: ModelCase) -> None:
    rendered = render_case_once(case, pkg)
    assert rendered.measured, "the case never reached the measure phase"
    assert not rendered.after_measure, f"a query after the measure phase:\n{rendered.after_measure[0]}"
    assert stable(rendered.sql.rstrip("\n") + "\n") == (EXPECTED_DIR / f"{case.id}.sql").read_text()

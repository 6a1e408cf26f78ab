"""What the measuring cost (macros/_internal/query_ledger.sql): every
compile-time query of a model is timed and counted, and each decision record
ends with a line that sums them by kind. The expected files pin the line of
every case (its seconds written <elapsed>); here: every query of every case
has a named kind, and each record counts exactly the queries its compile sent."""

from __future__ import annotations

import re

import pytest

from .golden import render_case_once
from .harness import Package, Renderer
from .model_cases import CASES, ModelCase

_COST = re.compile(
    r"measuring cost: (?P<n>\d+) compile-time quer(?:y|ies) \((?P<data>\d+) reading data\), "
    r"(?P<seconds>\d+\.\d\d) s of wall time; by kind: (?P<kinds>.*)"
)
_KIND = re.compile(r"(?P<kind>[^;]+?) (?P<n>\d+), (?P<seconds>\d+\.\d\d) s")


def _costs(sql: str) -> list[re.Match[str]]:
    return [m for m in (_COST.search(line) for line in sql.splitlines()) if m]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES if c.execute])
def test_every_query_is_counted_under_a_named_kind(pkg: Package, case: ModelCase) -> None:
    rendered = render_case_once(case, pkg)
    kind = rendered.renderer.macros["_sj_query_kind"]
    unnamed = [q for q in rendered.queries if kind(q) == "other"]
    assert not unnamed, f"queries with no kind (query_ledger.sql's rules): {unnamed}"
    costs = _costs(rendered.sql)
    if not rendered.queries:
        assert "measuring cost: no compile-time query" in rendered.sql
        return
    assert len(costs) == 1, rendered.sql[:3000]
    cost = costs[0]
    assert int(cost["n"]) == len(rendered.queries)
    kinds = {m["kind"].strip(): int(m["n"]) for m in _KIND.finditer(cost["kinds"])}
    assert sum(kinds.values()) == len(rendered.queries), kinds
    expected: dict[str, int] = {}
    for q in rendered.queries:
        expected[kind(q)] = expected.get(kind(q), 0) + 1
    assert kinds == expected


def test_two_macros_in_one_model_each_count_their_own_queries(renderer) -> None:  # type: ignore[no-untyped-def]
    r: Renderer = renderer("typed_left", "typed_right")
    source = (
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int']) }}\n"
        "union all\n"
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int']) }}"
    )
    sql = r.render(source)
    costs = _costs(sql)
    assert len(costs) == 2
    assert [int(c["n"]) for c in costs] == [3, 3]  # each: the two column lists and the ANSI setting
    assert sum(int(c["n"]) for c in costs) == len(r.spark.queries)


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("describe query select * from t as sj_described", "column lists"),
        ("set spark.sql.shuffle.partitions", "settings"),
        ("describe table extended s.t k", "column statistics"),
        ("describe table extended s.t", "catalog"),
        ("show partitions s.t", "catalog"),
        ("select count(*) from (select 1) as sj_counts where x", "'auto' counts"),
        ("select 1 from (select 2) as sj_verify", "verification"),
        ("select 1 as sj_whatever", "other"),
    ],
)
def test_query_kinds(renderer, query: str, kind: str) -> None:  # type: ignore[no-untyped-def]
    r: Renderer = renderer()
    assert r.macros["_sj_query_kind"](query) == kind


def test_outside_a_node_there_is_no_ledger_and_no_line(renderer) -> None:  # type: ignore[no-untyped-def]
    r: Renderer = renderer()
    r.context["model"] = None
    assert r.macros["_sj_cost_line"]() is None

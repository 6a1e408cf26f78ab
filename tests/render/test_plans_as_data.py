"""Plans as data, for prune_predicate and star_join: every query runs before
the plan (spec -> resolve -> measure); the plan, the decision record rendered
from it and the SQL rendered from it run none, and together they give exactly
what the model compiles to."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest

from .golden import stable
from .harness import Renderer, Result
from .model_cases import cache_holds_feb_dates, no_cache_table, pruning

FEB = [f"2026-02-{d:02d}" for d in range(1, 29)]
DATES_FEB = {"filter": "year = 2026 and month = 2", "on": ["date_key"]}
DATES_FEB_JINJA = "{'relation': ref('prune_dates'), 'filter': 'year = 2026 and month = 2', 'on': ['date_key']}"


def refuse_queries(r: Renderer) -> None:
    def refuse(sql: str) -> Result:
        raise AssertionError(f"a query ran after the measure phase:\n{sql}")

    r.spark.run_query = refuse  # type: ignore[method-assign]


PRUNE_CASES: list[tuple[str, dict[str, Any], Callable[[Renderer], None]]] = [
    ("in_list_and_partition_count", {}, pruning(FEB, 28)),
    ("range_fallback", {"max_values": 3}, pruning(FEB, 28)),
    ("empty_key_set", {}, pruning([], 0)),
    ("cache_deferred", {"cache": True}, no_cache_table),
    ("cache_read", {"cache": True}, cache_holds_feb_dates),
]


@pytest.mark.parametrize(("options", "setup"), [c[1:] for c in PRUNE_CASES], ids=[c[0] for c in PRUNE_CASES])
def test_no_query_runs_in_or_after_the_prune_plan(
    renderer: Callable[..., Renderer], options: dict[str, Any], setup: Callable[[Renderer], None]
) -> None:
    whole = renderer("prune_sales", "prune_dates")
    setup(whole)
    args = "".join(f", {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())
    compiled = whole.render(
        "{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [" + DATES_FEB_JINJA + "]" + args + ") }}"
    )

    r = renderer("prune_sales", "prune_dates")
    setup(r)
    ref, m = r.context["ref"], r.macros
    small = [{"relation": ref("prune_dates"), **DATES_FEB}]
    spec = m["_sj_prune_spec"]("prune_predicate", ref("prune_sales"), "f", small, "inner",
                               options.get("max_values"), None, options.get("cache"))  # fmt: skip
    spec = m["_sj_prune_resolve"](spec)
    measured = m["_sj_prune_measure"](spec)
    assert r.spark.queries == whole.spark.queries, "every query runs by the end of the measure phase"
    refuse_queries(r)
    plan = m["_sj_prune_plan"](spec, measured)
    record = m["_sj_record_sql"]("prune_predicate", m["_sj_prune_record"](plan))
    assert stable(record + "\n" + plan["predicate"]) == stable(compiled)


def test_no_query_runs_in_or_after_the_star_join_plan(renderer: Callable[..., Renderer]) -> None:
    def setup(r: Renderer) -> None:
        sales = r.spark.tables["skewjoin_it.star_sales"]
        sales.partition_by = ["sold_date"]
        sales.rows = [(i, 1, datetime.date(2026, 1, 1 + i), *([None] * 8)) for i in range(10)]
        keys = [("stat", "distinct_0", "v:2"), ("stat", "nulls_0", "v:0"), ("stat", "kept", "v:2"),
                ("min", None, "v:2026-01-02"), ("max", None, "v:2026-01-05"),
                ("key", None, "v:2026-01-02"), ("key", None, "v:2026-01-05")]  # fmt: skip
        r.spark.answer(r"with\s+sj_groups_0 as \(.*", Result(("sj_kind", "sj_name", "sj_v0"), keys))
        r.spark.answer(r"select count\(\*\) as sj_kept\s+from \(.*", Result(("sj_kept",), [(2,)]))

    dims = ("[{'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']], "
            "'filter': 'd.year = 2026'}, "
            "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], 'join_type': 'left'}]")  # fmt: skip
    whole = renderer("star_sales", "star_dates", "star_stores")
    setup(whole)
    compiled = whole.render("{{ skewjoin.star_join(ref('star_sales'), " + dims + ", broadcast_budget='3k') }}")

    r = renderer("star_sales", "star_dates", "star_stores")
    setup(r)
    ref, m = r.context["ref"], r.macros
    options = m["_sj_star_options"]({"broadcast_budget": "3k", "size_factor": None, "analyze": None,
                                     "shuffle_hint": None, "prune": None})  # fmt: skip
    spec = m["_sj_star_spec"](ref("star_sales"), [
        {"relation": ref("star_dates"), "alias": "d", "on": [["sold_date", "date_key"]], "filter": "d.year = 2026"},
        {"relation": ref("star_stores"), "alias": "s", "on": ["store_id"], "join_type": "left"},
    ], "f")  # fmt: skip
    pruning_spec = m["_sj_star_prune_spec"](spec, options["prune_cache"])
    assert r.spark.queries == [], "the spec runs no query"
    spec = m["_sj_star_resolve"](spec, None)
    seconds = m["_sj_star_measure"](spec, options)
    measured = m["_sj_star_prune_measure"](pruning_spec)
    assert r.spark.queries == whole.spark.queries, "every query runs by the end of the measure phase"
    refuse_queries(r)
    plan = m["_sj_star_plan"](spec, options, seconds, measured)
    assert plan["pruning"]["state"] == "planned" and plan["pruning"]["plan"]["partitions"]["case"] == "literal"
    assert [(d["alias"], d["verdict"], d["why"]["rule"]) for d in plan["spec"]["dims"]] == [
        ("d", "shuffle", "over"), ("s", "broadcast", "fits")]  # fmt: skip
    record = m["_sj_record_sql"]("star_join", m["_sj_star_record"](plan))
    assert stable(record + "\n" + m["_sj_star_join_sql"](plan)) == stable(compiled)

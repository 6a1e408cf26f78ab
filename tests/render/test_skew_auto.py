"""skew_join: 'auto' through the whole macro (no Spark): what it measures, the
specification it plans, the record it leaves, when it measures nothing, and
its bad options refused before any query."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import jinja2
import pytest
import yaml

from .cases import ErrorCase, params
from .golden import check_expected
from .harness import Renderer, Result, assert_clear_compile_error, decision_record, strip_record
from .model_cases import AUTO_JOIN, HOT_QUERY, LEFT, RIGHT, render
from .model_cases import auto_tables as _tables

JOIN = AUTO_JOIN.replace("'inner'", "'JT'")


def _render(renderer: Callable[..., Renderer], left: list[tuple[object, ...]], right: list[tuple[object, ...]],
            skew: object = "auto", join_type: str = "inner") -> tuple[Renderer, str]:  # fmt: skip
    r = renderer(extra_tables=_tables(left, right), config={"skew_join": skew})
    return r, r.render(JOIN.replace("JT", join_type))


def _planned(sql: str) -> dict[str, object]:
    record = decision_record(sql, "skew_join")
    m = re.search(r"auto: the same specification in YAML \(a properties file or dbt_project.yml\): skew_join: (\{.*\})",
                  record)  # fmt: skip
    assert m, record
    return json.loads(m.group(1))  # type: ignore[no-any-return]


def test_hot_keys_and_null_bypass_planned_from_the_counts() -> None:
    case = render("auto_hot_keys_and_null_bypass")
    r, sql = case.renderer, case.sql
    record = decision_record(sql, "skew_join")
    # one read a side with the sketch (Spark sizes both alike: a first); b's counts a's heavy key 0
    # exactly; a's list holds b's heavy key 5, so no third query
    counts = [q for q in r.spark.queries if "sj_null_rows" in q]
    assert len(counts) == 2
    assert "spread_left" in counts[0] and "approx_top_k(sj_k, 22, 1000)" in counts[0] and "sj_exact" not in counts[0]
    assert "spread_right" in counts[1] and "count_if(sj_k <=> cast(0 as int)) as sj_exact_0" in counts[1]
    # key 0: hot on a, b's 1 row broadcast; key 5: hot on b (301 of 360 rows), a's rows broadcast
    assert _planned(sql) == {"hot_keys": {"a": [0, None], "b": [5]}}
    # the measured splits feed the spread rule: no second probe of the input
    assert not any("sj_probe" in q for q in r.spark.queries)
    assert "strategy: hot keys" in record
    assert r.logs and "auto: planned specification" in r.logs[0]


def test_hot_on_both_sides_over_the_broadcast_budget_is_a_skew_group() -> None:
    sql = render("auto_group_over_broadcast_budget").sql
    # a's 600 of the 960 rows it shuffles (the NULL keys bypass): 12.5 -> 13 slots; b's 200 rows copied to each
    assert _planned(sql) == {
        "hot_keys": {"a": [None]},
        "groups": [{"when": "a.k = 0", "slots": 13, "distribute": "random"}],
        "total_slots": 20,
    }
    # the planned group names its key, so its slots are placed on distinct shuffle partitions
    assert "element_at(array(" in strip_record(sql)
    assert re.search(r"on a\.k = b\.k\s+and a\.sj_slot = b\.sj_slot", strip_record(sql))


def test_the_multicast_guard_in_the_record() -> None:
    sql = render("auto_multicast_budget_5_slots").sql
    assert _planned(sql)["groups"] == [{"when": "a.k = 0", "slots": 5, "distribute": "random"}]
    # a budget under two copies: no group, the key left to the shuffle join
    sql = render("auto_multicast_budget_under_two_copies").sql
    assert "groups" not in _planned(sql)


def test_no_heavy_key_is_the_plain_join() -> None:
    sql = render("auto_no_heavy_key").sql
    assert "strategy: plain join" in decision_record(sql, "skew_join")
    assert strip_record(sql) == strip_record(render("auto_no_heavy_key_plain").sql)


def test_an_outer_join_copies_only_the_null_supplying_side() -> None:
    """`a right join b`: a is null-supplying. Key 0 is heavier on a but b's rows may not be copied, so b
    drives the group, and a's 600 rows are copied to each of its slots."""
    planned = _planned(render("auto_right_join_null_supplying").sql)
    assert planned["groups"] == [{"when": "b.k = 0", "slots": 15, "distribute": "random"}]
    # a's NULL keys are dropped before the join (a is not preserved): still the bypass
    assert planned["hot_keys"] == {"a": [None]}


def test_sampled_counts_say_so() -> None:
    case = render("auto_sampled")
    counts = [q for q in case.queries if "sj_null_rows" in q]
    assert len(counts) == 2 and all("tablesample (25.0 percent)" in q for q in counts)
    assert "tablesample" in decision_record(case.sql, "skew_join")


def test_nothing_measured_without_run_time_queries() -> None:
    case = render("auto_no_run_time_queries")
    assert not any("sj_null_rows" in q for q in case.queries)
    record = decision_record(case.sql, "skew_join")
    assert "auto: nothing measured" in record
    assert "strategy: plain join" in record


def test_nothing_measured_where_the_skew_plans_are_declined() -> None:
    case = render("auto_declined")
    assert not any("sj_null_rows" in q for q in case.queries)
    record = decision_record(case.sql, "skew_join")
    assert "auto: nothing measured" in record
    assert "strategy: plain join" in record and "declined" in record


# ErrorCase.config["skew_join"] is the bad specification; args is unused (the join is JOIN)
CASES = [
    ErrorCase("auto_with_hot_keys", "", "skew_join", "'auto' plans the whole specification, so it cannot be combined with hot_keys",
              config={"skew_join": {"auto": {}, "hot_keys": [0]}}),
    ErrorCase("options_not_a_mapping", "", "skew_join.auto", "the options of auto are a mapping; got yes",
              config={"skew_join": {"auto": "yes"}}),
    ErrorCase("unknown_option", "", "skew_join.auto", "min_shar", config={"skew_join": {"auto": {"min_shar": 0.1}}}),
    ErrorCase("min_share_over_1", "", "skew_join.auto.min_share", "min_share is a fraction above 0 and below 1",
              config={"skew_join": {"auto": {"min_share": 2}}}),
    ErrorCase("max_multicast_rows_negative", "", "skew_join.auto.max_multicast_rows", "max_multicast_rows",
              config={"skew_join": {"auto": {"max_multicast_rows": -1}}}),
    ErrorCase("total_slots_1", "", "skew_join.auto.total_slots", "total_slots", config={"skew_join": {"auto": {"total_slots": 1}}}),
    ErrorCase("sample_fraction_0", "", "skew_join.auto.sample_fraction", "sample_fraction is a fraction",
              config={"skew_join": {"auto": {"sample_fraction": 0}}}),
    ErrorCase("sample_above_bytes_text", "", "skew_join.auto.sample_above_bytes", "sample_above_bytes is a whole number",
              config={"skew_join": {"auto": {"sample_above_bytes": "1GB"}}}),
    ErrorCase("sample_above_bytes_var", "", "var('skewjoin_sample_above_bytes')", "sample_above_bytes is a whole number",
              config={"skew_join": "auto"}, vars={"skewjoin_sample_above_bytes": "big"}),
    ErrorCase("sketch_text", "", "skew_join.auto.sketch", "sketch is true",
              config={"skew_join": {"auto": {"sketch": "no"}}}),
    ErrorCase("sketch_var", "", "var('skewjoin_sketch')", "sketch is true",
              config={"skew_join": "auto"}, vars={"skewjoin_sketch": "off"}),
    ErrorCase("sample_rows_10", "", "skew_join.auto.sample_rows", "sample_rows, the rows a sample draws",
              config={"skew_join": {"auto": {"sample_rows": 10}}}),
    ErrorCase("spread_unknown", "", "skew_join.hot_keys_options.spread", "sometimes",
              config={"skew_join": {"auto": {"hot_keys_options": {"spread": "sometimes"}}}}),
    ErrorCase("automatic", "", "skew_join", "must be 'auto' or a mapping", config={"skew_join": "automatic"}),
    ErrorCase("statistics_not_boolean", "", "skew_join.auto.statistics", "statistics is true",
              config={"skew_join": {"auto": {"statistics": "yes"}}}),
]  # fmt: skip


@pytest.mark.parametrize("case", params(CASES))
def test_bad_auto_options_are_refused_before_any_query(
    renderer: Callable[..., Renderer], case: ErrorCase, rewrite_expected: bool
) -> None:
    r = renderer(extra_tables=_tables(LEFT, RIGHT), config=case.config, model="orders_by_customer", vars=case.vars)
    message = r.compile_error(JOIN.replace("JT", "inner"))
    assert_clear_compile_error(message, "skew_join", "orders_by_customer", case.argument, case.expected)
    check_expected(f"errors/skew_join_auto/{case.id}.txt", message + "\n", rewrite_expected)
    assert not any("sj_null_rows" in q for q in r.spark.queries)


def test_column_histograms_are_read_instead_of_a_scan(renderer: Callable[..., Renderer]) -> None:
    """a has a histogram of its key (10 bins of 100 rows: key 0 fills 6 of them): no scan of a, its
    counts estimated (key 0: 600 rows); b has none and is scanned, a's heavy key listed first. b's
    heavy key 5 is not in a's single-value bins: a's rows of it come from the bin that holds it
    (100 rows over its 20 distinct values: 5)."""
    case = render("auto_histogram")
    r, sql = case.renderer, case.sql
    record = decision_record(sql, "skew_join")
    counts = [q for q in r.spark.queries if "sj_null_rows" in q]
    assert len(counts) == 1 and "spread_right" in counts[0] and "sj_k <=> cast(0 as int)" in counts[0]
    assert "describe table extended skewjoin_it.spread_left k" in r.spark.queries
    assert "skew estimated on a from Spark's column statistics" in record
    assert _planned(sql) == {"hot_keys": {"a": [0, None], "b": [5]}}
    # statistics: false scans both sides
    r = render("auto_histogram_statistics_false").renderer
    assert len([q for q in r.spark.queries if "sj_null_rows" in q]) == 2
    assert not any(q.startswith("describe table extended") for q in r.spark.queries)


def _pin_forms(sql: str) -> tuple[str, str]:
    """The planned specification as the record prints it: the Jinja literal
    inside ``{{ config(skew_join=...) }}`` and the YAML value."""
    record = decision_record(sql, "skew_join")
    jinja = re.search(r"paste into the model \(Jinja\): \{\{ config\(skew_join=(\{.*\})\) \}\}", record)
    yaml_form = re.search(r"in YAML \(a properties file or dbt_project.yml\): skew_join: (\{.*\})", record)
    assert jinja and yaml_form, record
    return jinja.group(1), yaml_form.group(1)


@pytest.mark.parametrize(
    "skew",
    [
        pytest.param("auto", id="hot-keys-and-null-bypass"),
        pytest.param({"auto": {"max_broadcast_rows": 100, "total_slots": 20}}, id="skew-group"),
    ],
)
def test_the_pinned_specification_pastes_back_as_jinja_and_as_yaml(
    renderer: Callable[..., Renderer], skew: object
) -> None:
    right = RIGHT if skew == "auto" else [(k, f"k{k}") for k in range(1, 60)] + [(0, f"zero{i}") for i in range(200)]
    _, auto_sql = _render(renderer, LEFT, right, skew=skew)
    jinja_text, yaml_text = _pin_forms(auto_sql)
    # the Jinja form is what dbt evaluates inside {{ config(...) }}: none, numbers as numbers
    assert "null" not in jinja_text and '"' not in jinja_text
    from_jinja = jinja2.Environment().compile_expression(jinja_text)()
    from_yaml = yaml.safe_load("skew_join: " + yaml_text)["skew_join"]
    assert from_jinja == from_yaml
    for pinned in (from_jinja, from_yaml):
        # pasted under the package's default, where declared keys are counted at compile time: the counts
        # that let one side's hot keys join the other side's branch (hot_plan.sql's fold) are read again
        verify = {"skewjoin_verify": None} if skew == "auto" else {}
        r = renderer(extra_tables=_tables(LEFT, right), config={"skew_join": pinned}, vars=verify)
        if skew == "auto":  # each side's declared hot keys counted: a's key 0, b's key 5 (the tables' counts)
            names = ("sj_rows", "sj_splits", "sj_hot_1")
            r.spark.answer(HOT_QUERY + "spread_left.*", Result(names, [(1000, 4, 600)]))
            r.spark.answer(HOT_QUERY + "spread_right.*", Result(names, [(360, 1, 301)]))
        pinned_sql = r.render(JOIN.replace("JT", "inner"))
        record = decision_record(pinned_sql, "skew_join")
        assert "skew specification from config skew_join" in record and "auto:" not in record
        assert strip_record(pinned_sql) == strip_record(auto_sql)


def test_the_sketch_bound_plans_what_the_exact_counts_plan() -> None:
    """Where the first side's sketch bound stands in for its count of the other side's heavy keys, the
    compiled SQL is the one the exact counts give: two keys of b tied at 300 rows, max_keys 1; bounded (a's
    rows of them at most 2, not counted) and counted (a broadcast budget of 3 rows, under the bounds' 4)."""
    bounded, counted = render("auto_sketched_bound_tie"), render("auto_sketched_bound_tie_recounted")
    assert "not counted here" in decision_record(bounded.sql, "skew_join")
    assert "one more query counted 2 key(s)" in decision_record(counted.sql, "skew_join")
    assert strip_record(bounded.sql) == strip_record(counted.sql)
    assert _planned(bounded.sql) == _planned(counted.sql) == {"hot_keys": {"b": [1]}}

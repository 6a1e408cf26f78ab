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

from .harness import Renderer, Table, assert_clear_compile_error, decision_record, strip_record

JOIN = "{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], join_type='JT') }}"


def _tables(left: list[tuple[object, ...]], right: list[tuple[object, ...]]) -> dict[str, Table]:
    return {
        "skewjoin_it.spread_left": Table([("id", "bigint"), ("k", "int")], rows=left, splits=4),
        "skewjoin_it.spread_right": Table([("k", "int"), ("label", "string")], rows=right, splits=1),
    }


def _render(renderer: Callable[..., Renderer], left: list[tuple[object, ...]], right: list[tuple[object, ...]],
            skew: object = "auto", join_type: str = "inner", **options: object) -> tuple[Renderer, str]:  # fmt: skip
    r = renderer(extra_tables=_tables(left, right), config={"skew_join": skew}, **options)
    return r, r.render(JOIN.replace("JT", join_type))


def _planned(sql: str) -> dict[str, object]:
    record = decision_record(sql, "skew_join")
    m = re.search(r"auto: the same specification in YAML \(a properties file or dbt_project.yml\): skew_join: (\{.*\})",
                  record)  # fmt: skip
    assert m, record
    return json.loads(m.group(1))  # type: ignore[no-any-return]


# a: 1,000 rows, key 0 on 600 of them, 40 with a NULL key; b: one row per key, key 5 on 300 rows
LEFT = [(i, 0) for i in range(600)] + [(600 + i, None) for i in range(40)] + [(700 + i, i % 50 + 1) for i in range(360)]
RIGHT = [(k, f"k{k}") for k in range(60)] + [(5, f"five{i}") for i in range(300)]


def test_hot_keys_and_null_bypass_planned_from_the_counts(renderer: Callable[..., Renderer]) -> None:
    r, sql = _render(renderer, LEFT, RIGHT)
    record = decision_record(sql, "skew_join")
    # one aggregate query a side; b's lists a's heavy key first
    counts = [q for q in r.spark.queries if "sj_null_rows" in q]
    assert len(counts) == 2
    assert "spread_left" in counts[0] and "coalesce" not in counts[0]
    assert "spread_right" in counts[1] and "coalesce((sj_key_0 = 'v:0'), false) desc" in counts[1]
    assert "skew measured on a (one aggregate query over every row, exact counts" in record
    assert "1000 rows in 4 input splits, 40 with a NULL key; heaviest keys: 0 60.0%" in record
    assert "skew measured on b" in record and "360 rows in 1 input splits, 0 with a NULL key" in record
    # key 0: hot on a, b's 1 row broadcast; key 5: hot on b (301 of 360 rows), a's rows broadcast
    assert "auto: key 0 (a 600 rows (60.0%), b 1 rows (0.3%)): hot key of a: broadcast b's 1 row(s)" in record
    assert re.search(r"auto: key 5 \(a \d+ rows \(\d+\.\d%\), b 301 rows \(83\.6%\)\): hot key of b", record), record
    assert "auto: NULL keys of a (4.0%): routed around the join (they never match)" in record
    assert _planned(sql) == {"hot_keys": {"a": [0, None], "b": [5]}}
    assert "hot keys of a (planned from the measured counts): 0 + NULL keys" in record
    # the measured splits feed the spread rule: no second probe of the input
    assert not any("sj_probe" in q for q in r.spark.queries)
    assert "strategy: hot keys by broadcast + plain shuffle join for the rest" in record
    assert r.logs and "auto: planned specification" in r.logs[0]


def test_hot_on_both_sides_over_the_broadcast_budget_is_a_skew_group(renderer: Callable[..., Renderer]) -> None:
    right = [(k, f"k{k}") for k in range(1, 60)] + [(0, f"zero{i}") for i in range(200)]
    _, sql = _render(renderer, LEFT, right, skew={"auto": {"max_broadcast_rows": 100, "total_slots": 20}})
    record = decision_record(sql, "skew_join")
    # a's 600 of the 960 rows it shuffles (the NULL keys bypass): 12.5 -> 13 slots; b's 200 rows copied to each
    assert _planned(sql) == {
        "hot_keys": {"a": [None]},
        "groups": [{"when": "a.k = 0", "slots": 13, "distribute": "random"}],
        "total_slots": 20,
    }
    assert ("auto: key 0 (a 600 rows (60.0%), b 200 rows (77.2%)): skew group driven by a, 13 slots, "
            "multicast 2,600 rows: b has 200 rows of this key, over the broadcast budget of "
            "100 rows; 13 slot(s) for 600 of the 960 rows a shuffles") in record  # fmt: skip
    assert "group 1 group_1: when 'a.k = 0', driver a, 13 slots -> slots #7-#19" in record
    # the planned group names its key, so its slots are placed on distinct shuffle partitions
    assert "group 1: key 0's 13 slots placed on" in record
    assert re.search(r"on a\.k = b\.k\s+and a\.sj_slot = b\.sj_slot", strip_record(sql))


def test_the_multicast_guard_in_the_record(renderer: Callable[..., Renderer]) -> None:
    right = [(k, f"k{k}") for k in range(1, 60)] + [(0, f"zero{i}") for i in range(200)]
    _, sql = _render(renderer, LEFT, right,
                     skew={"auto": {"max_broadcast_rows": 100, "max_multicast_rows": 1000, "total_slots": 20}})
    record = decision_record(sql, "skew_join")
    assert "the multicast budget 1,000 rows allows 5 slots of 13" in record
    assert _planned(sql)["groups"] == [{"when": "a.k = 0", "slots": 5, "distribute": "random"}]
    # a budget under two copies: no group, the key left to the shuffle join
    _, sql = _render(renderer, LEFT, right,
                     skew={"auto": {"max_broadcast_rows": 100, "max_multicast_rows": 300, "total_slots": 20}})
    record = decision_record(sql, "skew_join")
    assert ("13 slots would copy 2,600 rows, over the multicast budget 300: nothing copied, the key hashed to one "
            "slot as distribute keys would; one slot spreads nothing: left to the shuffle join") in record
    assert "groups" not in _planned(sql)


def test_no_heavy_key_is_the_plain_join(renderer: Callable[..., Renderer]) -> None:
    left = [(i, i) for i in range(500)]
    right = [(k, f"k{k}") for k in range(500)]
    r, sql = _render(renderer, left, right)
    record = decision_record(sql, "skew_join")
    assert "auto: no key of either side holds 1.0% (min_share) of its rows" in record
    assert "strategy: plain join (no skew groups and no hot keys)" in record
    plain = renderer(extra_tables=_tables(left, right)).render(JOIN.replace("JT", "inner"))
    assert strip_record(sql) == strip_record(plain)


def test_an_outer_join_copies_only_the_null_supplying_side(renderer: Callable[..., Renderer]) -> None:
    """`a right join b`: a is null-supplying. Key 0 is heavier on a but b's rows may not be copied, so b
    drives the group, and a's 600 rows are copied to each of its slots."""
    right = [(k, f"k{k}") for k in range(1, 60)] + [(0, f"zero{i}") for i in range(200)]
    _, sql = _render(renderer, LEFT, right, skew={"auto": {"max_broadcast_rows": 100, "total_slots": 20}},
                     join_type="right")
    planned = _planned(sql)
    assert planned["groups"] == [{"when": "b.k = 0", "slots": 15, "distribute": "random"}]
    # a's NULL keys are dropped before the join (a is not preserved): still the bypass
    assert planned["hot_keys"] == {"a": [None]}


def test_sampled_counts_say_so(renderer: Callable[..., Renderer]) -> None:
    r, sql = _render(renderer, LEFT, RIGHT, skew={"auto": {"sample_fraction": 0.25}})
    counts = [q for q in r.spark.queries if "sj_null_rows" in q]
    assert all("tablesample (25.0 percent)" in q for q in counts)
    assert "one aggregate query over a 25.0% tablesample, counts of the sample" in decision_record(sql, "skew_join")


def test_nothing_measured_without_run_time_queries(renderer: Callable[..., Renderer]) -> None:
    r, sql = _render(renderer, LEFT, RIGHT, vars={"skewjoin_run_queries": False})
    assert not any("sj_null_rows" in q for q in r.spark.queries)
    record = decision_record(sql, "skew_join")
    assert "auto: nothing measured: measuring needs a query and run-time queries are off" in record
    assert "strategy: plain join" in record


def test_nothing_measured_where_the_skew_plans_are_declined(renderer: Callable[..., Renderer]) -> None:
    r, sql = _render(renderer, LEFT, RIGHT, vars={"skewjoin_min_parallelism": 4},
                     conf={"spark.master": "local[2]", "spark.default.parallelism": "2"})
    assert not any("sj_null_rows" in q for q in r.spark.queries)
    record = decision_record(sql, "skew_join")
    assert "auto: nothing measured (skew plans are declined, see above)" in record
    assert "strategy: plain join (skew plans declined on this local Spark, see above)" in record


@pytest.mark.parametrize(
    ("skew", "argument", "expected"),
    [
        ({"auto": {}, "hot_keys": [0]}, "skew_join", "'auto' plans the whole specification, so it cannot be "
         "combined with hot_keys"),
        ({"auto": "yes"}, "skew_join.auto", "the options of auto are a mapping; got yes"),
        ({"auto": {"min_shar": 0.1}}, "skew_join.auto", "min_shar"),
        ({"auto": {"min_share": 2}}, "skew_join.auto.min_share", "min_share is a fraction above 0 and below 1"),
        ({"auto": {"max_multicast_rows": -1}}, "skew_join.auto.max_multicast_rows", "max_multicast_rows"),
        ({"auto": {"total_slots": 1}}, "skew_join.auto.total_slots", "total_slots"),
        ({"auto": {"sample_fraction": 0}}, "skew_join.auto.sample_fraction", "sample_fraction is a fraction"),
        ({"auto": {"hot_keys_options": {"spread": "sometimes"}}}, "skew_join.hot_keys_options.spread", "sometimes"),
        ("automatic", "skew_join", "must be 'auto' or a mapping"),
        ({"auto": {"statistics": "yes"}}, "skew_join.auto.statistics", "statistics is true"),
    ],
)
def test_bad_auto_options_are_refused_before_any_query(
    renderer: Callable[..., Renderer], skew: object, argument: str, expected: str
) -> None:
    r = renderer(extra_tables=_tables(LEFT, RIGHT), config={"skew_join": skew}, model="orders_by_customer")
    message = r.compile_error(JOIN.replace("JT", "inner"))
    assert_clear_compile_error(message, "skew_join", "orders_by_customer", argument, expected)
    assert not any("sj_null_rows" in q for q in r.spark.queries)


def _histogram(bins: list[tuple[float, float, int]], height: float, nulls: int) -> dict[str, str]:
    stats = {"num_nulls": str(nulls), "histogram": f"height: {height}, num_of_bins: {len(bins)}"}
    for i, (lo, hi, ndv) in enumerate(bins):
        stats[f"bin_{i}"] = f"lower_bound: {lo}, upper_bound: {hi}, distinct_count: {ndv}"
    return stats


def test_column_histograms_are_read_instead_of_a_scan(renderer: Callable[..., Renderer]) -> None:
    """a has a histogram of its key (10 bins of 100 rows: key 0 fills 6 of them): no scan of a, its
    counts estimated (key 0: 600 rows); b has none and is scanned, a's heavy key listed first. b's
    heavy key 5 is not in a's single-value bins: a's rows of it come from the bin that holds it
    (100 rows over its 20 distinct values: 5)."""
    tables = _tables(LEFT, RIGHT)
    bins = [(0.0, 0.0, 1)] * 6 + [(1.0, 20.0, 20), (21.0, 30.0, 10), (31.0, 40.0, 10), (41.0, 50.0, 10)]
    tables["skewjoin_it.spread_left"].column_stats = {"k": _histogram(bins, 100.0, 40)}
    r = renderer(extra_tables=tables, config={"skew_join": "auto"})
    sql = r.render(JOIN.replace("JT", "inner"))
    record = decision_record(sql, "skew_join")
    counts = [q for q in r.spark.queries if "sj_null_rows" in q]
    assert len(counts) == 1 and "spread_right" in counts[0] and "'v:0'" in counts[0]
    assert "describe table extended skewjoin_it.spread_left k" in r.spark.queries
    assert ("skew estimated on a from Spark's column statistics, no scan (a histogram of 10 bins, as of the "
            "table's last ANALYZE TABLE ... FOR COLUMNS;") in record  # fmt: skip
    assert "about 1040 rows, 40 with a NULL key; heaviest keys: 0 57.7%" in record
    assert "auto: key 0 (a 600 rows (57.7%), b 1 rows (0.3%)): hot key of a" in record
    assert "auto: key 5 (a 5 rows (0.5%), b 301 rows (83.6%)): hot key of b" in record
    # statistics: false scans both sides
    r = renderer(extra_tables=tables, config={"skew_join": {"auto": {"statistics": False}}})
    r.render(JOIN.replace("JT", "inner"))
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
        _, pinned_sql = _render(renderer, LEFT, right, skew=pinned)
        record = decision_record(pinned_sql, "skew_join")
        assert "skew specification from config skew_join" in record and "auto:" not in record
        assert strip_record(pinned_sql) == strip_record(auto_sql)

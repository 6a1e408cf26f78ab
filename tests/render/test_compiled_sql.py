"""The shape of what the macros compile, where a test only reads the text (no
Spark): hot-key branches and literals, star_join's hints, verdicts and order
from given sizes, prune_predicate's predicate from given key sets.

Each render here is a case of model_cases.py, whose whole output (SQL, record,
log, queries) is kept under expected/ and checked exactly by
test_expected_output.py; the tests here check the structure that must hold
whatever the wording.

Whether Spark runs these queries to the plain join's rows, and with the
plans these texts ask for, is the Spark tier's job (integration_tests/pytests).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .harness import Renderer, Result, decision_record, strip_record
from .model_cases import PACKAGE_DEFAULT, SIZES, SMALL_DIMS, render

# -- hot keys -----------------------------------------------------------------------------


def test_hostile_declared_hot_keys_are_single_literals() -> None:
    sql = strip_record(render("hk_hostile_declared").sql)
    # no backslash escape (read alike with spark.sql.parser.escapedStringLiterals on or off)
    assert "concat('it', chr(39), 's')" in sql
    assert "concat('back', chr(92), 'slash')" in sql
    assert "concat('new', chr(10), 'line')" in sql
    assert "'close*/'" in sql
    # the query keeps its shape: one statement, every literal closed
    assert ";" not in re.sub(r"'[^']*'", "''", sql)
    # none among the keys: NULL keys of the preserved side bypass the join
    assert "a_null_keys_kept as (" in sql


def test_auto_with_no_key_above_threshold_is_the_plain_join() -> None:
    case = render("hk_auto_none_above_threshold")
    r, sql = case.renderer, case.sql
    assert "none above the threshold" in sql
    assert "strategy: plain join" in sql
    assert "broadcast" not in strip_record(sql)
    detection = [q for q in r.spark.queries if ") as sj_hot_counts" in q]
    assert len(detection) == 1 and "approx_top_k(sj_k, 21, 1000)" in detection[0]


def test_hot_keys_of_both_sides_in_a_left_join() -> None:
    """a preserved: a's hot rows left-join the broadcast b rows; b's hot rows
    inner-join the broadcast a rows, and a's unmatched rows of those keys come
    from an anti join; NULL keys of a bypass the join; every row of each side
    lands in exactly one branch (rest = not any hot predicate)."""
    case = render("hk_both_sides_left_join")
    r, sql = case.renderer, case.sql
    body = strip_record(sql)
    hot_a = "coalesce(a.k_int in (cast(0 as int)), false)"
    hot_b = "coalesce(a.k_int in (cast(7 as int)), false)"
    assert f"a_rest as (\n    select * from a_input as a\n    where not (\n        (a.k_int is null)\n        or {hot_a}\n        or {hot_b}\n    )" in body
    assert "select /*+ broadcast(b) */\n        a.id,\n        b.rid\n    from a_hot_a as a\n    left outer join b_hot_a as b" in body
    assert "from b_hot_b as b\n    inner join a_hot_b as a" in body
    assert "left anti join b_hot_b_keys as b" in body
    assert "a_null_keys_kept as (" in body
    selects = re.findall(r"^select \* from (\w+)$", body, flags=re.M)
    assert selects == ["a_null_keys_kept", "hot_a", "hot_b", "a_hot_b_unmatched_kept", "rest_joined"]
    assert body.count("\nunion all\n") == 4
    # one input split each (the fake's default) for a parallelism of 2: the hot rows are spread before the
    # broadcast join, by a hash of the whole row (no sort), over min(total slots, parallelism) partitions
    assert "select /*+ repartition(2, sj_spread) */ * from a_hot_a_hashed" in body
    assert "xxhash64(a_hot_a_read.id, a_hot_a_read.k_int" in body
    # the distinct keys for the anti join read the hot rows as read, not the spread ones
    assert "from b_hot_b_read as b" in body
    # per hot side one count of input splits; the parallelism is read once per model
    assert len([q for q in r.spark.queries if "sj_splits" in q]) == 2
    assert len([q for q in r.spark.queries if "sj_parallelism" in q]) == 1


def test_hot_key_tuples_for_multi_column_keys() -> None:
    sql = render("hk_multi_column_tuples").sql
    assert (
        "coalesce((a.k_int = cast(0 as int) and rtrim(a.region) = 'EU') or (a.k_int = cast(7 as int) and rtrim(a.region) = rtrim(concat('it', chr(39), 's'))), false)"
        in sql
    )
    assert "hot keys of a (declared): 0, EU; 7, it's" in sql
    assert "repartition" not in sql


# -- star_join ----------------------------------------------------------------------------

def _hints(sql: str) -> dict[str, set[str]]:
    m = re.search(r"/\*\+(.*?)\*/", strip_record(sql), flags=re.S)
    if not m:
        return {}
    return {n.lower(): {a.strip() for a in args.split(",")} for n, args in re.findall(r"(\w+)\s*\(([^)]*)\)", m.group(1))}


def _verdicts(sql: str) -> dict[str, str]:
    return dict(re.findall(r"^\s*dimension (\w+) \((.*)$", decision_record(sql, "star_join"), flags=re.M))


@pytest.mark.parametrize("over", [0, 1], ids=["exact_fit", "one_byte_over"])
def test_budget_exact_fit_and_one_byte_over(over: int) -> None:
    by_size = sorted(SIZES, key=SIZES.get)  # type: ignore[arg-type]
    sql = render(["star_budget_exact_fit", "star_budget_one_byte_over"][over]).sql
    chosen = set(by_size[:3 - over])
    assert _hints(sql)["broadcast"] == chosen and _hints(sql)["merge"] == set(SIZES) - chosen
    verdict = _verdicts(sql)[by_size[2]]
    assert verdict.endswith(")") and ("-> broadcast (fits" if over == 0 else "-> shuffle (over budget") in verdict


def test_budget_zero_broadcasts_nothing_and_shuffle_hint_none_leaves_spark_alone() -> None:
    sql = render("star_budget_zero").sql
    assert "broadcast" not in _hints(sql) and _hints(sql)["merge"] == set(SMALL_DIMS)
    sql = render("star_budget_zero_shuffle_hint_none").sql
    assert "/*+" not in strip_record(sql)
    assert "shuffle: s (left to Spark)" in decision_record(sql, "star_join")


def test_size_factor_per_format_and_per_dimension() -> None:
    sql = render("star_size_factor_fits").sql
    assert _hints(sql)["broadcast"] == {"s", "pr"}
    sql = render("star_size_factor_one_over").sql
    assert _hints(sql)["broadcast"] == {"pr"}


def test_forcing_a_broadcast_takes_its_share_first() -> None:
    sql = render("star_forced_broadcast_first").sql
    assert _hints(sql)["broadcast"] == {"p"}
    assert "-> broadcast (broadcast: true (forced))" in _verdicts(sql)["p"]
    assert "-> shuffle (over budget" in _verdicts(sql)["s"]


def test_sizes_from_files_views_queries_and_analyze() -> None:
    case = render("star_sizes_files_views_queries_analyze")
    r, sql = case.renderer, case.sql
    v = _verdicts(sql)
    assert "-> broadcast" in v["ch"]
    assert "size unknown (a view has no statistics" in v["sr"] and "-> shuffle (size unknown" in v["sr"]
    assert "4800 bytes" in v["c"]
    assert "size unknown (a query other than" in v["cg"]
    assert _hints(sql)["broadcast"] == {"ch", "c", "w"} and _hints(sql)["merge"] == {"sr", "cg"}
    assert [q for q in r.spark.queries if q.startswith("analyze")] == [
        "analyze table skewjoin_it.star_channels compute statistics noscan",
        "analyze table skewjoin_it.star_warehouses compute statistics noscan",
    ]


def test_outer_join_rules_and_order() -> None:
    sql = render("star_outer_join_order").sql
    v = _verdicts(sql)
    assert "-> shuffle (cannot be broadcast" in v["s"]
    assert "join order: d, s, c (as given" in decision_record(sql, "star_join")
    assert _hints(sql)["broadcast"] == {"d", "c"} and _hints(sql)["merge"] == {"s"}
    body = strip_record(sql)
    assert body.index("inner join skewjoin_it.star_dates as d") < body.index("right outer join skewjoin_it.star_stores as s")


def test_star_join_parse_time_runs_no_query() -> None:
    case = render("star_parse_time")
    assert case.sql.startswith("select *\nfrom skewjoin_it.star_sales as f\ncross join skewjoin_it.star_stores as s")
    assert case.queries == []


# -- prune_predicate ----------------------------------------------------------------------

@pytest.mark.parametrize("join_type", ["inner", "right outer", "left semi"])
def test_allowed_join_types_compile(join_type: str) -> None:
    sql = render(f"prune_join_type_{join_type.replace(' ', '_')}").sql
    record = decision_record(sql, "prune_predicate")
    assert f"prune_dates ({join_type.split()[0]}" in record
    assert "partitions: 61 in total, 28 kept" in record
    line = [ln.strip() for ln in sql.splitlines() if ln.strip().startswith("f.date_key in (")]
    assert len(line) == 1 and line[0].count("cast('2026-02-") == 28 and line[0].endswith(" as date))")


def test_fallback_none_leaves_the_big_table_alone() -> None:
    case = render("prune_fallback_none")
    assert "fallback none" in decision_record(case.sql, "prune_predicate")
    assert case.sql.rstrip().endswith("*/\ntrue")
    assert not [q for q in case.queries if "sj_kept" in q and q.startswith("select count")]


def test_fallback_range_and_empty_key_set() -> None:
    sql = render("prune_fallback_range").sql
    assert "fallback range" in sql
    assert "f.date_key between cast('2026-02-01' as date) and cast('2026-02-28' as date)" in sql
    sql = render("prune_empty_key_set").sql
    assert "the key set is empty" in sql and "partitions: 61 in total, 0 kept" in sql
    assert sql.rstrip().endswith("*/\nfalse")


def test_prune_predicate_parse_time_runs_no_query() -> None:
    case = render("prune_parse_time")
    assert case.sql == "true"
    assert case.queries == []


def test_no_spread_when_the_input_splits_already_use_the_cores() -> None:
    """A local Spark with 2 cores reading 2 splits: a spread would cost a shuffle and gain nothing."""
    sql = render("hk_no_spread_splits_use_the_cores").sql
    assert "repartition" not in strip_record(sql)


def test_spread_on_a_cluster_with_few_splits() -> None:
    """64 cores, 2 splits: the hot rows are spread over min(total slots, parallelism) partitions."""
    sql = render("hk_spread_on_a_cluster").sql
    assert "select /*+ repartition(64, sj_spread) */ * from a_hot_a_hashed" in strip_record(sql)


# -- where skew plans pay: a local Spark with few cores ------------------------------------

def test_local_spark_with_two_cores_gets_the_plain_join() -> None:
    """2 local cores < min_parallelism 4: the plain join, said in the record; 'auto' runs no aggregate."""
    case = render("declined_local_two_cores")
    r, sql = case.renderer, case.sql
    record = decision_record(sql, "skew_join")
    assert "skew plans declined" in record and "strategy: plain join" in record
    body = strip_record(sql)
    assert "sj_slot" not in body and "broadcast" not in body
    assert "from skewjoin_it.typed_left as a\nleft outer join skewjoin_it.typed_right as b" in body
    assert not [q for q in r.spark.queries if "grouping_id()" in q]  # no detection aggregate
    assert len([q for q in r.spark.queries if "sj_parallelism" in q]) == 1


def test_parallelism_from_the_plan_else_from_a_job(renderer: Callable[..., Renderer]) -> None:
    """The parallelism is read from a range()'s physical plan (no job); where the plan does not say its
    splits, a job of the range's tasks counts them."""
    conf = {"spark.master": "local[*]", "spark.default.parallelism": "2"}
    model = ("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
             "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2}]}) }}")
    r = renderer("typed_left", "typed_right", conf=conf, vars=PACKAGE_DEFAULT)
    assert "skew plans declined" in r.render(model)
    probes = [q for q in r.spark.queries if "sj_parallelism" in q]
    assert probes == ["explain select * from range(0, 100000) as sj_parallelism"]
    r = renderer("typed_left", "typed_right", conf=conf, vars=PACKAGE_DEFAULT)
    r.spark.answer(r"explain select \* from range.*", Result(("plan",), [("== Physical Plan ==\nRange (0, 100000)",)]))
    assert "skew plans declined" in r.render(model)
    probes = [q for q in r.spark.queries if "sj_parallelism" in q]
    assert len(probes) == 2 and probes[1].startswith("select max(sj_split) + 1 as sj_parallelism")


def test_a_declined_plan_still_checks_the_groups(renderer: Callable[..., Renderer]) -> None:
    """A mistake in the specification is an error on a laptop too, not only on the cluster."""
    r = renderer("typed_left", "typed_right", conf={"spark.master": "local[2]", "spark.default.parallelism": "2"},
                 vars=PACKAGE_DEFAULT)
    with pytest.raises(Exception, match=r"skew_join\.groups\[0\]\.distribute"):
        r.render(
            "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
            "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2, 'distribute': 'b.attr'}]}) }}"
        )


@pytest.mark.parametrize(
    ("case_id", "reads_parallelism"),
    [
        ("planned_local_8_cores", True),  # enough local cores: planned, and the record says why
        ("planned_cluster", False),  # a cluster is never declined, however few cores it has at compile time
        ("planned_min_parallelism_option", True),  # the option and the var lower the bar
        ("planned_min_parallelism_var", True),
    ],
    ids=["local_8_cores", "cluster", "option", "var"],
)
def test_where_the_skew_plans_are_made(case_id: str, reads_parallelism: bool) -> None:
    case = render(case_id)
    sql = case.sql
    assert "strategy: skew groups" in sql and "sj_slot" in strip_record(sql)
    assert "declined" not in sql
    if not reads_parallelism:
        assert "parallelism:" not in decision_record(sql, "skew_join")
        assert not [q for q in case.queries if "sj_parallelism" in q]  # a cluster's parallelism is not read
    else:
        assert "skew plans made" in decision_record(sql, "skew_join")
        assert len([q for q in case.queries if "sj_parallelism" in q]) == 1


def test_a_databricks_target_is_never_declined() -> None:
    """dbt-databricks: a cluster or a SQL warehouse (which may refuse `set spark.master`): no check, no query."""
    case = render("planned_databricks")
    assert "strategy: skew groups" in case.sql and "declined" not in case.sql
    assert not [q for q in case.queries if "spark.master" in q or "sj_parallelism" in q]


def test_min_parallelism_one_reads_nothing() -> None:
    case = render("planned_min_parallelism_one")  # the test project: min_parallelism 1
    assert not [q for q in case.queries if "spark.master" in q or "sj_parallelism" in q]

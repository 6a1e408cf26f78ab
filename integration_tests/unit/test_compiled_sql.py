"""The shape of what the macros compile, where a test only reads the text (no
Spark): hot-key branches and literals, star_join's hints, verdicts and order
from given sizes, prune_predicate's predicate from given key sets.

Whether Spark runs these queries to the plain join's rows, and with the
plans these texts ask for, is the Spark tier's job (integration_tests/pytests).
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .harness import Renderer, Result, decision_record, strip_record

# -- hot keys -----------------------------------------------------------------------------


def test_hostile_declared_hot_keys_are_single_literals(renderer: Callable[..., Renderer]) -> None:
    r = renderer("hostile_left", "hostile_right", model="hk_hostile_declared")
    sql = strip_record(r.render_model("models/hot_keys/hk_hostile_declared.sql"))
    assert "'it\\'s'" in sql
    assert "'back\\\\slash'" in sql
    assert "'new\\nline'" in sql
    assert "'close*/'" in sql
    # the query keeps its shape: one statement, every literal closed
    assert ";" not in re.sub(r"'(?:[^'\\]|\\.)*'", "''", sql)
    # none among the keys: NULL keys of the preserved side bypass the join
    assert "a_null_keys_kept as (" in sql


def test_auto_with_no_key_above_threshold_is_the_plain_join(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right")
    r.spark.tables["skewjoin_it.typed_right"].rows = [(i % 30,) + (None,) * 8 for i in range(90)]
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_right'), ref('typed_left'), on=[['rid', 'id']], join_type='left', "
        "columns=['a.rid'], skew={'hot_keys': 'auto', 'hot_keys_options': {'min_share': 0.5}}) }}"
    )
    assert "none above the threshold" in sql
    assert "strategy: plain join" in sql
    assert "broadcast" not in strip_record(sql)
    detection = [q for q in r.spark.queries if "grouping_id()" in q]
    assert len(detection) == 1 and "limit 21" in detection[0]


def test_hot_keys_of_both_sides_in_a_left_join(renderer: Callable[..., Renderer]) -> None:
    """a preserved: a's hot rows left-join the broadcast b rows; b's hot rows
    inner-join the broadcast a rows, and a's unmatched rows of those keys come
    from an anti join; NULL keys of a bypass the join; every row of each side
    lands in exactly one branch (rest = not any hot predicate)."""
    r = renderer("typed_left", "typed_right")
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left', "
        "columns=['a.id', 'b.rid'], skew={'hot_keys': {'a': [0, none], 'b': [7]}}) }}"
    )
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


def test_hot_key_tuples_for_multi_column_keys(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right")
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int', 'region'], "
        "skew={'hot_keys': [[0, 'EU'], [7, \"it's\"]], 'hot_keys_options': {'spread': 'never'}}) }}"
    )
    assert (
        "coalesce((a.k_int = cast(0 as int) and a.region = 'EU') or (a.k_int = cast(7 as int) and a.region = 'it\\'s'), false)"
        in sql
    )
    assert "hot keys of a (declared): 0, EU; 7, it's" in sql
    assert "repartition" not in sql and "not spread (spread: never)" in sql


# -- star_join ----------------------------------------------------------------------------

SMALL_DIMS = {
    "s": "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id']}",
    "c": "{'relation': ref('star_customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left'}",
    "d": "{'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']]}",
    "pr": "{'relation': ref('star_promos'), 'alias': 'pr', 'on': ['promo_code', 'store_id'], 'join_type': 'left'}",
}
SMALL_TABLES = ("star_sales", "star_stores", "star_customers", "star_dates", "star_promos", "star_products")
SIZES = {"s": 1_700, "c": 4_800, "d": 3_900, "pr": 2_300}


def _star(dims: list[str], **kwargs: str) -> str:
    extra = "".join(f", {k}={v}" for k, v in kwargs.items())
    return "{{ skewjoin.star_join(ref('star_sales'), [" + ", ".join(dims) + "]" + extra + ") }}"


def _hints(sql: str) -> dict[str, set[str]]:
    m = re.search(r"/\*\+(.*?)\*/", strip_record(sql), flags=re.S)
    if not m:
        return {}
    return {n.lower(): {a.strip() for a in args.split(",")} for n, args in re.findall(r"(\w+)\s*\(([^)]*)\)", m.group(1))}


def _verdicts(sql: str) -> dict[str, str]:
    return dict(re.findall(r"^\s*dimension (\w+) \((.*)$", decision_record(sql, "star_join"), flags=re.M))


@pytest.mark.parametrize("over", [0, 1], ids=["exact_fit", "one_byte_over"])
def test_budget_exact_fit_and_one_byte_over(renderer: Callable[..., Renderer], over: int) -> None:
    by_size = sorted(SIZES, key=SIZES.get)
    three = sum(SIZES[a] for a in by_size[:3])
    r = renderer(*SMALL_TABLES)
    sql = r.render(_star(list(SMALL_DIMS.values()), broadcast_budget=str(three - over)))
    chosen = set(by_size[:3 - over])
    assert _hints(sql)["broadcast"] == chosen and _hints(sql)["merge"] == set(SIZES) - chosen
    verdict = _verdicts(sql)[by_size[2]]
    if over == 0:
        assert f"-> broadcast (fits: broadcast total {three} <= budget {three})" in verdict
    else:
        assert f"-> shuffle (over budget: broadcast total would be {three - SIZES[by_size[2]]} + {SIZES[by_size[2]]} = {three} > {three - 1})" in verdict
    assert "from catalog statistics (parquet)" in verdict


def test_budget_zero_broadcasts_nothing_and_shuffle_hint_none_leaves_spark_alone(renderer: Callable[..., Renderer]) -> None:
    sql = renderer(*SMALL_TABLES).render(_star(list(SMALL_DIMS.values()), broadcast_budget="0"))
    assert "broadcast" not in _hints(sql) and _hints(sql)["merge"] == set(SMALL_DIMS)
    sql = renderer(*SMALL_TABLES).render(_star([SMALL_DIMS["s"]], broadcast_budget="0", shuffle_hint="'none'"))
    assert "/*+" not in strip_record(sql)
    assert "shuffle: s (left to Spark)" in decision_record(sql, "star_join")


def test_size_factor_per_format_and_per_dimension(renderer: Callable[..., Renderer]) -> None:
    stores, promos = SIZES["s"], SIZES["pr"]
    dims = [SMALL_DIMS["s"], SMALL_DIMS["pr"][:-1] + ", 'size_factor': 0.5}"]
    budget = 3 * stores + (promos + 1) // 2
    sql = renderer(*SMALL_TABLES).render(_star(dims, size_factor="{'parquet': 3}", broadcast_budget=str(budget)))
    verdicts = _verdicts(sql)
    assert f"x size factor 3 (argument size_factor for parquet) = {3 * stores} bytes" in verdicts["s"]
    assert f"x size factor 0.5 (dims[1].size_factor) = {(promos + 1) // 2} bytes" in verdicts["pr"]
    assert _hints(sql)["broadcast"] == {"s", "pr"}
    sql = renderer(*SMALL_TABLES).render(_star(dims, size_factor="{'parquet': 3}", broadcast_budget=str(budget - 1)))
    assert _hints(sql)["broadcast"] == {"pr"}


def test_forcing_a_broadcast_takes_its_share_first(renderer: Callable[..., Renderer]) -> None:
    forced = "{'relation': ref('star_products'), 'alias': 'p', 'on': ['product_id'], 'broadcast': true}"
    sql = renderer(*SMALL_TABLES).render(_star([forced, SMALL_DIMS["s"]], broadcast_budget="'10k'"))
    assert _hints(sql)["broadcast"] == {"p"}
    assert "-> broadcast (broadcast: true (forced))" in _verdicts(sql)["p"]
    assert "-> shuffle (over budget" in _verdicts(sql)["s"]


def test_sizes_from_files_views_queries_and_analyze(renderer: Callable[..., Renderer]) -> None:
    r = renderer("star_sales", "star_channels", "star_store_regions", "star_customers", "star_warehouses")
    dims = [
        "{'relation': ref('star_channels'), 'alias': 'ch', 'on': ['channel_id']}",
        "{'relation': ref('star_store_regions'), 'alias': 'sr', 'on': ['store_id']}",
        "{'relation': \"select customer_id, segment from skewjoin_it.star_customers where segment = 'vip'\", 'alias': 'c', 'on': ['customer_id']}",
        "{'relation': \"select customer_id from skewjoin_it.star_customers group by customer_id\", 'alias': 'cg', 'on': ['customer_id']}",
        "{'relation': ref('star_warehouses'), 'alias': 'w', 'on': ['warehouse_id']}",
    ]
    for q in ("select customer_id, segment from skewjoin_it.star_customers where segment = 'vip'",
              "select customer_id from skewjoin_it.star_customers group by customer_id"):  # fmt: skip
        r.spark.tables[q] = r.spark.tables["skewjoin_it.star_customers"]
    sql = r.render(_star(dims, analyze="'missing'"))
    v = _verdicts(sql)
    assert "1100 bytes (1.1 KiB) from the sum of its 1 file(s) read through _metadata" not in v["ch"]  # analyze ran first
    assert "after ANALYZE TABLE ... COMPUTE STATISTICS NOSCAN (there were none)" in v["ch"] and "-> broadcast" in v["ch"]
    assert "size unknown (a view has no statistics" in v["sr"] and "-> shuffle (size unknown" in v["sr"]
    assert "4800 bytes" in v["c"] and "upper bound: the size of skewjoin_it.star_customers" in v["c"]
    assert "size unknown (a query other than" in v["cg"]
    assert _hints(sql)["broadcast"] == {"ch", "c", "w"} and _hints(sql)["merge"] == {"sr", "cg"}
    assert [q for q in r.spark.queries if q.startswith("analyze")] == [
        "analyze table skewjoin_it.star_channels compute statistics noscan",
        "analyze table skewjoin_it.star_warehouses compute statistics noscan",
    ]


def test_outer_join_rules_and_order(renderer: Callable[..., Renderer]) -> None:
    dims = [SMALL_DIMS["d"], "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], 'join_type': 'right'}", SMALL_DIMS["c"]]
    sql = renderer(*SMALL_TABLES).render(_star(dims))
    v = _verdicts(sql)
    assert "-> shuffle (cannot be broadcast: a right join preserves s (all its rows are returned)" in v["s"]
    assert "join order: d, s, c (as given, because s is right- or full-joined" in decision_record(sql, "star_join")
    assert _hints(sql)["broadcast"] == {"d", "c"} and _hints(sql)["merge"] == {"s"}
    body = strip_record(sql)
    assert body.index("inner join skewjoin_it.star_dates as d") < body.index("right outer join skewjoin_it.star_stores as s")


def test_star_join_parse_time_runs_no_query(renderer: Callable[..., Renderer]) -> None:
    r = renderer(*SMALL_TABLES, execute=False)
    sql = r.render(_star(list(SMALL_DIMS.values())))
    assert sql.startswith("select *\nfrom skewjoin_it.star_sales as f\ncross join skewjoin_it.star_stores as s")
    assert r.spark.queries == []


# -- prune_predicate ----------------------------------------------------------------------

DATES_FEB = "{'relation': ref('prune_dates'), 'filter': 'year = 2026 and month = 2', 'on': ['date_key']}"
FEB = [f"2026-02-{d:02d}" for d in range(1, 29)]


def _pruning_renderer(renderer: Callable[..., Renderer], keys: list[str], kept_partitions: int) -> Renderer:
    """prune_sales partitioned by date_key (60 days and NULL); the key query
    answers `keys` (2 NULL keys dropped), the partition count `kept_partitions`."""
    import datetime

    r = renderer("prune_sales", "prune_dates")
    days = [datetime.date(2026, 1, 1) + datetime.timedelta(days=i) for i in range(60)] + [None]
    r.spark.tables["skewjoin_it.prune_sales"].rows = [(i, None, None, None, day) for i, day in enumerate(days)]
    stats = [("stat", "distinct_0", f"v:{len(keys)}"), ("stat", "nulls_0", "v:2"), ("stat", "kept", f"v:{len(keys)}")]
    edges = [("min", None, f"v:{min(keys)}"), ("max", None, f"v:{max(keys)}")] if keys else [("min", None, None), ("max", None, None)]
    r.spark.answer(r"with\s+sj_keys_0 as \(.*", Result(("sj_kind", "sj_name", "sj_v0"), stats + edges + [("key", None, f"v:{k}") for k in keys]))
    r.spark.answer(r"select count\(\*\) as sj_kept\s+from \(.*", Result(("sj_kept",), [(kept_partitions,)]))
    return r


@pytest.mark.parametrize("join_type", ["inner", "right outer", "left semi"])
def test_allowed_join_types_compile(renderer: Callable[..., Renderer], join_type: str) -> None:
    r = _pruning_renderer(renderer, FEB, 28)
    sql = r.render(f"select 1 where {{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}], join_type='{join_type}') }}}}")
    record = decision_record(sql, "prune_predicate")
    assert f"prune_dates ({join_type.split()[0]}" in record
    assert "partitioned by date_key" in record and "partitions: 61 in total, 28 kept" in record
    assert "28 distinct key(s); 2 row(s) with a NULL key dropped (NULL never matches)" in record
    line = [ln.strip() for ln in sql.splitlines() if ln.strip().startswith("f.date_key in (")]
    assert len(line) == 1 and line[0].count("cast('2026-02-") == 28 and line[0].endswith(" as date))")


def test_fallback_none_leaves_the_big_table_alone(renderer: Callable[..., Renderer]) -> None:
    r = _pruning_renderer(renderer, FEB, 28)
    sql = r.render(
        "select * from {{ ref('prune_sales') }} as f where "
        f"{{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}], max_values=5, fallback='none') }}}}"
    )
    assert "28 values, above max_values 5: fallback none (no predicate)" in decision_record(sql, "prune_predicate")
    assert sql.rstrip().endswith("*/\ntrue")
    assert not [q for q in r.spark.queries if "sj_kept" in q and q.startswith("select count")]


def test_fallback_range_and_empty_key_set(renderer: Callable[..., Renderer]) -> None:
    r = _pruning_renderer(renderer, FEB, 28)
    sql = r.render(f"{{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}], max_values=3) }}}}")
    assert "f.date_key: 28 values, above max_values 3: fallback range" in sql
    assert "f.date_key between cast('2026-02-01' as date) and cast('2026-02-28' as date)" in sql
    r = _pruning_renderer(renderer, [], 0)
    sql = r.render(f"{{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}]) }}}}")
    assert "the key set is empty" in sql and "partitions: 61 in total, 0 kept" in sql
    assert sql.rstrip().endswith("*/\nfalse")


def test_prune_predicate_parse_time_runs_no_query(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_sales", "prune_dates", execute=False)
    assert r.render(f"{{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}]) }}}}") == "true"
    assert r.spark.queries == []


def test_no_spread_when_the_input_splits_already_use_the_cores(renderer: Callable[..., Renderer]) -> None:
    """A local Spark with 2 cores reading 2 splits: a spread would cost a shuffle and gain nothing."""
    r = renderer("typed_left", "typed_right", conf={"spark.default.parallelism": "2"})
    r.spark.tables["skewjoin_it.typed_left"].splits = 2
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], skew={'hot_keys': [0]}) }}"
    )
    assert "repartition" not in strip_record(sql)
    assert "its 2 input splits already use half or more of the 2 tasks Spark runs at once" in sql


def test_spread_on_a_cluster_with_few_splits(renderer: Callable[..., Renderer]) -> None:
    """64 cores, 2 splits: the hot rows are spread over min(total slots, parallelism) partitions."""
    r = renderer("typed_left", "typed_right", conf={"spark.default.parallelism": "64"}, vars={"skewjoin_total_slots": 200})
    r.spark.tables["skewjoin_it.typed_left"].splits = 2
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], skew={'hot_keys': [0]}) }}"
    )
    assert "select /*+ repartition(64, sj_spread) */ * from a_hot_a_hashed" in strip_record(sql)
    assert "spread by xxhash64 of the whole row over 64 partitions: its input has only 2 splits" in sql
    assert "no sort" in sql and "one copy to each of the 64 tasks of the branch" in sql


# -- where skew plans pay: a local Spark with few cores ------------------------------------

PACKAGE_DEFAULT = {"skewjoin_min_parallelism": None}  # the package's default (4), not the test project's 1


def test_local_spark_with_two_cores_gets_the_plain_join(renderer: Callable[..., Renderer]) -> None:
    """2 local cores < min_parallelism 4: the plain join, said in the record; 'auto' runs no aggregate."""
    r = renderer("typed_left", "typed_right", conf={"spark.master": "local[*]", "spark.default.parallelism": "2"},
                 vars=PACKAGE_DEFAULT)
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left', "
        "columns=['a.id', 'b.rid'], skew={'hot_keys': {'b': 'auto'}, "
        "'groups': [{'when': 'a.k_int = 1', 'slots': 4}]}) }}"
    )
    record = decision_record(sql, "skew_join")
    assert "skew plans declined: local Spark (local[*]) runs 2 tasks at once (default parallelism), fewer than" \
        " min_parallelism 4 (from default)" in record
    assert "hot keys of b not measured: 'auto' is not run where the skew plans are declined" in record
    assert "strategy: plain join (skew plans declined on this local Spark, see above)" in record
    body = strip_record(sql)
    assert "sj_slot" not in body and "broadcast" not in body
    assert "from skewjoin_it.typed_left as a\nleft outer join skewjoin_it.typed_right as b" in body
    assert not [q for q in r.spark.queries if "grouping_id()" in q]  # no detection aggregate
    assert len([q for q in r.spark.queries if "sj_parallelism" in q]) == 1


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
    ("conf", "vars", "skew_extra", "expected"),
    [
        # enough local cores: planned, and the record says why
        ({"spark.master": "local[8]", "spark.default.parallelism": "8"}, PACKAGE_DEFAULT, "",
         "parallelism: local Spark (local[8]) runs 8 tasks at once (>= min_parallelism 4, from default): skew plans made"),
        # a cluster is never declined, however few cores it has at compile time (dynamic allocation)
        ({"spark.master": "yarn", "spark.default.parallelism": "2"}, PACKAGE_DEFAULT, "", None),
        # the option and the var lower the bar
        ({"spark.master": "local[*]", "spark.default.parallelism": "2"}, PACKAGE_DEFAULT, ", 'min_parallelism': 2",
         "runs 2 tasks at once (>= min_parallelism 2, from skew_join.min_parallelism)"),
        ({"spark.master": "local[*]", "spark.default.parallelism": "2"}, {"skewjoin_min_parallelism": 2}, "",
         "(>= min_parallelism 2, from var('skewjoin_min_parallelism'))"),
    ],
    ids=["local_8_cores", "cluster", "option", "var"],
)
def test_where_the_skew_plans_are_made(
    renderer: Callable[..., Renderer], conf: dict[str, str], vars: dict[str, object], skew_extra: str, expected: str | None
) -> None:
    r = renderer("typed_left", "typed_right", conf=conf, vars=vars)
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
        "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}]" + skew_extra + "}) }}"
    )
    assert "strategy: skew groups" in sql and "sj_slot" in strip_record(sql)
    assert "declined" not in sql
    if expected is None:
        assert "parallelism:" not in decision_record(sql, "skew_join")
        assert not [q for q in r.spark.queries if "sj_parallelism" in q]  # a cluster's parallelism is not read
    else:
        assert expected in decision_record(sql, "skew_join")


def test_a_databricks_target_is_never_declined(renderer: Callable[..., Renderer]) -> None:
    """dbt-databricks: a cluster or a SQL warehouse (which may refuse `set spark.master`): no check, no query."""
    r = renderer("typed_left", "typed_right", conf={"spark.master": "local[*]", "spark.default.parallelism": "2"},
                 vars=PACKAGE_DEFAULT, adapter_type="databricks")
    sql = r.render("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
                   "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}) }}")
    assert "strategy: skew groups" in sql and "declined" not in sql
    assert not [q for q in r.spark.queries if "spark.master" in q or "sj_parallelism" in q]


def test_min_parallelism_one_reads_nothing(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right")  # the test project: min_parallelism 1
    r.render("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
             "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}) }}")
    assert not [q for q in r.spark.queries if "spark.master" in q or "sj_parallelism" in q]

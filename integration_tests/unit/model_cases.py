"""The unit tier's model cases: every compile whose whole output (SQL, decision
record, log lines, queries) is kept as a file under expected/ (see golden.py).

A test that checks the structure of a case's output takes its render with
``render("<id>")``; test_expected_output.py compares every case with its files.
To add a case: a row here, then ``make expected`` and review the new files.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from .golden import ModelCase, Rendered, render_case
from .harness import PROJECT_DIR, Renderer, Result

SKEW = "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), "
TYPED = ("typed_left", "typed_right")
PACKAGE_DEFAULT = {"skewjoin_min_parallelism": None}  # the package's default (4), not the test project's 1

# -- star_join ------------------------------------------------------------------------------

SMALL_DIMS = {
    "s": "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id']}",
    "c": "{'relation': ref('star_customers'), 'alias': 'c', 'on': ['customer_id'], 'join_type': 'left'}",
    "d": "{'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']]}",
    "pr": "{'relation': ref('star_promos'), 'alias': 'pr', 'on': ['promo_code', 'store_id'], 'join_type': 'left'}",
}
SMALL_TABLES = ("star_sales", "star_stores", "star_customers", "star_dates", "star_promos", "star_products")
SIZES = {"s": 1_700, "c": 4_800, "d": 3_900, "pr": 2_300}
_BY_SIZE = sorted(SIZES, key=SIZES.get)  # type: ignore[arg-type]
THREE_SMALLEST = sum(SIZES[a] for a in _BY_SIZE[:3])
SIZE_FACTOR_DIMS = [SMALL_DIMS["s"], SMALL_DIMS["pr"][:-1] + ", 'size_factor': 0.5}"]
SIZE_FACTOR_BUDGET = 3 * SIZES["s"] + (SIZES["pr"] + 1) // 2
FORCED_PRODUCTS = "{'relation': ref('star_products'), 'alias': 'p', 'on': ['product_id'], 'broadcast': true}"
VIP = "select customer_id, segment from skewjoin_it.star_customers where segment = 'vip'"
GROUPED = "select customer_id from skewjoin_it.star_customers group by customer_id"
SIZED_DIMS = [
    "{'relation': ref('star_channels'), 'alias': 'ch', 'on': ['channel_id']}",
    "{'relation': ref('star_store_regions'), 'alias': 'sr', 'on': ['store_id']}",
    "{'relation': \"" + VIP + "\", 'alias': 'c', 'on': ['customer_id']}",
    "{'relation': \"" + GROUPED + "\", 'alias': 'cg', 'on': ['customer_id']}",
    "{'relation': ref('star_warehouses'), 'alias': 'w', 'on': ['warehouse_id']}",
]
OUTER_DIMS = [SMALL_DIMS["d"], "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], 'join_type': 'right'}",
              SMALL_DIMS["c"]]  # fmt: skip


def star(dims: list[str], **kwargs: str) -> str:
    extra = "".join(f", {k}={v}" for k, v in kwargs.items())
    return "{{ skewjoin.star_join(ref('star_sales'), [" + ", ".join(dims) + "]" + extra + ") }}"


def _queries_read_customers(r: Renderer) -> None:
    for q in (VIP, GROUPED):
        r.spark.tables[q] = r.spark.tables["skewjoin_it.star_customers"]


# -- prune_predicate ------------------------------------------------------------------------

DATES_FEB = "{'relation': ref('prune_dates'), 'filter': 'year = 2026 and month = 2', 'on': ['date_key']}"
FEB = [f"2026-02-{d:02d}" for d in range(1, 29)]


def pruning(keys: list[str], kept_partitions: int) -> Callable[[Renderer], None]:
    """prune_sales partitioned by date_key (60 days and NULL); the key query
    answers `keys` (2 NULL keys dropped), the partition count `kept_partitions`."""

    def setup(r: Renderer) -> None:
        days = [datetime.date(2026, 1, 1) + datetime.timedelta(days=i) for i in range(60)] + [None]
        r.spark.tables["skewjoin_it.prune_sales"].rows = [(i, None, None, None, day) for i, day in enumerate(days)]
        stats = [("stat", "distinct_0", f"v:{len(keys)}"), ("stat", "nulls_0", "v:2"), ("stat", "kept", f"v:{len(keys)}")]
        edges = [("min", None, f"v:{min(keys)}"), ("max", None, f"v:{max(keys)}")] if keys else [("min", None, None), ("max", None, None)]
        r.spark.answer(r"with\s+sj_keys_0 as \(.*", Result(("sj_kind", "sj_name", "sj_v0"), stats + edges + [("key", None, f"v:{k}") for k in keys]))
        r.spark.answer(r"select count\(\*\) as sj_kept\s+from \(.*", Result(("sj_kept",), [(kept_partitions,)]))

    return setup  # fmt: skip


# -- shared setups --------------------------------------------------------------------------


def _right_rows_none_above(r: Renderer) -> None:
    r.spark.tables["skewjoin_it.typed_right"].rows = [(i % 30,) + (None,) * 8 for i in range(90)]


def _left_splits(n: int) -> Callable[[Renderer], None]:
    def setup(r: Renderer) -> None:
        r.spark.tables["skewjoin_it.typed_left"].splits = n

    return setup


CHAIN = """{{{{ skewjoin.skew_join_chain(ref('typed_left'), [
    {{'relation': ref('typed_right'), 'alias': 'b', 'join_type': '{jt1}'}},
    {{'relation': ref('spread_right'), 'alias': 'c', 'join_type': '{jt2}', 'on': [['k_int', 'k']]}}
], on=['k_int'], columns=['a.id', 'b.rid', 'c.label'], skew={skew}) }}}}"""
CHAIN_GROUPS = "{'groups': [{'when': 'a.k_int = 0', 'slots': 6}]}"
CHAIN_TABLES = ("typed_left", "typed_right", "spread_right")


def chain(jt1: str = "left", jt2: str = "left", skew: str = CHAIN_GROUPS) -> str:
    return CHAIN.format(jt1=jt1, jt2=jt2, skew=skew)


GROUP_K0 = "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}]"

CASES: list[ModelCase] = [
    # -- test_compiled_sql.py: hot keys
    ModelCase("hk_hostile_declared", ("hostile_left", "hostile_right"),
              (PROJECT_DIR / "models/hot_keys/hk_hostile_declared.sql").read_text(), model="hk_hostile_declared"),
    ModelCase("hk_auto_none_above_threshold", TYPED,
              "{{ skewjoin.skew_join(ref('typed_right'), ref('typed_left'), on=[['rid', 'id']], join_type='left', "
              "columns=['a.rid'], skew={'hot_keys': 'auto', 'hot_keys_options': {'min_share': 0.5}}) }}",
              setup=_right_rows_none_above),
    ModelCase("hk_both_sides_left_join", TYPED,
              SKEW + "on=['k_int'], join_type='left', columns=['a.id', 'b.rid'], "
              "skew={'hot_keys': {'a': [0, none], 'b': [7]}}) }}"),
    ModelCase("hk_multi_column_tuples", TYPED,
              SKEW + "on=['k_int', 'region'], "
              "skew={'hot_keys': [[0, 'EU'], [7, \"it's\"]], 'hot_keys_options': {'spread': 'never'}}) }}"),
    ModelCase("hk_no_spread_splits_use_the_cores", TYPED, SKEW + "on=['k_int'], skew={'hot_keys': [0]}) }}",
              conf={"spark.default.parallelism": "2"}, setup=_left_splits(2)),
    ModelCase("hk_spread_on_a_cluster", TYPED, SKEW + "on=['k_int'], skew={'hot_keys': [0]}) }}",
              conf={"spark.default.parallelism": "64"}, vars={"skewjoin_total_slots": 200}, setup=_left_splits(2)),
    # -- test_compiled_sql.py: star_join
    ModelCase("star_budget_exact_fit", SMALL_TABLES, star(list(SMALL_DIMS.values()), broadcast_budget=str(THREE_SMALLEST))),
    ModelCase("star_budget_one_byte_over", SMALL_TABLES,
              star(list(SMALL_DIMS.values()), broadcast_budget=str(THREE_SMALLEST - 1))),
    ModelCase("star_budget_zero", SMALL_TABLES, star(list(SMALL_DIMS.values()), broadcast_budget="0")),
    ModelCase("star_budget_zero_shuffle_hint_none", SMALL_TABLES,
              star([SMALL_DIMS["s"]], broadcast_budget="0", shuffle_hint="'none'")),
    ModelCase("star_size_factor_fits", SMALL_TABLES,
              star(SIZE_FACTOR_DIMS, size_factor="{'parquet': 3}", broadcast_budget=str(SIZE_FACTOR_BUDGET))),
    ModelCase("star_size_factor_one_over", SMALL_TABLES,
              star(SIZE_FACTOR_DIMS, size_factor="{'parquet': 3}", broadcast_budget=str(SIZE_FACTOR_BUDGET - 1))),
    ModelCase("star_forced_broadcast_first", SMALL_TABLES, star([FORCED_PRODUCTS, SMALL_DIMS["s"]], broadcast_budget="'10k'")),
    ModelCase("star_sizes_files_views_queries_analyze",
              ("star_sales", "star_channels", "star_store_regions", "star_customers", "star_warehouses"),
              star(SIZED_DIMS, analyze="'missing'"), setup=_queries_read_customers),
    ModelCase("star_outer_join_order", SMALL_TABLES, star(OUTER_DIMS)),
    ModelCase("star_parse_time", SMALL_TABLES, star(list(SMALL_DIMS.values())), execute=False),
    # -- test_compiled_sql.py: prune_predicate
    *[ModelCase(f"prune_join_type_{jt.replace(' ', '_')}", ("prune_sales", "prune_dates"),
                f"select 1 where {{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}], join_type='{jt}') }}}}",
                setup=pruning(FEB, 28))
      for jt in ("inner", "right outer", "left semi")],
    ModelCase("prune_fallback_none", ("prune_sales", "prune_dates"),
              "select * from {{ ref('prune_sales') }} as f where "
              f"{{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}], max_values=5, fallback='none') }}}}",
              setup=pruning(FEB, 28)),
    ModelCase("prune_fallback_range", ("prune_sales", "prune_dates"),
              f"{{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}], max_values=3) }}}}",
              setup=pruning(FEB, 28)),
    ModelCase("prune_empty_key_set", ("prune_sales", "prune_dates"),
              f"{{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}]) }}}}", setup=pruning([], 0)),
    ModelCase("prune_parse_time", ("prune_sales", "prune_dates"),
              f"{{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}]) }}}}", execute=False),
    # -- test_compiled_sql.py: where skew plans pay
    ModelCase("declined_local_two_cores", TYPED,
              SKEW + "on=['k_int'], join_type='left', columns=['a.id', 'b.rid'], skew={'hot_keys': {'b': 'auto'}, "
              "'groups': [{'when': 'a.k_int = 1', 'slots': 4}]}) }}",
              conf={"spark.master": "local[*]", "spark.default.parallelism": "2"}, vars=PACKAGE_DEFAULT),
    ModelCase("planned_local_8_cores", TYPED, SKEW + "on=['k_int'], " + GROUP_K0 + "}) }}",
              conf={"spark.master": "local[8]", "spark.default.parallelism": "8"}, vars=PACKAGE_DEFAULT),
    ModelCase("planned_cluster", TYPED, SKEW + "on=['k_int'], " + GROUP_K0 + "}) }}",
              conf={"spark.master": "yarn", "spark.default.parallelism": "2"}, vars=PACKAGE_DEFAULT),
    ModelCase("planned_min_parallelism_option", TYPED, SKEW + "on=['k_int'], " + GROUP_K0 + ", 'min_parallelism': 2}) }}",
              conf={"spark.master": "local[*]", "spark.default.parallelism": "2"}, vars=PACKAGE_DEFAULT),
    ModelCase("planned_min_parallelism_var", TYPED, SKEW + "on=['k_int'], " + GROUP_K0 + "}) }}",
              conf={"spark.master": "local[*]", "spark.default.parallelism": "2"}, vars={"skewjoin_min_parallelism": 2}),
    ModelCase("planned_databricks", TYPED, SKEW + "on=['k_int'], " + GROUP_K0 + "}) }}",
              conf={"spark.master": "local[*]", "spark.default.parallelism": "2"}, vars=PACKAGE_DEFAULT,
              adapter_type="databricks"),
    ModelCase("planned_min_parallelism_one", TYPED, SKEW + "on=['k_int'], " + GROUP_K0 + "}) }}"),
    # -- test_skew_join_rules.py
    ModelCase("sj_seed_three_groups", ("src",), (PROJECT_DIR / "models/skew_join/sj_seed_three_groups.sql").read_text(),
              model="sj_seed_three_groups"),
    ModelCase("slots_total_from_spec", TYPED, SKEW + "on=['k_int'], skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2}], 'total_slots': 10}) }}"),
    ModelCase("slots_total_from_var", TYPED, SKEW + "on=['k_int'], skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2}]}) }}"),
    ModelCase("slots_total_from_session", TYPED, SKEW + "on=['k_int'], skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2}]}) }}",
              vars={"skewjoin_total_slots": None}, conf={"spark.sql.shuffle.partitions": "48"}),
    ModelCase("plain_join_nothing_skewed", TYPED, SKEW + "on=['k_int'], join_type='left outer') }}"),
    ModelCase("sj_parse_time", TYPED,
              SKEW + "on=['k_int'], skew={'hot_keys': 'auto', 'groups': [{'when': 'a.k_int = 0', 'slots': 2}]}) }}",
              execute=False),
    ModelCase("placement_distinct_across_keys", TYPED,
              SKEW + "on=['k_int'], skew={'total_slots': 200, "
              "'groups': [{'when': 'a.k_int in (0, 7)', 'slots': 60}, {'when': 'a.k_int = -3', 'slots': 30}]}) }}"),
    ModelCase("placement_shares_the_fewest", TYPED,
              SKEW + "on=['k_int'], skew={'total_slots': 20, 'groups': [{'when': 'a.k_int in (1, 2)', 'slots': 8}]}) }}",
              conf={"spark.sql.shuffle.partitions": "12"}),
    ModelCase("placement_slots_outnumber_partitions", TYPED,
              SKEW + "on=['k_int'], skew={'total_slots': 20, 'groups': [{'when': 'a.k_int = 1', 'slots': 6}]}) }}",
              conf={"spark.sql.shuffle.partitions": "4"}),
    ModelCase("placement_aqe_initial_partitions", TYPED,
              SKEW + "on=['k_int'], skew={'groups': [{'when': 'a.k_int = 1', 'slots': 4}]}) }}",
              conf={"spark.sql.adaptive.coalescePartitions.initialPartitionNum": "64"}),
    ModelCase("placement_aqe_off", TYPED, SKEW + "on=['k_int'], skew={'groups': [{'when': 'a.k_int = 1', 'slots': 4}]}) }}",
              conf={"spark.sql.adaptive.coalescePartitions.initialPartitionNum": "64", "spark.sql.adaptive.enabled": "false"}),
    # -- test_skew_join_chain.py
    ModelCase("chain_groups_one_salting", CHAIN_TABLES, chain()),
    ModelCase("chain_hot_keys_broadcast_chain", CHAIN_TABLES, chain(jt1="inner", jt2="left", skew="{'hot_keys': [7, none]}")),
    ModelCase("chain_plain", CHAIN_TABLES, chain(skew="{}")),
    ModelCase("chain_keys_of_different_types", CHAIN_TABLES,
              chain().replace("'alias': 'b', 'join_type': 'left'", "'alias': 'b', 'join_type': 'left', 'on': [['k_int', 'k_big']]")),
]  # fmt: skip

BY_ID: dict[str, ModelCase] = {c.id: c for c in CASES}
assert len(BY_ID) == len(CASES), "duplicate model case ids"


def render(case_id: str) -> Rendered:
    """Render the case ``case_id`` (a fresh fake Spark each call)."""
    return render_case(BY_ID[case_id])

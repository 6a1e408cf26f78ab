"""The render tier's model cases: every compile whose whole output (SQL, decision
record, log lines, queries) is kept as a file under expected/ (see golden.py).

A test that checks the structure of a case's output takes its render with
``render("<id>")``; test_expected_output.py compares every case with its files.
To add a case: a row here, then ``make expected`` and review the new files.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

from .golden import ModelCase, Rendered, render_case
from .harness import PROJECT_DIR, Renderer, Result, Table

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
        r.spark.answer(r"with\s+sj_groups_0 as \(.*", Result(("sj_kind", "sj_name", "sj_v0"), stats + edges + [("key", None, f"v:{k}") for k in keys]))
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


# -- skew_join 'auto' ------------------------------------------------------------------------

AUTO_JOIN = "{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], join_type='inner') }}"
# a: 1,000 rows, key 0 on 600 of them, 40 with a NULL key; b: one row per key, key 5 on 300 rows
LEFT = [(i, 0) for i in range(600)] + [(600 + i, None) for i in range(40)] + [(700 + i, i % 50 + 1) for i in range(360)]
RIGHT = [(k, f"k{k}") for k in range(60)] + [(5, f"five{i}") for i in range(300)]
# b with key 0 on one row, under 59 keys of two rows: a sketch of b's 22 heaviest keys does not list key 0
RIGHT_TWOS = [(k, f"k{k}") for k in range(1, 60)] * 2 + [(0, "zero")] + [(5, f"five{i}") for i in range(300)]
RIGHT_ZERO = [(k, f"k{k}") for k in range(1, 60)] + [(0, f"zero{i}") for i in range(200)]  # b: key 0 on 200 rows
# a's rows of key 0 all alike (the side a SELECT of the key and a constant would give)
LEFT_IDENTICAL = [(0, 0)] * 600 + [(600 + i, None) for i in range(40)] + [(700 + i, i % 50 + 1) for i in range(360)]
UNIFORM_LEFT = [(i, i) for i in range(500)]
UNIFORM_RIGHT = [(k, f"k{k}") for k in range(500)]


def histogram(bins: list[tuple[float, float, int]], height: float, nulls: int) -> dict[str, str]:
    stats = {"num_nulls": str(nulls), "histogram": f"height: {height}, num_of_bins: {len(bins)}"}
    for i, (lo, hi, ndv) in enumerate(bins):
        stats[f"bin_{i}"] = f"lower_bound: {lo}, upper_bound: {hi}, distinct_count: {ndv}"
    return stats


# a's key: 10 bins of 100 rows, key 0 fills 6 of them
LEFT_HISTOGRAM = {"k": histogram([(0.0, 0.0, 1)] * 6 + [(1.0, 20.0, 20), (21.0, 30.0, 10), (31.0, 40.0, 10),
                                                        (41.0, 50.0, 10)], 100.0, 40)}  # fmt: skip


def auto_tables(left: list[tuple[object, ...]], right: list[tuple[object, ...]],
                left_stats: dict[str, dict[str, str]] | None = None) -> dict[str, Table]:  # fmt: skip
    return {
        "skewjoin_it.spread_left": Table([("id", "bigint"), ("k", "int")], rows=left, splits=4,
                                         column_stats=left_stats or {}),  # fmt: skip
        "skewjoin_it.spread_right": Table([("k", "int"), ("label", "string")], rows=right, splits=1),
    }


def auto_tables_sized(left_stats: dict[str, dict[str, str]] | None = None) -> dict[str, Table]:
    """auto_tables(LEFT, RIGHT) with file sizes (1,000 bytes a row), for AQE's forecast (and the left side's
    column statistics, if given)."""
    out = auto_tables(LEFT, RIGHT, left_stats=left_stats)
    out["skewjoin_it.spread_left"].file_bytes = 1000 * len(LEFT)
    out["skewjoin_it.spread_right"].file_bytes = 1000 * len(RIGHT)
    return out


def auto_tables_bytes(left_bytes: int, right_bytes: int) -> dict[str, Table]:
    """auto_tables(LEFT, RIGHT) with the given file sizes, for the sampling above sample_above_bytes."""
    out = auto_tables(LEFT, RIGHT)
    out["skewjoin_it.spread_left"].file_bytes = left_bytes
    out["skewjoin_it.spread_right"].file_bytes = right_bytes
    return out


def auto_tables_recount() -> dict[str, Table]:
    """auto_tables(LEFT, RIGHT_TWOS), both sides above the test's sampling size, b the smaller."""
    out = auto_tables(LEFT, RIGHT_TWOS)
    out["skewjoin_it.spread_left"].file_bytes = 1000000
    out["skewjoin_it.spread_right"].file_bytes = 40000
    return out


# a read first (the smaller): keys 100-121 twice each, key 2 once, keys 1000-1199 once (245 rows; its sketch lists
# 22 keys of 2 rows, not key 2); b: keys 1 and 2, 300 rows each, tied. a's rows of key 2 are at most 2 (the
# bound), so they are not counted; the tie is broken by the keys' values, as with the exact counts
LEFT_TIE = [(i, 100 + i // 2) for i in range(44)] + [(44, 2)] + [(100 + i, 1000 + i) for i in range(200)]
RIGHT_TIE = [(1, f"one{i}") for i in range(300)] + [(2, f"two{i}") for i in range(300)]


def auto_tables_tie() -> dict[str, Table]:
    out = auto_tables(LEFT_TIE, RIGHT_TIE)
    out["skewjoin_it.spread_left"].file_bytes = 40000
    out["skewjoin_it.spread_right"].file_bytes = 1000000
    return out


# a: 2,000 rows, keys 0 and 1 on 500 each, keys 100-265 on 6 each (0.3%); b: 5 rows, keys 0 and 1 twice, key 5
# once. b's sketch is exact (5 rows, under the 1,536 keys it holds): a key it did not list has none of its rows,
# not "at most 1" (20% of b), which made each of a's 0.3% keys a hot key
LEFT_TINY_OTHER = ([(i, 0) for i in range(500)] + [(500 + i, 1) for i in range(500)]
                   + [(1000 + i, 100 + i // 6) for i in range(1000)])  # fmt: skip
RIGHT_TINY = [(0, "zero"), (0, "zero2"), (1, "one"), (1, "one2"), (5, "five")]


def auto_tables_tiny_other() -> dict[str, Table]:
    out = auto_tables(LEFT_TINY_OTHER, RIGHT_TINY)
    out["skewjoin_it.spread_left"].file_bytes = 1000000
    out["skewjoin_it.spread_right"].file_bytes = 40000
    return out


# sampling above a size (detection_sample.sql) at the test's kilobytes: sides above 10,000 bytes sampled, 300 rows drawn
SAMPLE_SMALL = {"skewjoin_sample_above_bytes": 10000}
# a Spark before 4.1, without approx_top_k: the sides above the size are sampled (detection_sample.sql)
NO_SKETCH = {"fake.functions": ""}


# a declared plan of the same join (its specification in the model's config)
AQE_JOIN = AUTO_JOIN

# AQE's skew thresholds scaled down to the test's kilobytes
AQE_SMALL = {"spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes": "1k",
             "spark.sql.adaptive.advisoryPartitionSizeInBytes": "1k"}  # fmt: skip


# -- verification of declared groups and hot keys ------------------------------------------

# the package's default (the integration project turns it off for its small inputs)
VERIFY_DEFAULT: dict[str, object] = {"skewjoin_verify": None}
VERIFY_QUERY = r"select\s+count\(\*\) as sj_rows,.*\) as sj_verify"
HOT_QUERY = r"select\s+count\(\*\) as sj_rows,\s+count\(distinct sj_split\) as sj_splits,.*"
G8 = "{'groups': [{'when': 'a.k_int = 0', 'slots': 8}]}"
G4 = "{'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}"


def vjoin(skew: str) -> str:
    return SKEW + f"on=['k_int'], columns=['a.id', 'b.rid'], skew={skew}) }}}}"


def counted(rows: int, *groups: int, splits: int = 1) -> Callable[[Renderer], None]:
    """Answer every verification query with `rows` rows, the given group counts and `splits` input splits."""

    def setup(r: Renderer) -> None:
        names = ("sj_rows", *(f"sj_group_{i + 1}" for i in range(len(groups))), "sj_splits")
        r.spark.answer(VERIFY_QUERY, Result(names, [(rows, *groups, splits)]))

    return setup


def hot_counted(rows: int, splits: int, *keys: int) -> Callable[[Renderer], None]:
    def setup(r: Renderer) -> None:
        names = ("sj_rows", "sj_splits", *(f"sj_hot_{i + 1}" for i in range(len(keys))))
        r.spark.answer(HOT_QUERY, Result(names, [(rows, splits, *keys)]))

    return setup


def splits_answered(n: int) -> Callable[[Renderer], None]:
    def setup(r: Renderer) -> None:
        r.spark.answer(r"select count\(distinct sj_split\) as sj_splits.*", Result(("sj_splits",), [(n,)]))

    return setup


def both(*setups: Callable[[Renderer], None]) -> Callable[[Renderer], None]:
    def setup(r: Renderer) -> None:
        for one in setups:
            one(r)

    return setup


def side_counts(r: Renderer) -> None:
    """a's group 1 holds 1 of 1,000 rows, b's group 2 400 of 1,000."""

    def answer(m: object) -> Result:
        if "from skewjoin_it.typed_left as a" in m.group(0):  # type: ignore[attr-defined]
            return Result(("sj_rows", "sj_group_1", "sj_splits"), [(1000, 1, 1)])
        return Result(("sj_rows", "sj_group_2", "sj_splits"), [(1000, 400, 1)])

    r.spark.answer(VERIFY_QUERY, answer)


LEFT_CALL = SKEW + "on=['k_int'], join_type='left', skew=%s) }}"
STORES = "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id']}"
NO_QUERIES = {"skewjoin_run_queries": False}
CACHE_CALL = f"select 1 where {{{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{DATES_FEB}], cache=true) }}}}"
CACHE_KEY_QUERY = r"with\s+sj_groups_0 as .*"


def no_cache_table(r: Renderer) -> None:
    r.spark.answer(r"show tables in skewjoin_it like 'skewjoin_prune_cache'", Result(("a", "b", "c"), []))


def cache_with(r: Renderer, present: list[str]) -> None:
    """The cache table exists and holds these key sets (answers ahead of any earlier ones)."""
    r.spark.canned[:0] = [
        (re.compile(r"show tables in skewjoin_it like 'skewjoin_prune_cache'", re.S),
         Result(("a", "b", "c"), [("skewjoin_it", "skewjoin_prune_cache", False)])),
        (re.compile(r"select distinct sj_key_set\s+from skewjoin_it\.skewjoin_prune_cache.*", re.S),
         Result(("sj_key_set",), [(i,) for i in present])),
    ]  # fmt: skip


def feb_key_set(r: Renderer) -> dict[str, object]:
    return r.macros["_sj_prune_key_set"]("skewjoin_it.prune_dates", "sj_small", "year = 2026 and month = 2",  # type: ignore[no-any-return]
                                         [{"name": "date_key", "type": "date"}])  # fmt: skip


def cache_holds_feb_dates(r: Renderer) -> None:
    """The cache holds the key set of February's dates: 2 keys, 3 NULL keys stored."""
    cache_with(r, [str(feb_key_set(r)["id"])])
    rows = [("stat", "distinct_0", "v:2"), ("stat", "nulls_0", "v:0"), ("stat", "stored_nulls_0", "v:3"),
            ("stat", "kept", "v:2"), ("min", None, "v:2026-02-01"), ("max", None, "v:2026-02-02"),
            ("key", None, "v:2026-02-01"), ("key", None, "v:2026-02-02")]  # fmt: skip
    r.spark.answer(CACHE_KEY_QUERY, Result(("sj_kind", "sj_name", "sj_v0"), rows))


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
    # -- test_skew_auto.py
    ModelCase("auto_hot_keys_and_null_bypass", (), AUTO_JOIN, extra_tables=auto_tables(LEFT, RIGHT), config={"skew_join": "auto"}),
    ModelCase("auto_group_over_broadcast_budget", (), AUTO_JOIN, extra_tables=auto_tables(LEFT, RIGHT_ZERO),
              config={"skew_join": {"auto": {"max_broadcast_rows": 100, "total_slots": 20}}}),
    # an inner join in AQE's own regime (its thresholds within 5x the join's mean partition): left to AQE
    # before anything is counted
    ModelCase("auto_aqe_hands_back", (), AUTO_JOIN, extra_tables=auto_tables_sized(), conf=AQE_SMALL,
              config={"skew_join": "auto"}),
    # a skew factor of 8 lets AQE leave a partition of 8x the side's mean whole: 'auto' counts, and the forecast
    # after the counts hands the join back, since AQE will split every planned key's partition as finely
    ModelCase("auto_aqe_hands_back_after_counting", (), AUTO_JOIN, extra_tables=auto_tables_sized(),
              conf={**AQE_SMALL, "spark.sql.adaptive.skewJoin.skewedPartitionFactor": "8"},
              config={"skew_join": "auto"}),
    ModelCase("auto_aqe_above_2000_partitions", (), AUTO_JOIN, extra_tables=auto_tables_sized(),
              conf={**AQE_SMALL, "spark.sql.shuffle.partitions": "2400"}, config={"skew_join": "auto"}),
    ModelCase("auto_aqe_inside_a_larger_query", (), "select k, count(*) as n from (" + AUTO_JOIN + ") as j group by k",
              extra_tables=auto_tables_sized(), conf=AQE_SMALL, config={"skew_join": "auto"}),
    ModelCase("auto_aqe_off", (), AUTO_JOIN, extra_tables=auto_tables_sized(),
              conf={**AQE_SMALL, "spark.sql.adaptive.enabled": "false"}, config={"skew_join": "auto"}),
    ModelCase("auto_group_identical_rows", (), AUTO_JOIN, extra_tables=auto_tables(LEFT_IDENTICAL, RIGHT_ZERO),
              config={"skew_join": {"auto": {"max_broadcast_rows": 100, "total_slots": 20}}}),
    ModelCase("auto_multicast_budget_5_slots", (), AUTO_JOIN, extra_tables=auto_tables(LEFT, RIGHT_ZERO),
              config={"skew_join": {"auto": {"max_broadcast_rows": 100, "max_multicast_rows": 1000, "total_slots": 20}}}),
    ModelCase("auto_multicast_budget_under_two_copies", (), AUTO_JOIN, extra_tables=auto_tables(LEFT, RIGHT_ZERO),
              config={"skew_join": {"auto": {"max_broadcast_rows": 100, "max_multicast_rows": 300, "total_slots": 20}}}),
    ModelCase("auto_no_heavy_key", (), AUTO_JOIN, extra_tables=auto_tables(UNIFORM_LEFT, UNIFORM_RIGHT),
              config={"skew_join": "auto"}),
    ModelCase("auto_no_heavy_key_plain", (), AUTO_JOIN, extra_tables=auto_tables(UNIFORM_LEFT, UNIFORM_RIGHT)),
    ModelCase("auto_right_join_null_supplying", (), AUTO_JOIN.replace("'inner'", "'right'"),
              extra_tables=auto_tables(LEFT, RIGHT_ZERO),
              config={"skew_join": {"auto": {"max_broadcast_rows": 100, "total_slots": 20}}}),
    ModelCase("auto_sampled", (), AUTO_JOIN, extra_tables=auto_tables(LEFT, RIGHT),
              config={"skew_join": {"auto": {"sample_fraction": 0.25}}}),
    # above sample_above_bytes, on a Spark with approx_top_k: a estimated at 32,000 bytes (1,000 rows at the
    # assumed 32 bytes a row) is sketched in one read; b (360 rows) would draw most of its rows, so it is counted
    # whole, first; a's read counts b's heavy key exactly, and one more query counts a's heavy key on b
    ModelCase("auto_sketched_above_bytes", (), AUTO_JOIN, extra_tables=auto_tables_bytes(32000, 11520),
              vars=SAMPLE_SMALL, config={"skew_join": {"auto": {"sample_rows": 300}}}),
    # both sides sketched: b, the smaller, first; a's read counts b's heavy key, a second read of b counts a's
    ModelCase("auto_sketched_both_sides", (), AUTO_JOIN, extra_tables=auto_tables_bytes(1000000, 40000),
              vars=SAMPLE_SMALL, config={"skew_join": {"auto": {"sample_rows": 300}}}),
    # ... and where b's sketch does not list a's heavy key 0 (its 22 items cut at max_keys + 2, the last
    # with 2 rows): b holds at most 2 rows of it, which fits the broadcast budget beside a's 8 rows of b's
    # key 5, so the plan is the same whatever the exact count: not counted, the record says "at most"
    ModelCase("auto_sketched_bound_decides", (), AUTO_JOIN, extra_tables=auto_tables_recount(),
              vars=SAMPLE_SMALL, config={"skew_join": {"auto": {"sample_rows": 300}}}),
    # two keys of b tied at 300 rows, a read first and its rows of them bounded: the keys in the order of their
    # values (max_keys 1: key 1, whichever path counted them)
    ModelCase("auto_sketched_bound_tie", (), AUTO_JOIN, extra_tables=auto_tables_tie(),
              vars=SAMPLE_SMALL, config={"skew_join": {"auto": {"sample_rows": 300, "max_keys": 1}}}),
    # ... and counted (a broadcast budget of 3 rows, under the bounds' 4): the same key 1
    ModelCase("auto_sketched_bound_tie_recounted", (), AUTO_JOIN, extra_tables=auto_tables_tie(), vars=SAMPLE_SMALL,
              config={"skew_join": {"auto": {"sample_rows": 300, "max_keys": 1, "max_broadcast_rows": 3}}}),
    # ... and with a broadcast budget of 9 rows, which the bound (8 + 2) would exceed and the exact
    # counts (8 + 1) fit: one more query counts key 0 on b, exactly, and both keys are hot keys
    # a side of 5 rows, read with an exact sketch: only a's two heavy keys are hot keys (a right join)
    ModelCase("auto_sketched_exact_tiny_side", (), AUTO_JOIN.replace("'inner'", "'right'"),
              extra_tables=auto_tables_tiny_other(), vars=SAMPLE_SMALL, config={"skew_join": "auto"}),
    ModelCase("auto_sketched_recount", (), AUTO_JOIN, extra_tables=auto_tables_recount(),
              vars=SAMPLE_SMALL, config={"skew_join": {"auto": {"sample_rows": 300, "max_broadcast_rows": 9}}}),
    # var('skewjoin_sketch') false: sampled as on a Spark without approx_top_k
    ModelCase("auto_sketch_off", (), AUTO_JOIN, extra_tables=auto_tables_bytes(32000, 11520),
              vars={**SAMPLE_SMALL, "skewjoin_sketch": False}, config={"skew_join": {"auto": {"sample_rows": 300}}}),
    # ... and the option: sketch false in 'auto', over the var
    ModelCase("auto_sketch_option_off", (), AUTO_JOIN, extra_tables=auto_tables_bytes(32000, 11520),
              vars=SAMPLE_SMALL, config={"skew_join": {"auto": {"sample_rows": 300, "sketch": False}}}),
    # above sample_above_bytes on a Spark without approx_top_k (before 4.1): a estimated at 32,000 bytes is
    # sampled (300 of 1,000 rows), then its candidates counted exactly; b (360 rows) would draw most of its rows,
    # so it is counted whole
    ModelCase("auto_sampled_above_bytes", (), AUTO_JOIN, extra_tables=auto_tables_bytes(32000, 11520),
              vars=SAMPLE_SMALL, config={"skew_join": {"auto": {"sample_rows": 300}}}, conf=NO_SKETCH),
    # both sides sampled; a's size estimate is 31 times its rows' bytes, so its first draw is too small and it
    # draws again with the fraction its exact row count gives; each side's exact pass counts both sides' candidates
    ModelCase("auto_sampled_both_sides_drawn_twice", (), AUTO_JOIN, extra_tables=auto_tables_bytes(1000000, 40000),
              vars=SAMPLE_SMALL, config={"skew_join": {"auto": {"sample_rows": 300}}}, conf=NO_SKETCH),
    # sample_above_bytes false: every key counted, whatever the size
    ModelCase("auto_sample_above_bytes_false", (), AUTO_JOIN, extra_tables=auto_tables_bytes(1000000, 40000),
              vars=SAMPLE_SMALL, config={"skew_join": {"auto": {"sample_rows": 300, "sample_above_bytes": False}}}),
    # hot_keys 'auto' above the size: one read with the sketch; a's NULL keys (4%) are listed like any value
    ModelCase("hk_auto_sketched_above_bytes", (), AUTO_JOIN.replace("join_type='inner'", "join_type='inner', "
              "skew={'hot_keys': {'a': 'auto'}, 'hot_keys_options': {'sample_rows': 300}}"),
              extra_tables=auto_tables_bytes(32000, 11520), vars=SAMPLE_SMALL),
    # ... and without approx_top_k: the same two passes as 'auto'
    ModelCase("hk_auto_sampled_above_bytes", (), AUTO_JOIN.replace("join_type='inner'", "join_type='inner', "
              "skew={'hot_keys': {'a': 'auto'}, 'hot_keys_options': {'sample_rows': 300}}"),
              extra_tables=auto_tables_bytes(32000, 11520), vars=SAMPLE_SMALL, conf=NO_SKETCH),
    # hot_keys 'auto' over an explicit sample_fraction (a tablesample, no exact count after it): key 0 (60%) and the
    # NULL keys (4%) hold min_share 0.006 by the sample's 95% margin; the keys of 7-8 rows (0.7-0.8%) do not
    ModelCase("hk_auto_sample_fraction_margin", (), AUTO_JOIN.replace("join_type='inner'", "join_type='inner', "
              "skew={'hot_keys': {'a': 'auto'}, 'hot_keys_options': {'sample_fraction': 0.5, 'sketch': false, "
              "'min_share': 0.006}}"), extra_tables=auto_tables(LEFT, RIGHT)),
    # hot_keys 'auto' on both sides of a full join: a's key 0 (600 rows), b's key 5 (301 rows, within
    # max_broadcast_rows): b's key joins a's branch, each side is read twice
    ModelCase("hk_auto_both_sides_one_branch", (), AUTO_JOIN.replace("join_type='inner'", "join_type='full', "
              "skew={'hot_keys': {'a': 'auto', 'b': 'auto'}}"), extra_tables=auto_tables(LEFT, RIGHT)),
    # ... b's 301 rows over max_broadcast_rows 300: a branch each
    ModelCase("hk_auto_both_sides_over_budget", (), AUTO_JOIN.replace("join_type='inner'", "join_type='full', "
              "skew={'hot_keys': {'a': 'auto', 'b': 'auto'}, 'hot_keys_options': {'max_broadcast_rows': 300}}"),
              extra_tables=auto_tables(LEFT, RIGHT)),
    # ... a left semi join: b's key joins a's branch, whose hot rows stream
    ModelCase("hk_auto_both_sides_semi", (), AUTO_JOIN.replace("join_type='inner'", "join_type='left semi', "
              "skew={'hot_keys': {'a': 'auto', 'b': 'auto'}}"), extra_tables=auto_tables(LEFT, RIGHT)),
    # hot_keys 'auto' as the whole specification, in AQE's regime: left to AQE, nothing detected
    ModelCase("hk_auto_aqe_regime", (), AUTO_JOIN.replace("join_type='inner'", "join_type='inner', "
              "skew={'hot_keys': {'a': 'auto'}}"), extra_tables=auto_tables_sized(), conf=AQE_SMALL),
    ModelCase("auto_no_run_time_queries", (), AUTO_JOIN, extra_tables=auto_tables(LEFT, RIGHT),
              config={"skew_join": "auto"}, vars={"skewjoin_run_queries": False}),
    ModelCase("auto_declined", (), AUTO_JOIN, extra_tables=auto_tables(LEFT, RIGHT), config={"skew_join": "auto"},
              vars={"skewjoin_min_parallelism": 4}, conf={"spark.master": "local[2]", "spark.default.parallelism": "2"}),
    # a side estimated from its histogram has no input-split count: the AQE forecast keeps the plan and says why
    # (it compared None with the pieces before, once the join was known to be the whole model)
    ModelCase("auto_histogram_aqe_forecast", (), AUTO_JOIN,
              extra_tables=auto_tables_sized(LEFT_HISTOGRAM), config={"skew_join": "auto"}),
    ModelCase("auto_histogram", (), AUTO_JOIN, extra_tables=auto_tables(LEFT, RIGHT, left_stats=LEFT_HISTOGRAM),
              config={"skew_join": "auto"}),
    ModelCase("auto_histogram_statistics_false", (), AUTO_JOIN, extra_tables=auto_tables(LEFT, RIGHT, left_stats=LEFT_HISTOGRAM),
              config={"skew_join": {"auto": {"statistics": False}}}),
    # -- test_verify.py: skew groups
    ModelCase("verify_group_dropped", TYPED, vjoin(G8), vars=VERIFY_DEFAULT, setup=counted(1_000_000, 12)),
    ModelCase("verify_group_kept", TYPED, vjoin(G8), vars=VERIFY_DEFAULT, setup=counted(1000, 700)),
    ModelCase("verify_off_group_as_declared", TYPED, vjoin(G8)),
    ModelCase("verify_share_49_of_1000", TYPED, vjoin(G4), vars=VERIFY_DEFAULT, setup=counted(1000, 49)),
    ModelCase("verify_share_50_of_1000", TYPED, vjoin(G4), vars=VERIFY_DEFAULT, setup=counted(1000, 50)),
    ModelCase("verify_share_from_spec", TYPED, vjoin("{'verify': 0.1, " + G4[1:]), vars=VERIFY_DEFAULT, setup=counted(1000, 90)),
    ModelCase("verify_share_from_var", TYPED, vjoin(G4), vars={"skewjoin_verify": 0.05}, setup=counted(1000, 90)),
    ModelCase("verify_groups_laid_out_again", TYPED,
              vjoin("{'groups': [{'when': 'a.k_int = 0', 'slots': 4}, {'when': 'b.k_int = 5', 'slots': 6}]}"),
              vars=VERIFY_DEFAULT, setup=side_counts),
    ModelCase("verify_empty_driver", TYPED, vjoin(G4), vars=VERIFY_DEFAULT, setup=counted(0, 0)),
    ModelCase("verify_hot_keys_stay_groups_dropped", TYPED, vjoin("{'hot_keys': [7], " + G4[1:]), vars=VERIFY_DEFAULT,
              setup=both(counted(1000, 3), hot_counted(1000, 64, 700))),
    ModelCase("verify_off_var_false", TYPED, vjoin(G4), vars={"skewjoin_verify": False}),
    ModelCase("verify_off_spec_false", TYPED, vjoin("{'verify': false, " + G4[1:]), vars=VERIFY_DEFAULT),
    ModelCase("verify_off_queries_off", TYPED, vjoin(G4), vars={**VERIFY_DEFAULT, "skewjoin_run_queries": False}),
    ModelCase("verify_declined", TYPED, vjoin("{'hot_keys': [7], " + G4[1:]),
              vars={**VERIFY_DEFAULT, "skewjoin_min_parallelism": None}),
    ModelCase("verify_groups_after_hot_keys", TYPED, vjoin("{'hot_keys': [0], 'groups': [{'when': 'a.k_int in (0, 5)', 'slots': 4}]}"),
              vars=VERIFY_DEFAULT, setup=both(hot_counted(1000, 64, 700), counted(1000, 30))),
    ModelCase("verify_share_three_digits", TYPED, vjoin("{'total_slots': 8, 'groups': [{'when': 'a.k_int = 0', 'slots': 2}]}"),
              vars=VERIFY_DEFAULT, setup=counted(1000, 123)),
    ModelCase("verify_chain", CHAIN_TABLES,
              "{{ skewjoin.skew_join_chain(ref('typed_left'), [{'relation': ref('typed_right'), 'alias': 'b'}, "
              "{'relation': ref('spread_right'), 'alias': 'c', 'on': [['k_int', 'k']]}], on=['k_int'], "
              "columns=['a.id', 'b.rid', 'c.label'], skew={'groups': [{'when': 'a.k_int = 0', 'slots': 6}]}) }}",
              vars=VERIFY_DEFAULT, setup=counted(1000, 2)),
    ModelCase("verify_auto_groups_not_counted", (), "{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k']) }}",
              extra_tables=auto_tables([(i, 0) for i in range(600)] + [(700 + i, i % 50 + 1) for i in range(400)], RIGHT_ZERO),
              vars=VERIFY_DEFAULT, config={"skew_join": {"auto": {"max_broadcast_rows": 100, "total_slots": 20}}}),
    # -- test_verify.py: declared hot keys
    ModelCase("verify_hot_stale_dropped", TYPED, vjoin("{'hot_keys': [0, 1]}"), vars=VERIFY_DEFAULT,
              setup=hot_counted(1_000_000, 64, 9, 11)),
    ModelCase("verify_hot_kept", TYPED, vjoin("{'hot_keys': [0, 1]}"), vars=VERIFY_DEFAULT, setup=hot_counted(1000, 64, 700, 3)),
    ModelCase("verify_hot_multi_column", TYPED,
              SKEW + "on=['k_int', 'k_str'], columns=['a.id', 'b.rid'], skew={'hot_keys': [[0, \"it's\"]]}) }}",
              vars=VERIFY_DEFAULT, setup=hot_counted(1000, 64, 500)),
    ModelCase("verify_hot_off_var_false", TYPED, vjoin("{'hot_keys': [0, 1]}"), vars={"skewjoin_verify": False},
              conf={"spark.default.parallelism": "64"}, setup=splits_answered(64)),
    ModelCase("verify_hot_off_queries_off", TYPED, vjoin("{'hot_keys': [0, 1]}"),
              vars={**VERIFY_DEFAULT, "skewjoin_run_queries": False}, conf={"spark.default.parallelism": "64"},
              setup=splits_answered(64)),
    ModelCase("verify_auto_hot_keys_not_counted", (), "{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k']) }}",
              extra_tables=auto_tables([(i, 0) for i in range(600)] + [(700 + i, i % 50 + 1) for i in range(400)],
                                       [(k, f"k{k}") for k in range(60)]),
              vars=VERIFY_DEFAULT, config={"skew_join": "auto"}),
    # -- test_verify.py: AQE's forecast of a declared plan (a's key 0: 600 of its 1,000 rows, 1,000 bytes a row)
    ModelCase("verify_aqe_warns_hot_key", (), AQE_JOIN, extra_tables=auto_tables_sized(), conf=AQE_SMALL,
              vars=VERIFY_DEFAULT, config={"skew_join": {"hot_keys": {"a": [0]}}}, setup=hot_counted(1000, 4, 600)),
    ModelCase("verify_aqe_warns_group", (), AQE_JOIN, extra_tables=auto_tables_sized(), conf=AQE_SMALL,
              vars=VERIFY_DEFAULT, config={"skew_join": {"groups": [{"when": "a.k = 0", "slots": 4}]}},
              setup=counted(960, 600, splits=4)),
    ModelCase("verify_aqe_group_outspreads_aqe", (), AQE_JOIN, extra_tables=auto_tables_sized(), conf=AQE_SMALL,
              vars=VERIFY_DEFAULT, config={"skew_join": {"groups": [{"when": "a.k = 0", "slots": 8}]}},
              setup=counted(960, 600, splits=4)),
    ModelCase("verify_aqe_defaults_no_warning", (), AQE_JOIN, extra_tables=auto_tables_sized(),
              vars=VERIFY_DEFAULT, config={"skew_join": {"hot_keys": {"a": [0]}}}, setup=hot_counted(1000, 4, 600)),
    ModelCase("verify_aqe_group_of_two_keys", (), AQE_JOIN, extra_tables=auto_tables_sized(), conf=AQE_SMALL,
              vars=VERIFY_DEFAULT, config={"skew_join": {"groups": [{"when": "a.k in (0, 7)", "slots": 4}]}},
              setup=counted(960, 610, splits=4)),
    ModelCase("verify_aqe_keys_group_one_task", (), AQE_JOIN, extra_tables=auto_tables_sized(), conf=AQE_SMALL,
              vars=VERIFY_DEFAULT, config={"skew_join": {"groups": [{"when": "a.k = 0", "slots": 4, "distribute": "keys"}]}},
              setup=counted(960, 600, splits=4)),
    ModelCase("verify_aqe_hot_key_spread", (), AQE_JOIN, extra_tables=auto_tables_sized(),
              conf={**AQE_SMALL, "spark.default.parallelism": "64"}, vars=VERIFY_DEFAULT,
              config={"skew_join": {"hot_keys": {"a": [0]}}}, setup=hot_counted(1000, 4, 600)),
    ModelCase("verify_aqe_off", (), AQE_JOIN, extra_tables=auto_tables_sized(),
              conf={**AQE_SMALL, "spark.sql.adaptive.enabled": "false"}, vars=VERIFY_DEFAULT,
              config={"skew_join": {"hot_keys": {"a": [0]}}}, setup=hot_counted(1000, 4, 600)),
    ModelCase("verify_aqe_left_join_b_hot", (), AQE_JOIN.replace("'inner'", "'left'"), extra_tables=auto_tables_sized(),
              conf=AQE_SMALL, vars=VERIFY_DEFAULT, config={"skew_join": {"hot_keys": {"b": [5]}}},
              setup=hot_counted(360, 1, 301)),
    # -- test_skew_join_usability.py
    ModelCase("use_group_all_keys_hot", TYPED, LEFT_CALL % "{'hot_keys': {'a': [0, 1]}, 'groups': [{'when': 'a.k_int in (0, 1)', 'slots': 4}]}"),
    ModelCase("use_group_some_keys_hot", TYPED, LEFT_CALL % "{'hot_keys': {'a': [0]}, 'groups': [{'when': 'a.k_int in (0, 7)', 'slots': 4}]}"),
    ModelCase("use_group_apart_from_hot_keys", TYPED,
              LEFT_CALL % "{'hot_keys': {'a': [0]}, 'groups': [{'when': 'a.k_int between 1 and 99', 'slots': 4}]}"),
    ModelCase("use_group_copies", TYPED, LEFT_CALL % "{'groups': [{'when': 'a.k_int = 0', 'slots': 5}]}"),
    ModelCase("use_no_queries_auto", TYPED, LEFT_CALL % "{'hot_keys': {'a': 'auto', 'b': 'auto'}}", vars={"skewjoin_run_queries": False}),
    ModelCase("use_no_queries_no_spread_probe", TYPED, LEFT_CALL % "{'hot_keys': {'a': [0]}}", vars={"skewjoin_run_queries": False}),
    ModelCase("use_keys_group_of_one_key", TYPED,
              LEFT_CALL.replace("join_type='left'", "join_type='full'") % "{'groups': [{'when': 'a.k_int = 0', 'slots': 4, 'distribute': 'keys'}]}"),
    ModelCase("use_keys_group_of_many_keys", TYPED,
              LEFT_CALL % "{'groups': [{'when': 'a.k_int in (0, 1, 2)', 'slots': 4, 'distribute': 'keys'}]}"),
    # -- test_star_prune_usability.py
    ModelCase("use_star_no_queries", ("star_sales", "star_stores", "star_dates"),
              "{{ skewjoin.star_join(ref('star_sales'), [" + STORES + ", {'relation': ref('star_dates'), 'alias': 'd', "
              "'on': [['sold_date', 'date_key']], 'broadcast': true, 'filter': 'year = 2026'}]) }}", vars=NO_QUERIES),
    ModelCase("use_prune_no_queries", ("prune_sales", "prune_dates"),
              "{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{'relation': ref('prune_dates'), 'on': ['date_key'], "
              "'filter': 'year = 2026'}]) }}", vars=NO_QUERIES),
    ModelCase("use_star_size_factor_default", ("star_sales", "star_stores"), "{{ skewjoin.star_join(ref('star_sales'), [" + STORES + "]) }}"),
    ModelCase("use_star_size_factor_5", ("star_sales", "star_stores"),
              "{{ skewjoin.star_join(ref('star_sales'), [" + STORES + "], size_factor=5) }}"),
    # -- test_prune_cache.py
    ModelCase("prune_cache_key_set_not_cached", ("prune_sales", "prune_dates"), CACHE_CALL, setup=no_cache_table),
    ModelCase("prune_cache_key_set_cached", ("prune_sales", "prune_dates"), CACHE_CALL, setup=cache_holds_feb_dates),
]  # fmt: skip

BY_ID: dict[str, ModelCase] = {c.id: c for c in CASES}
assert len(BY_ID) == len(CASES), "duplicate model case ids"


def render(case_id: str) -> Rendered:
    """Render the case ``case_id`` (a fresh fake Spark each call)."""
    return render_case(BY_ID[case_id])

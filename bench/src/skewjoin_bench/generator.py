"""The benchmark's data: Spark SQL statements over ``range()``, deterministic by seed.

Every random draw is a hash of (seed, row id, purpose) -- ``xxhash64`` --
turned into a uniform number in [0, 1), so the same parameters give the same
tables on any Spark (a local session or a cluster behind a Thrift server),
whatever the number of tasks. The statements are plain SQL, so the generator
runs unchanged through PySpark (``spark.sql``) and through PyHive.

Tables (Parquet, in the schema ``DatasetSpec.schema``):

- ``bench_dim``: the dimension. Every key ``0 .. distinct_keys - 1`` has
  ``dim_rows_per_key`` rows, except the hot keys, which have ``hot_fanout``
  rows: each fact row of a hot key matches that many dimension rows, so the
  hot key's share of the join's *output* is larger still.
- ``bench_fact_skewed``: ``rows`` fact rows. A row is a hot row with
  probability ``hot_share`` (spread evenly over the ``hot_keys`` keys
  ``0 .. hot_keys - 1``); the others follow a Zipf-like law over the other
  keys: key ``hot_keys + r - 1`` for rank ``r``, with density proportional to
  ``r ** -zipf_exponent`` (the continuous bounded power law, inverted; with
  exponent 0 every key is equally likely).
- ``bench_fact_ident``: the skewed fact's keys with a constant column
  (``k``, ``one``): every row of a key is the same row (scenario h).
- ``bench_fact_uniform``: the same rows with every key equally likely (no
  skew): the control case.
- ``bench_fact_aggregated``, only when ``aggregated_rows`` is set: scenario
  d's fact, drawn as ``bench_fact_skewed`` with ``aggregated_rows`` rows (its
  first ``rows`` rows are ``bench_fact_skewed``'s). d's straggler does the
  least work of the skew scenarios (its aggregate folds the hot key's joined
  rows in the join's own task), so the large size gives it more rows.
- ``bench_star_sales`` and five dimensions (:func:`star_statements`), for
  the star case.
- ``bench_days`` and ``bench_sales_by_day``: a fact partitioned by
  ``day_key`` (``days`` partitions) and its date dimension, for the pruning
  case (``day_type`` is ``'holiday'`` every ``holiday_every``-th day).

Fact tables are written as ``fact_files`` files (``range(..., numPartitions)``,
no shuffle), so a scan has that many input splits.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

logger = logging.getLogger(__name__)

#: 2**53: uniform doubles in [0, 1) from the low 53 bits of a 64-bit hash.
_TWO_53 = 9007199254740992


@dataclass(frozen=True)
class DatasetSpec:
    """Parameters of the generated data (all tables)."""

    rows: int = 1_000_000
    #: scenario d's fact rows, when they differ from ``rows`` (its own table, bench_fact_aggregated)
    aggregated_rows: int | None = None
    distinct_keys: int = 100_000
    hot_keys: int = 1
    hot_share: float = 0.7
    zipf_exponent: float = 1.0
    hot_fanout: int = 4
    dim_rows_per_key: int = 1
    #: scenario c (both sides hot on the same key): the dimension rows of each hot key
    wide_fanout: int = 20
    #: scenario b (full outer join, hot keys on both sides): rows of the dimension's own hot key,
    #: the last key (the fact's rarest); 0 = distinct_keys // 50
    dim_hot_rows: int = 0
    fact_files: int = 64
    dim_files: int = 8
    seed: int = 42
    schema: str = "skewjoin_bench"
    #: pruning case
    pruning_rows: int = 1_000_000
    days: int = 90
    holiday_every: int = 15
    #: star case: a fact and five dimensions, three of them each under Spark's
    #: 10 MB broadcast threshold but over 10 MiB together, one far above it
    star_rows: int = 1_000_000
    star_days: int = 3650
    star_stores: int = 2_000
    star_promos: int = 150_000
    star_products: int = 320_000
    star_customers: int = 600_000

    def __post_init__(self) -> None:
        problems = []
        if self.rows < 1:
            problems.append(f"rows must be >= 1, got {self.rows}")
        if self.aggregated_rows is not None and self.aggregated_rows < 1:
            problems.append(f"aggregated_rows must be >= 1, got {self.aggregated_rows}")
        if self.hot_keys < 0:
            problems.append(f"hot_keys must be >= 0, got {self.hot_keys}")
        if self.distinct_keys <= self.hot_keys:
            problems.append(f"distinct_keys ({self.distinct_keys}) must exceed hot_keys ({self.hot_keys})")
        if not 0 <= self.hot_share < 1:
            problems.append(f"hot_share must be in [0, 1), got {self.hot_share}")
        if self.hot_keys == 0 and self.hot_share > 0:
            problems.append("hot_share > 0 needs hot_keys >= 1")
        if self.zipf_exponent < 0:
            problems.append(f"zipf_exponent must be >= 0, got {self.zipf_exponent}")
        if self.hot_fanout < 1 or self.dim_rows_per_key < 1 or self.wide_fanout < 1:
            problems.append("hot_fanout, wide_fanout and dim_rows_per_key must be >= 1")
        if self.dim_hot_rows < 0:
            problems.append(f"dim_hot_rows must be >= 0, got {self.dim_hot_rows}")
        if self.fact_files < 1 or self.dim_files < 1:
            problems.append("fact_files and dim_files must be >= 1")
        if self.days < 1 or self.holiday_every < 1 or self.pruning_rows < 1:
            problems.append("days, holiday_every and pruning_rows must be >= 1")
        star = (
            self.star_rows,
            self.star_days,
            self.star_stores,
            self.star_promos,
            self.star_products,
            self.star_customers,
        )
        if min(star) < 1:
            problems.append("star_rows and the star dimensions' rows must be >= 1")
        if not self.schema.replace("_", "").isalnum():
            problems.append(f"schema must be a plain identifier, got {self.schema!r}")
        if problems:
            raise ValueError("; ".join(problems))

    @property
    def dim_hot_key(self) -> int:
        """The key the dimension of the full outer join is hot on (the fact's rarest key)."""
        return self.distinct_keys - 1

    @property
    def dim_hot_rows_effective(self) -> int:
        return self.dim_hot_rows or max(self.distinct_keys // 50, 2)

    @property
    def aggregated_has_own_fact(self) -> bool:
        """Whether scenario d reads a fact of its own: ``aggregated_rows`` differs from ``rows``."""
        return self.aggregated_rows is not None and self.aggregated_rows != self.rows

    @property
    def aggregated_fact(self) -> str:
        """Scenario d's fact table."""
        return "bench_fact_aggregated" if self.aggregated_has_own_fact else "bench_fact_skewed"

    def fact_rows(self, table: str) -> int:
        """The rows of a generated fact table (``bench_fact_aggregated`` or the others)."""
        return (self.aggregated_rows or self.rows) if table == "bench_fact_aggregated" else self.rows

    def table(self, name: str) -> str:
        return f"{self.schema}.{name}"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _uniform(seed: int, purpose: str, id_expr: str = "id") -> str:
    """A uniform double in [0, 1), a deterministic function of (seed, row id, purpose)."""
    return f"cast(xxhash64({int(seed)}, {id_expr}, '{purpose}') & {_TWO_53 - 1} as double) / {_TWO_53}D"


def _float(value: float) -> str:
    """A double literal (Spark reads 0.7 as a decimal; 0.7D is a double)."""
    return f"{float(value)!r}D"


def zipf_key_sql(spec: DatasetSpec, u: str) -> str:
    """The key of a fact row whose uniform draw is the expression *u* (skewed table)."""
    h, n_hot = spec.hot_share, spec.hot_keys
    tail = spec.distinct_keys - n_hot  # keys n_hot .. distinct_keys - 1, ranks 1 .. tail
    s = spec.zipf_exponent
    v = f"(({u} - {_float(h)}) / {_float(1 - h)})" if h > 0 else f"({u})"
    if s == 1.0:
        x = f"power({_float(tail + 1)}, {v})"
    else:
        a = 1.0 - s
        x = f"power(1D + {v} * (power({_float(tail + 1)}, {_float(a)}) - 1D), {_float(1 / a)})"
    # floor(x) is the rank in 1 .. tail; least() guards the last ulp
    rank = f"least(cast(floor({x}) as bigint), {tail})"
    tail_key = f"{n_hot - 1} + {rank}"
    if h <= 0:
        return tail_key
    hot_key = f"least(cast(floor({u} / {_float(h)} * {n_hot}) as bigint), {n_hot - 1})"
    return f"case when {u} < {_float(h)} then {hot_key} else {tail_key} end"


def _fact_sql(spec: DatasetSpec, key_of_u: Callable[[str], str], rows: int | None = None) -> str:
    u = _uniform(spec.seed, "key")
    return f"""select
    d.fact_id,
    {key_of_u("d.u")} as k,
    cast(pmod(xxhash64({spec.seed}, d.fact_id, 'amount'), 1000000) as double) / 100D as amount,
    concat('t', cast(pmod(d.fact_id, 997) as string)) as tag
from (
    select id as fact_id, {u} as u
    from range(0, {rows or spec.rows}, 1, {spec.fact_files})
) as d"""


def star_statements(spec: DatasetSpec) -> list[tuple[str, str]]:
    """The star case: ``bench_star_sales`` and its dimensions (dates, stores, promos, products, customers).

    Every key of the fact is uniform over its dimension's ids; a third of the
    sales have no promotion (NULL ``promo_id``, joined left). The dimensions
    carry hashed text so their Parquet size grows with their rows (about 25
    bytes a product, a promotion or a customer).
    """
    seed = spec.seed

    def pick(purpose: str, n: int) -> str:
        return f"cast(floor({_uniform(seed, purpose, 's.sale_id')} * {n}) as bigint)"

    def text(purpose: str) -> str:
        return f"hex(xxhash64({seed}, d.id, '{purpose}'))"

    dims = {
        "bench_star_dates": f"""select
    cast(d.id as int) as date_key,
    cast(2000 + floor(d.id / 365) as int) as year,
    cast(1 + floor(pmod(d.id, 365) / 31) as int) as month
from range(0, {spec.star_days}, 1, 1) as d""",
        "bench_star_stores": f"""select
    d.id as store_id,
    concat('store ', cast(d.id as string)) as store_name,
    element_at(array('EU', 'NA', 'APAC', 'LATAM'), cast(pmod(d.id, 4) + 1 as int)) as region
from range(0, {spec.star_stores}, 1, 1) as d""",
        "bench_star_promos": f"""select
    d.id as promo_id,
    concat('promo ', cast(d.id as string)) as promo_name,
    cast(pmod(xxhash64({seed}, d.id, 'discount'), 50) as int) as discount_pct,
    {text("code")} as promo_code
from range(0, {spec.star_promos}, 1, 2) as d""",
        "bench_star_products": f"""select
    d.id as product_id,
    concat('product ', cast(d.id as string)) as product_name,
    element_at(array('food', 'toys', 'garden', 'books', 'tools'), cast(pmod(d.id, 5) + 1 as int)) as category,
    {text("brand")} as brand
from range(0, {spec.star_products}, 1, 2) as d""",
        "bench_star_customers": f"""select
    d.id as customer_id,
    concat('customer ', cast(d.id as string)) as customer_name,
    element_at(array('retail', 'b2b', 'vip'), cast(pmod(d.id, 3) + 1 as int)) as segment,
    {text("city")} as city
from range(0, {spec.star_customers}, 1, 2) as d""",
        "bench_star_sales": f"""select
    s.sale_id,
    cast({pick("date", spec.star_days)} as int) as date_key,
    {pick("store", spec.star_stores)} as store_id,
    {pick("product", spec.star_products)} as product_id,
    {pick("customer", spec.star_customers)} as customer_id,
    if({_uniform(seed, "has_promo", "s.sale_id")} < 0.33D, null, {pick("promo", spec.star_promos)}) as promo_id,
    cast(1 + pmod(xxhash64({seed}, s.sale_id, 'quantity'), 9) as int) as quantity,
    cast(pmod(xxhash64({seed}, s.sale_id, 'amount'), 100000) as double) / 100D as amount
from (select id as sale_id from range(0, {spec.star_rows}, 1, {spec.fact_files})) as s""",
    }
    out: list[tuple[str, str]] = []
    for name, body in dims.items():
        out.append((f"drop {name}", f"drop table if exists {spec.table(name)}"))
        out.append((name, f"create table {spec.table(name)} using parquet as\n{body}"))
    return out


def dim_sql(spec: DatasetSpec, rows_of_key: str) -> str:
    """A dimension over keys ``0 .. distinct_keys - 1``; *rows_of_key* is the SQL row count of key ``id``."""
    return f"""select
    g.k,
    g.dim_row,
    concat('attr-', cast(g.k as string), '-', cast(g.dim_row as string)) as attr,
    cast(pmod(xxhash64({spec.seed}, g.k, g.dim_row, 'weight'), 1000) as double) / 10D as weight
from (
    select
        id as k,
        explode(sequence(1, {rows_of_key})) as dim_row
    from range(0, {spec.distinct_keys}, 1, {spec.dim_files})
) as g"""


def statements(spec: DatasetSpec, *, pruning: bool = True, star: bool = True) -> list[tuple[str, str]]:
    """``(description, sql)`` pairs that (re)create every table of the benchmark."""
    dim = f"""select
    g.k,
    g.dim_row,
    concat('attr-', cast(g.k as string), '-', cast(g.dim_row as string)) as attr,
    cast(pmod(xxhash64({spec.seed}, g.k, g.dim_row, 'weight'), 1000) as double) / 10D as weight
from (
    select
        id as k,
        explode(sequence(1, if(id < {spec.hot_keys}, {spec.hot_fanout}, {spec.dim_rows_per_key}))) as dim_row
    from range(0, {spec.distinct_keys}, 1, {spec.dim_files})
) as g"""
    out: list[tuple[str, str]] = [
        ("schema", f"create database if not exists {spec.schema}"),
    ]

    def table(name: str, body: str, extra: str = "") -> None:
        out.append((f"drop {name}", f"drop table if exists {spec.table(name)}"))
        out.append((name, f"create table {spec.table(name)} using parquet{extra} as\n{body}"))

    table("bench_dim", dim)
    # scenario c: both sides hot on the same keys (each hot fact row matches wide_fanout rows)
    table("bench_dim_wide", dim_sql(spec, f"if(id < {spec.hot_keys}, {spec.wide_fanout}, {spec.dim_rows_per_key})"))
    # scenario b: the dimension hot on a key of its own (the fact's rarest), for the full outer join
    table(
        "bench_dim_hot",
        dim_sql(
            spec,
            f"case when id < {spec.hot_keys} then {spec.hot_fanout} when id = {spec.dim_hot_key} "
            f"then {spec.dim_hot_rows_effective} else {spec.dim_rows_per_key} end",
        ),
    )
    table("bench_fact_skewed", _fact_sql(spec, lambda u: zipf_key_sql(spec, u)))
    table("bench_fact_uniform", _fact_sql(spec, lambda u: f"cast(floor({u} * {spec.distinct_keys}) as bigint)"))
    # scenario h: the skewed fact projected to its key and a constant, so that the rows of a key are identical
    # (as a side that selects the key alone is); one file per file of the skewed fact
    table("bench_fact_ident", f"select k, 1 as one from {spec.table('bench_fact_skewed')}")
    if spec.aggregated_has_own_fact:
        rows = spec.fact_rows(spec.aggregated_fact)
        table(spec.aggregated_fact, _fact_sql(spec, lambda u: zipf_key_sql(spec, u), rows))
    if pruning:
        days = f"""select
    id as day_key,
    date_add(date'2026-01-01', cast(id - 1 as int)) as day,
    case
        when pmod(id, {spec.holiday_every}) = 0 then 'holiday'
        when pmod(id, 7) in (3, 4) then 'weekend'
        else 'workday'
    end as day_type
from range(1, {spec.days + 1}, 1, 1)"""
        sales = f"""select /*+ repartition({spec.days}, day_key) */
    s.sale_id,
    cast(floor({_uniform(spec.seed, "store", "s.sale_id")} * 1000) as bigint) as store_id,
    cast(pmod(xxhash64({spec.seed}, s.sale_id, 'amount'), 100000) as double) / 100D as amount,
    cast(1 + floor({_uniform(spec.seed, "day", "s.sale_id")} * {spec.days}) as bigint) as day_key
from (select id as sale_id from range(0, {spec.pruning_rows}, 1, {spec.fact_files})) as s"""
        table("bench_days", days)
        table("bench_sales_by_day", sales, " partitioned by (day_key)")
    if star:
        out.extend(star_statements(spec))
    return out


@dataclass
class KeyStats:
    """Measured key counts of one fact table."""

    rows: int
    top: list[tuple[int, int]] = field(default_factory=list)  # (key, rows), heaviest first

    def share(self, key: int) -> float:
        return next((n for k, n in self.top if k == key), 0) / self.rows if self.rows else 0.0

    def rows_of(self, keys: Sequence[int]) -> int:
        wanted = set(keys)
        return sum(n for k, n in self.top if k in wanted)

    def as_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "top": [[k, n, round(n / self.rows, 6) if self.rows else 0] for k, n in self.top]}


def key_stats_sql(table: str, limit: int = 20) -> str:
    """One query: the total row count and the *limit* heaviest keys (a key of NULL is never generated)."""
    return f"""select k, n, sum(n) over () as total
from (select k, count(*) as n from {table} group by k) as c
order by n desc, k
limit {int(limit)}"""


def parse_key_stats(rows: Sequence[Sequence[Any]]) -> KeyStats:
    if not rows:
        return KeyStats(rows=0)
    return KeyStats(rows=int(rows[0][2]), top=[(int(r[0]), int(r[1])) for r in rows])


def skewed_keys(stats: KeyStats, min_share: float) -> list[tuple[int, float]]:
    """``(key, share of the rows)`` of every measured key holding at least *min_share* of the rows.

    The same threshold as ``skewjoin profile --min-share``; heaviest first.
    """
    out = []
    for key, n in stats.top:
        share = n / stats.rows if stats.rows else 0.0
        if share >= min_share:
            out.append((key, share))
    return out

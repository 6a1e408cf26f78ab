"""Scenario g's inner join in two shapes, measured as the benchmark measures (docs/performance.md).

- ``union``: the hot-key plan skew_join renders: the fact's hot rows joined where they are read
  against the dimension's broadcast rows of those keys, the rest shuffled; the fact is read twice.
- ``routed``: the fact read once: its hot rows take a salt (a hash of the row, over the shuffle's
  partitions) into the one shuffle, never match the shuffled dimension (whose rows take 0, its hot
  keys' rows -1), and meet the dimension's broadcast hot rows after the shuffle join.

Both against the plain join, AQE on, 2400 shuffle partitions, the input in 64 splits, every result
checked against the plain join's (count and checksum). Usage (about 2 minutes at 4,000,000 rows):

    .venv/bin/python bench/prototypes/g_inner_one_read.py [ROWS] [REPETITIONS]
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from pyspark.sql import SparkSession

from skewjoin_bench.eventlog import EventLog
from skewjoin_bench.generator import DatasetSpec, statements

HOT = "(0, 1, 2)"  # the hot keys skew_join 'auto' plans in g
COLUMNS = "f.fact_id, f.k, f.amount, f.tag, d.dim_row, d.attr, d.weight"
CHECKSUM = (
    "select count(*) as n, coalesce(sum(hash(*)), 0) as h, coalesce(sum(xxhash64(*) >> 32), 0) as x "
    "from ({query}) as sj_q"
)


def plans(fact: str, dim: str, partitions: int) -> dict[str, str]:
    return {
        "plain": f"select {COLUMNS} from {fact} as f inner join {dim} as d on f.k = d.k",
        "union": f"""with f_hot as (select * from {fact} as f where f.k in {HOT}),
d_hot as (select * from {dim} as d where d.k in {HOT}),
hot as (select /*+ broadcast(d) */ {COLUMNS} from f_hot as f inner join d_hot as d on f.k = d.k),
f_rest as (select * from {fact} as f where f.k is not null and f.k not in {HOT}),
d_rest as (select * from {dim} as d where d.k is not null and d.k not in {HOT}),
rest as (select {COLUMNS} from f_rest as f inner join d_rest as d on f.k = d.k)
select * from hot union all select * from rest""",
        "routed": f"""with f_r as (
    select f.*, f.k in {HOT} as sj_hot,
        case when f.k in {HOT} then 1 + pmod(hash(f.fact_id, f.k, f.amount, f.tag), {partitions}) else 0 end
            as sj_salt
    from {fact} as f where f.k is not null),
d_r as (select d.*, case when d.k in {HOT} then -1 else 0 end as sj_salt from {dim} as d where d.k is not null),
d_hot as (select * from {dim} as d where d.k in {HOT}),
j as (
    select f.*, d.dim_row as r_dim_row, d.attr as r_attr, d.weight as r_weight, d.k is not null as sj_m
    from f_r as f left outer join d_r as d on f.k = d.k and f.sj_salt = d.sj_salt)
select /*+ broadcast(h) */ f.fact_id, f.k, f.amount, f.tag,
    if(f.sj_hot, h.dim_row, f.r_dim_row) as dim_row, if(f.sj_hot, h.attr, f.r_attr) as attr,
    if(f.sj_hot, h.weight, f.r_weight) as weight
from j as f left outer join d_hot as h on f.sj_hot and f.k = h.k
where if(f.sj_hot, h.k is not null, f.sj_m)""",
    }


def main(rows: int, repetitions: int, partitions: int = 2400) -> None:
    run = Path(tempfile.mkdtemp(prefix="skewjoin-proto-"))
    (run / "eventlog").mkdir()
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("skewjoin prototype")
        .config("spark.driver.memory", "6g")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.catalogImplementation", "in-memory")
        .config("spark.sql.warehouse.dir", str(run / "warehouse"))
        .config("spark.eventLog.enabled", "true")
        .config("spark.eventLog.dir", str(run / "eventlog"))
        .config("spark.eventLog.compress", "false")
        .config("spark.eventLog.rolling.enabled", "false")
        .config("spark.default.parallelism", "64")  # the benchmark's cluster model
        .config("spark.sql.files.maxPartitionBytes", str(1 << 30))
        .config("spark.sql.files.openCostInBytes", str(1 << 30))
        .config("spark.shuffle.sort.bypassMergeThreshold", "0")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("WARN")
    spec = DatasetSpec(rows=rows, fact_files=64)
    for name, sql in statements(spec, pruning=False, star=False):
        if name.endswith(("bench_dim", "bench_fact_skewed")) or name == "schema":
            spark.sql(sql)
    spark.sql(f"set spark.sql.shuffle.partitions={partitions}")
    spark.sql("set spark.sql.autoBroadcastJoinThreshold=-1")
    spark.sql("set spark.sql.adaptive.enabled=true")
    queries = plans(spec.table("bench_fact_skewed"), spec.table("bench_dim"), partitions)
    checks: dict[str, set[tuple[int, ...]]] = {}
    for rep in range(repetitions + 1):  # round 0 warms up and is not measured
        for name, query in queries.items():
            spark.sparkContext.setJobGroup(f"proto/{name}/{rep}/", name)
            checks.setdefault(name, set()).add(tuple(spark.sql(CHECKSUM.format(query=query)).collect()[0]))
    spark.stop()
    log = EventLog.read(next((run / "eventlog").iterdir()))
    shutil.rmtree(run, ignore_errors=True)
    for name in queries:
        runs = [log.run(f"proto/{name}/{rep}/") for rep in range(1, repetitions + 1)]
        makespans = [m.makespan_s[64] for m in runs]
        task_s = [m.total_task_s for m in runs]
        equal = "equal" if checks[name] == checks["plain"] and len(checks[name]) == 1 else "DIFFERENT"
        print(
            f"{name:6s} makespan P=64 median {statistics.median(makespans):.3f} s "
            f"({', '.join(f'{x:.3f}' for x in makespans)}); task time median {statistics.median(task_s):.2f} s "
            f"({', '.join(f'{x:.2f}' for x in task_s)}); result {equal} to the plain join's"
        )
        for stage in runs[0].stages:
            print(
                f"    stage {stage.stage_id}: {stage.tasks} tasks, {stage.total_s:.2f} s, longest {stage.max_s:.3f} s, "
                f"{stage.input_records:,} rows read, {stage.shuffle_write_records:,} written"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000, int(sys.argv[2]) if len(sys.argv) > 2 else 3)

"""skew_join 'auto' hands the join back to AQE where AQE will split it
(macros/skew_join/aqe_regime.sql, aqe_forecast.sql), on the Thrift server: before counting,
where AQE's settings are tuned to the join's size (its own regime), and after
counting, where the forecast says AQE splits every planned key as finely.

aqe_left: 40,000 rows in 8 Parquet files (which Spark reads in as many input
splits as its file packing gives), 32,000 of them on k = 0; aqe_right: one
row per key. 'auto' plans key 0 as a hot key of a (joined in a's input splits).
With AQE's skew thresholds scaled to these kilobytes in the model's session
(a compile-time SET, which on the Thrift server holds for the model's own
statement and no other: docs/decisions/0010-aqe-settings-per-model.md), the
forecast says AQE cuts key 0's partition into as many pieces as the hot
branch has tasks, so the model is the plain join; run under the same
settings, AQE does split it, and the rows equal the plain join's. With
Spark's default thresholds (256 MB) the skew plan is kept.

A hand-written specification of the same join (key 0 declared hot, or a
group of key 0 over 2 slots, verification on) is planned as written; under
the scaled thresholds its record and dbt's log warn that AQE would split key
0 as finely (with the numbers), and under the defaults they do not."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from support import SCHEMA, inline_compiled_sql, strip_record

from skewjoin.dbt_runner import run_dbt
from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark

LEFT = f"{SCHEMA}.aqe_left"
RIGHT = f"{SCHEMA}.aqe_right"
SCALED = {"spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes": "16k",
          "spark.sql.adaptive.advisoryPartitionSizeInBytes": "16k"}  # fmt: skip
PLAIN = f"select a.id, a.k, a.payload, b.label from {LEFT} as a inner join {RIGHT} as b on a.k = b.k"


@pytest.fixture(scope="module")
def aqe_inputs(inputs_built: DbtProject) -> Iterator[DbtProject]:
    conn = inputs_built.conn
    for table in (LEFT, RIGHT):
        run_sql(conn, f"drop table if exists {table}")
    run_sql(conn, f"create table {LEFT} using parquet as select /*+ repartition(8) */ id, "
                  "case when id % 5 < 4 then 0 else id % 1000 + 1 end as k, concat('p', id % 97) as payload "
                  "from range(40000)")  # fmt: skip
    run_sql(conn, f"create table {RIGHT} using parquet as select id as k, concat('r', id) as label from range(1002)")
    yield inputs_built
    for table in (LEFT, RIGHT):
        run_sql(conn, f"drop table if exists {table}")


def _model(settings: dict[str, str], skew: str = "'auto'") -> str:
    sets = "".join(f"{{% do run_query('set {k}={v}') %}}" for k, v in settings.items())
    return (
        f"{{% if execute %}}{sets}{{% endif %}}\n"
        f"{{{{ skewjoin.skew_join('{LEFT}', '{RIGHT}', on=['k'], columns=['a.id', 'a.k', 'a.payload', 'b.label'], "
        f"skew={skew}) }}}}"
    )


def _compile_warned(project: DbtProject, model: str) -> tuple[str, list[str]]:
    """``dbt compile --inline``: the compiled SQL and the messages of the warnings dbt logged."""
    warned: list[str] = []

    def on_event(event: object) -> None:
        if event.info.name == "JinjaLogWarning":  # type: ignore[attr-defined]
            warned.append(str(event.data.msg))  # type: ignore[attr-defined]

    project.deps()
    result = run_dbt(["compile", "--no-populate-cache", "--inline", model], project_dir=project.project_dir,
                     profiles_dir=project.profiles_dir, target=project.target, env=project.env,
                     callbacks=[on_event], flags=["--no-write-json"])  # fmt: skip
    return inline_compiled_sql(result), warned


def _hot_partitions(conn: object, sql: str, settings: dict[str, str]) -> int:
    """Join tasks holding key 0's rows, run with AQE on, these settings and no broadcast: the query
    written to a table (each task writes its own file), then the files holding key 0 counted. (A
    query on top of the join, such as a count by spark_partition_id(), can make AQE drop the split.)"""
    conf = {**settings, "spark.sql.adaptive.enabled": "true", "spark.sql.autoBroadcastJoinThreshold": "-1"}
    before = {k: run_sql(conn, f"set {k}")[0][1] for k in conf}
    probe = f"{SCHEMA}.aqe_probe"
    for k, v in conf.items():
        run_sql(conn, f"set {k}={v}")
    try:
        run_sql(conn, f"drop table if exists {probe}")
        run_sql(conn, f"create table {probe} using parquet as {sql}")
    finally:
        for k, v in before.items():
            run_sql(conn, f"set {k}={v}")
    ((files,),) = run_sql(conn, f"select count(distinct f) from (select input_file_name() as f from {probe} "
                                "where k = 0) as t")  # fmt: skip
    run_sql(conn, f"drop table if exists {probe}")
    return int(files)


def test_auto_hands_the_join_back_to_aqe_where_aqe_splits_it(aqe_inputs: DbtProject) -> None:
    conn = aqe_inputs.conn
    sql = inline_compiled_sql(aqe_inputs.run(["compile", "--inline", _model(SCALED)]))
    record = sql.split("*/")[0]
    assert "auto: AQE forecast, key 0: about" in record, record
    assert "auto: AQE forecast (would Spark split the plain join itself?): yes" in record, record
    assert "strategy: plain join" in record and "_hot_" not in strip_record(sql)
    assert_same_rows(conn, strip_record(sql), PLAIN)
    # AQE, under the settings the forecast read, splits key 0's partition into the pieces it forecast
    # (one a map task of a: the scan's input splits), where the plain join alone gives one task
    m = re.search(r"at most one a map task \((\d+)\): (\d+), against the skew plan's (\d+)", record)
    assert m and int(m.group(2)) == int(m.group(1)) >= 2, record
    assert _hot_partitions(conn, strip_record(sql), SCALED) == int(m.group(2))
    assert _hot_partitions(conn, strip_record(sql), {"spark.sql.adaptive.skewJoin.enabled": "false"}) == 1


# AQE tuned to this join's size: a partition AQE leaves whole (1 KiB threshold, factor 2 x the side's mean
# partition) and its pieces (1 KiB) are within 5x the join's mean partition (the two sides' size estimates over
# the 200 shuffle partitions)
TUNED = {"spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes": "1k",
         "spark.sql.adaptive.skewJoin.skewedPartitionFactor": "2",
         "spark.sql.adaptive.advisoryPartitionSizeInBytes": "1k"}  # fmt: skip


def test_auto_leaves_an_inner_join_to_aqe_before_counting_in_its_regime(aqe_inputs: DbtProject) -> None:
    """In AQE's own regime 'auto' counts nothing: its record gives the settings and size estimates it read
    (metadata, no query reading data), the model is the plain join, its rows are the plain join's, and AQE,
    run under those settings, splits key 0's partition (the plain join alone keeps it in one task)."""
    conn = aqe_inputs.conn
    sql = inline_compiled_sql(aqe_inputs.run(["compile", "--inline", _model(TUNED)]))
    record = sql.split("*/")[0]
    assert "auto: AQE regime (measure, or leave the join to AQE?): left to AQE, nothing counted" in record, record
    assert "skew measured on" not in record and "AQE forecast" not in record, record
    assert re.search(r"measuring cost: \d+ compile-time queries \(0 reading data\)", record), record
    assert "strategy: plain join, left to AQE" in record and "_hot_" not in strip_record(sql)
    assert_same_rows(conn, strip_record(sql), PLAIN)
    assert _hot_partitions(conn, strip_record(sql), TUNED) >= 2
    # a left join: AQE never splits the null-supplying side, so 'auto' counts to learn which side is hot
    left = inline_compiled_sql(aqe_inputs.run(["compile", "--inline", _model(TUNED).replace(
        "skew='auto'", "join_type='left', skew='auto'")]))  # fmt: skip
    assert "skew measured on a" in left and "AQE regime" not in left.split("*/")[0], left.split("*/")[0]


def test_auto_keeps_the_skew_plan_where_aqe_would_not_split(aqe_inputs: DbtProject) -> None:
    conn = aqe_inputs.conn
    sql = inline_compiled_sql(aqe_inputs.run(["compile", "--inline", _model({})]))
    record = sql.split("*/")[0]
    assert "not for every key" in record and "key 0: under twice the skew bar" in record, record
    assert "hot keys of a (planned from the measured counts): 0" in record, record
    assert_same_rows(conn, strip_record(sql), PLAIN)
    # and the default thresholds indeed leave the plain join's hot partition whole
    assert _hot_partitions(conn, PLAIN, {}) == 1


# hand-written specifications of the join, counted at compile time (verify) as the forecast needs
DECLARED = {
    "hot_key": "{'hot_keys': [0], 'verify': true}",
    "group": "{'groups': [{'when': 'a.k = 0', 'slots': 2}], 'verify': true}",
}


@pytest.mark.parametrize("skew", list(DECLARED.values()), ids=list(DECLARED))
def test_a_declared_plan_aqe_would_match_is_kept_with_a_warning(aqe_inputs: DbtProject, skew: str) -> None:
    conn = aqe_inputs.conn
    sql, warned = _compile_warned(aqe_inputs, _model(SCALED, skew))
    record = sql.split("*/")[0]
    assert "AQE forecast for the declared plan (would Spark split the plain join itself?): yes" in record, record
    # the numbers: key 0's bytes against the bar of factor x median and the threshold (16 KiB), AQE's pieces
    # against the plan's tasks
    m = re.search(r"\n  warning: (this hand-written skew specification will likely lose to AQE: .*key 0 \(.*\): about "
                  r"[0-9.]+ KiB of a against the skew bar 16\.0 KiB \(max of skewedPartitionFactor 5\.0 x the median "
                  r"partition .*, skewedPartitionThresholdInBytes 16\.0 KiB\); AQE cuts (\d+) pieces, the specification "
                  r"spreads it over (\d+)\. .*use skew_join 'auto'.*)\n", record)  # fmt: skip
    assert m and int(m.group(2)) >= int(m.group(3)) >= 2, record
    assert [w for w in warned if m.group(1) in w], warned
    # the plan is kept as written, and its rows are the plain join's
    assert "strategy: plain join" not in record, record
    assert ("_hot_" in strip_record(sql)) == ("hot_keys" in skew)
    assert_same_rows(conn, strip_record(sql), PLAIN)


def test_a_declared_plan_gets_no_warning_under_the_defaults(aqe_inputs: DbtProject) -> None:
    sql, warned = _compile_warned(aqe_inputs, _model({}, DECLARED["hot_key"]))
    record = sql.split("*/")[0]
    assert "not for every key" in record and "key 0: under twice the skew bar" in record, record
    assert "warning:" not in record and not [w for w in warned if "lose to AQE" in w], (record, warned)
    assert "_hot_" in strip_record(sql)
    assert_same_rows(aqe_inputs.conn, strip_record(sql), PLAIN)

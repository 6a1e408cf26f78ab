"""'auto' and hot_keys 'auto' with the sketch (macros/skew_join/
detection_sketch.sql) and, with the option sketch false, above
sample_above_bytes (detection_sample.sql), on the Thrift server.

sample_left: 100,000 rows in 4 Parquet files, 58,000 of them on k = 0, 2,000
with a NULL key, the rest over keys 1..1000; sample_right: one row per key
0..1000. Each side is read once with Spark's frequent-items sketch, the
smaller first. Without the sketch, with sample_above_bytes at 0 (the option;
the render tier reads the var of the same name) every side Spark can size
is above it: a's heavy keys are found on a sample of about 2,000 rows
(sample_rows), then counted exactly; b, whose sample would be most of its
rows, is counted whole. The record says so, its counts are the exact counts
(the same as counting every key), and the rows equal the plain join's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from support import SCHEMA, inline_compiled_sql, strip_record

from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark

LEFT = f"{SCHEMA}.sample_left"
RIGHT = f"{SCHEMA}.sample_right"


@pytest.fixture(scope="module")
def sample_inputs(inputs_built: DbtProject) -> Iterator[DbtProject]:
    conn = inputs_built.conn
    for table in (LEFT, RIGHT):
        run_sql(conn, f"drop table if exists {table}")
    run_sql(conn, f"create table {LEFT} using parquet as select /*+ repartition(4) */ id, "
                  "case when id % 50 = 7 then null when id % 5 < 3 then 0 else id % 1000 + 1 end as k, "
                  "concat('p', id % 97) as payload from range(100000)")  # fmt: skip
    run_sql(conn, f"create table {RIGHT} using parquet as select id as k, concat('r', id) as label from range(1001)")
    yield inputs_built
    for table in (LEFT, RIGHT):
        run_sql(conn, f"drop table if exists {table}")


def _model(join_type: str, skew: str) -> str:
    return (
        f"{{{{ skewjoin.skew_join('{LEFT}', '{RIGHT}', on=['k'], join_type='{join_type}', "
        f"columns=['a.id', 'a.k', 'a.payload', 'b.label'], skew={skew}) }}}}"
    )


def _plain(join_type: str) -> str:
    return f"select a.id, a.k, a.payload, b.label from {LEFT} as a {join_type} join {RIGHT} as b on a.k = b.k"


def _counts(conn: object) -> tuple[int, int, int]:
    ((total, hot, nulls),) = run_sql(conn, f"select count(*), count_if(k = 0), count_if(k is null) from {LEFT}")
    return int(total), int(hot), int(nulls)


def _counted_plan_is_the_same(conn: object, compile_inline: Callable[..., Any], join_type: str, sql: str) -> None:
    """The plan of `sql` is the one every key counted with a `group by` gives (no sketch, no sample), and
    its rows equal the plain join's."""
    never = "{'auto': {'sample_rows': 2000, 'sample_above_bytes': false, 'sketch': false}}"
    counted = inline_compiled_sql(compile_inline(_model(join_type, never)))
    record = counted.split("*/")[0]
    assert "sketched:" not in record and "sampled:" not in record, record
    assert strip_record(counted) == strip_record(sql)
    assert_same_rows(conn, strip_record(sql), _plain(join_type))


@pytest.mark.parametrize("join_type", ["inner", "left"])
def test_sketched_auto_plans_from_one_read_and_equals_the_plain_join(
    sample_inputs: DbtProject, compile_inline: Callable[..., Any], join_type: str
) -> None:
    conn = sample_inputs.conn
    total, hot, nulls = _counts(conn)
    assert (total, hot, nulls) == (100000, 58000, 2000)
    skew = "{'auto': {'sample_rows': 2000, 'sample_above_bytes': 0}}"
    sql = inline_compiled_sql(compile_inline(_model(join_type, skew)))
    record = sql.split("*/")[0]
    # b, the smaller, read first; a read once with Spark's approx_top_k
    assert "skew measured on a (sketched: one query read every row of a once" in record, record
    assert "skew measured on b (sketched: one query read every row of b once" in record, record
    assert "frequent-items sketch (approx_top_k, 1,000 keys tracked;" in record, record
    assert f"{total} rows in " in record and f"{nulls} with a NULL key; heaviest keys: 0 58.0%" in record, record
    # the sketch's count of key 0 on a is exact here (a listed count is at most the sketch's error over it).
    # b's sketch is exact (1,001 rows, under the 1,536 keys it holds) but its list is cut at 22 of its one-row
    # keys, so it need not hold key 0; where it does not, b's rows of it are at most the smallest count listed
    # (1), which fits the broadcast budget and is under min_share, so the plan is the same whatever the exact
    # count: not counted, and the record says "at most"
    bounded = "the 1 key(s) the other side listed were not counted here: the sketch puts each at most 1 rows" in record
    b_rows = "b at most 1 rows (0.1%)" if bounded else "b 1 rows (0.1%)"
    assert f"auto: key 0 (a {hot:,} rows (58.0%), {b_rows})" in record, record
    assert "'auto' counts 2," in record and "one more query counted" not in record, record
    # the plan every key counted exactly gives
    _counted_plan_is_the_same(conn, compile_inline, join_type, sql)


@pytest.mark.parametrize("join_type", ["inner", "left"])
def test_sampled_auto_plans_from_exact_counts_and_equals_the_plain_join(
    sample_inputs: DbtProject, compile_inline: Callable[..., Any], join_type: str
) -> None:
    """Without the sketch (the option sketch false, as on a Spark before 4.1): the sample and exact passes."""
    conn = sample_inputs.conn
    total, hot, nulls = _counts(conn)
    skew = "{'auto': {'sample_rows': 2000, 'sample_above_bytes': 0, 'sketch': false}}"
    sql = inline_compiled_sql(compile_inline(_model(join_type, skew)))
    record = sql.split("*/")[0]
    # a sampled, then its candidates counted exactly; b counted whole
    assert "skew measured on a (sampled: Spark estimates a at " in record, record
    assert "above sample_above_bytes (0 B)" in record and " rows drawn" in record, record
    assert "key(s) exactly over every row" in record, record
    assert f"{total} rows in " in record and f"{nulls} with a NULL key; heaviest keys: 0 58.0%" in record, record
    assert "skew measured on b (one aggregate query over every row, exact counts" in record, record
    # the plan reads the exact counts: key 0's rows are a's, not a sample's scaled up
    assert f"auto: key 0 (a {hot:,} rows (58.0%), b 1 rows" in record, record
    _counted_plan_is_the_same(conn, compile_inline, join_type, sql)


@pytest.mark.parametrize("sketch", [True, False], ids=["sketched", "sampled"])
def test_hot_keys_auto_above_the_size_equals_the_plain_join(
    sample_inputs: DbtProject, compile_inline: Callable[..., Any], sketch: bool
) -> None:
    conn = sample_inputs.conn
    skew = ("{'hot_keys': {'a': 'auto'}, 'hot_keys_options': {'sample_rows': 2000, 'sample_above_bytes': 0, "
            f"'sketch': {str(sketch).lower()}}}}}")
    sql = inline_compiled_sql(compile_inline(_model("left", skew)))
    record = sql.split("*/")[0]
    how = "sketched: one query read every row of a once" if sketch else "sampled: Spark estimates a at "
    assert f"hot keys of a found at compile time ({how}" in record, record
    # the exact shares of key 0 and of the NULL keys (the sketch's, exact here; the exact pass's)
    assert "100000 rows in " in record and "0 58.0%; NULL 2.0%" in record, record
    assert_same_rows(conn, strip_record(sql), _plain("left"))


def test_sketch_recounts_the_other_sides_heavy_key_and_equals_the_plain_join(
    sample_inputs: DbtProject, compile_inline: Callable[..., Any]
) -> None:
    """Both sides sketched, the tables swapped (a: the 1,001 keys of one row, Spark's smaller estimate,
    read first; b: the skewed one). a's count of b's heavy key 0 is its sketch's where the sketch listed it, else
    one more read of a counts it exactly: a broadcast budget of 3 rows is under the sketch's bound (4 rows), so
    the bound cannot decide the plan. Either way 1 row, a hot key, and the rows equal the plain join's."""
    conn = sample_inputs.conn
    model = (
        f"{{{{ skewjoin.skew_join('{RIGHT}', '{LEFT}', on=['k'], join_type='right', "
        "columns=['b.id', 'b.k', 'b.payload', 'a.label'], "
        "skew={'auto': {'sample_rows': 100, 'sample_above_bytes': 0, 'max_broadcast_rows': 3}}) }}"
    )
    sql = inline_compiled_sql(compile_inline(model))
    record = sql.split("*/")[0]
    assert "skew measured on a (sketched: " in record and "skew measured on b (sketched: " in record, record
    assert "auto: key 0 (a 1 rows (0.1%), b 58,000 rows (58.0%)): hot key of b" in record, record
    assert "not counted here" not in record, record
    plain = f"select b.id, b.k, b.payload, a.label from {RIGHT} as a right join {LEFT} as b on a.k = b.k"
    assert_same_rows(conn, strip_record(sql), plain)


BOUND_FACT = "select id, case when id < 60000 then 0 else id end as k from range(100000)"
# 2,090 rows (more than the 1,536 keys a sketch of 1,000 tracked holds exactly): key 0 once, keys 1-1999 once,
# keys 5000-5029 three times each
BOUND_DIM = ("select k, concat('r', k) as label from (select id as k from range(2000) "
             "union all select 5000 + id % 30 as k from range(90))")  # fmt: skip


@pytest.mark.parametrize("join_type", ["inner", "left"])
def test_the_sketch_bound_stands_in_for_a_count_that_cannot_change_the_plan(
    inputs_built: DbtProject, compile_inline: Callable[..., Any], join_type: str
) -> None:
    """b, the smaller side, read first: its sketch lists 22 keys (max_keys + 2) of its 3-row keys, not key 0,
    which a then finds on 60% of its rows. b's rows of key 0 are at most 8 (the sketch's bound: 7 / 2,048 of
    2,090 rows, over the smallest listed count, 3): under min_share, and with the broadcast budget far above,
    key 0 is a hot key of a whatever b's exact count. So b is not read again; the record says "at most", the
    plan is the one every key counted exactly gives, and the rows equal the plain join's."""
    def model(skew: str) -> str:
        return (f'{{{{ skewjoin.skew_join("{BOUND_FACT}", "{BOUND_DIM}", on=["k"], join_type="{join_type}", '
                f"columns=['a.id', 'a.k', 'b.label'], skew={skew}) }}}}")  # fmt: skip

    sql = inline_compiled_sql(compile_inline(model("'auto'")))
    record = sql.split("*/")[0]
    assert "skew measured on b (sketched: " in record and "skew measured on a (sketched: " in record, record
    assert "22 key(s) listed" in record, record
    assert ("the 1 key(s) the other side listed were not counted here: the sketch puts each at most 8 rows, "
            "too few to change the plan") in record, record  # fmt: skip
    assert "auto: key 0 (a 60,000 rows (60.0%), b at most 8 rows (0.4%)): hot key of a: broadcast b's at most 8" in record
    assert "'auto' counts 2," in record, record
    counted = inline_compiled_sql(compile_inline(model("{'auto': {'sketch': false}}")))
    assert "sketched:" not in counted.split("*/")[0]
    assert "auto: key 0 (a 60,000 rows (60.0%), b 1 rows (0.0%)): hot key of a" in counted, counted
    assert strip_record(counted) == strip_record(sql)
    plain = f"select a.id, a.k, b.label from ({BOUND_FACT}) as a {join_type} join ({BOUND_DIM}) as b on a.k = b.k"
    assert_same_rows(inputs_built.conn, strip_record(sql), plain)


# a: 2,000 rows, keys 0 and 1 on 500 each, keys 100-265 on 6 each (0.3%); b: 5 rows (keys 0 and 1 twice, key 5)
EXACT_FACT = ("select id, case when id < 500 then 0 when id < 1000 then 1 else 100 + (id - 1000) div 6 end as k "
              "from range(2000)")  # fmt: skip
EXACT_DIM = "select * from values (0, 'zero'), (0, 'zero2'), (1, 'one'), (1, 'one2'), (5, 'five') as t(k, label)"


@pytest.mark.parametrize("join_type", ["right", "full"])
def test_an_exact_sketch_of_a_small_side_counts_the_keys_it_did_not_list_as_none(
    inputs_built: DbtProject, compile_inline: Callable[..., Any], join_type: str
) -> None:
    """b has 5 rows, fewer than the keys its sketch holds exactly: a key it did not list has none of its
    rows. Taken as "at most 1" (20% of b), each of a's 0.3% keys became a hot key of a; now only a's two
    heavy keys are. The rows equal the plain join's."""
    call = (f'{{{{ skewjoin.skew_join("{EXACT_FACT}", "{EXACT_DIM}", on=["k"], join_type="{join_type}", '
            "columns=['a.id', 'a.k', 'b.label'], skew='auto') }}")  # fmt: skip
    sql = inline_compiled_sql(compile_inline(call))
    record = sql.split("*/")[0]
    assert "3 key(s) listed, each count exact: the side has no more rows than the sketch holds keys" in record, record
    assert "auto: key 0 (a 500 rows (25.0%), b 2 rows (40.0%)): hot key of a" in record, record
    assert "auto: key 1 (a 500 rows (25.0%), b 2 rows (40.0%)): hot key of a" in record, record
    assert "auto: key 100 " not in record and "b at most" not in record, record
    plain = f"select a.id, a.k, b.label from ({EXACT_FACT}) as a {join_type} join ({EXACT_DIM}) as b on a.k = b.k"
    assert_same_rows(inputs_built.conn, strip_record(sql), plain)


def test_hot_keys_auto_over_a_small_sample_plans_no_key_it_cannot_tell(
    inputs_built: DbtProject, compile_inline: Callable[..., Any]
) -> None:
    """hot_keys 'auto' over an explicit 5% tablesample of 1,000 keys of one row each: the ~50 sampled rows put
    each key it met at about 2% of them, above min_share 0.01, but none by the sample's 95% margin, so no key
    is planned hot (a key the sample met once is not evidence of skew); the rows are the plain join's."""
    left = "select id, id as k, concat('p', id % 7) as payload from range(1000)"
    right = "select id as k, concat('r', id) as label from range(1000)"
    call = (f'{{{{ skewjoin.skew_join("{left}", "{right}", on=["k"], join_type="left", '
            "columns=['a.id', 'a.k', 'a.payload', 'b.label'], skew={'hot_keys': {'a': 'auto'}, "
            "'hot_keys_options': {'sample_fraction': 0.05, 'sketch': false}}) }}")  # fmt: skip
    sql = inline_compiled_sql(compile_inline(call))
    record = sql.split("*/")[0]
    assert "one aggregate query over a 5.0% sample" in record, record
    assert "not by its 95% margin (too few sampled rows to tell): left to the shuffle join" in record, record
    assert "hot branch" not in record, record
    plain = f"select a.id, a.k, a.payload, b.label from ({left}) as a left join ({right}) as b on a.k = b.k"
    assert_same_rows(inputs_built.conn, strip_record(sql), plain)

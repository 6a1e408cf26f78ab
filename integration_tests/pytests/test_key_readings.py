"""A key's value as Spark's own equality reads it, on the Spark Thrift Server.

Two ways the routing of rows could part from the plain join's reading of a key:

- A value hot on both sides, written differently by each side's keys (1.0 and 1 compared as a
  decimal, 1 and 1.0 as a double, a date and its midnight timestamp). The plan tells the two sides'
  keys apart by their literals' text, so each side's branch took the value and its rows came out
  twice. The second branch now leaves out the first branch's keys in SQL, where Spark compares
  values.
- ANSI mode off, a string key against a number. The join's equality reads '1.9' and '1.0' as the int
  1 (Spark's legacy cast), where try_cast reads NULL. The routing now casts as the equality does,
  in hot-key predicates, in skew groups, and in pruning.
- Pruning a Parquet table: a decimal's key text with an exponent (1.2E-7, as a small decimal reads with ANSI
  off) is a double literal in Spark, which rounds; a filter on a bare double column is pushed to Parquet,
  whose statistics put -0.0 below 0.0 and skip the files that hold only -0.0, which the join matches to 0.0.
- char(3) against char(5): Spark pads the shorter to compare ('x  ' = 'x    '); a slot hashed the values
  as read, so the two sides' rows of such a key went to different slots. A string key is hashed without
  its trailing spaces.

Every case compares the compiled query's rows with the plain join's, as multisets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from support import SCHEMA, error_text, inline_compiled_sql, session_settings, strip_record

from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import assert_same_rows
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark

JOIN_TYPES = ["inner", "left", "right", "full", "left semi", "left anti"]


def _side(key: str, hot: str, others: str, label: str) -> str:
    """60 rows: 30 of the hot key, 20 of the other keys, 5 NULL keys, 5 duplicates of the hot key."""
    return (f"select id, case when id < 30 or id >= 55 then {hot} when id < 50 then {others} "
            f"else cast(null as {key}) end as k, concat('{label}', id % 7) as payload from range(60)")  # fmt: skip


# (left key type, right key type, left hot key, right hot key, the declared keys as written, where they differ)
TWO_WAYS = {
    "decimal-int": (
        _side("decimal(10,2)", "cast(1 as decimal(10,2))", "cast(id % 5 + 2 as decimal(10,2))", "a"),
        _side("int", "1", "cast(id % 4 + 3 as int)", "b"),
        "{'a': [1.0], 'b': [1]}",
    ),
    "int-double": (
        _side("int", "1", "cast(id % 5 + 2 as int)", "a"),
        _side("double", "1.0D", "cast(id % 4 + 3 as double)", "b"),
        "{'a': [1], 'b': [1.0]}",
    ),
    "date-timestamp": (
        _side("date", "date'2024-01-01'", "date_add(date'2024-01-01', cast(id % 5 + 2 as int))", "a"),
        _side(
            "timestamp",
            "timestamp'2024-01-01 00:00:00'",
            "cast(date_add(date'2024-01-01', cast(id % 4 + 3 as int)) as timestamp)",
            "b",
        ),  # fmt: skip
        "{'a': ['2024-01-01'], 'b': ['2024-01-01 00:00:00']}",
    ),
}


def _plain(left: str, right: str, join_type: str, columns: list[str]) -> str:
    return f"select {', '.join(columns)} from ({left}) as a {join_type} join ({right}) as b on a.k = b.k"


def _columns(join_type: str) -> list[str]:
    return ["a.id", "a.k", "a.payload"] + (
        [] if join_type in ("left semi", "left anti") else ["b.k as b_k", "b.payload as b_payload"]
    )


CASES = [("decimal-int", jt) for jt in JOIN_TYPES] + [("int-double", "inner"), ("int-double", "full"),
                                                      ("date-timestamp", "left"), ("date-timestamp", "right")]  # fmt: skip


@pytest.mark.parametrize(("types", "join_type"), CASES, ids=[f"{t}-{j}" for t, j in CASES])
def test_a_value_hot_on_both_sides_written_two_ways_is_joined_once(
    inputs_built: DbtProject, compile_inline: Callable[..., Any], types: str, join_type: str
) -> None:
    """Declared hot keys, not counted ('verify': false: a branch per side), the same value on both sides
    in two spellings: each row of that value is joined once, in a's branch."""
    left, right, declared = TWO_WAYS[types]
    columns = _columns(join_type)
    call = (f'{{{{ skewjoin.skew_join("{left}", "{right}", on=["k"], join_type="{join_type}", columns={columns}, '
            f"skew={{'hot_keys': {declared}, 'verify': false}}) }}}}")  # fmt: skip
    sql = inline_compiled_sql(compile_inline(call))
    plain = _plain(left, right, join_type, columns)
    assert run_sql(inputs_built.conn, f"select count(*) from ({plain}) as t")[0][0] > 0
    assert_same_rows(inputs_built.conn, strip_record(sql), plain)
    record = sql.split("*/")[0]
    assert "hot branch for keys of a (" in record and "hot branch for keys of b (" in record, record
    assert "rows of the keys of a's branch are left out, so a value hot on both sides is joined once" in record


@pytest.mark.parametrize("join_type", ["inner", "full"])
def test_found_hot_keys_of_both_sides_in_two_types_are_joined_once(
    inputs_built: DbtProject, compile_inline: Callable[..., Any], join_type: str
) -> None:
    """Hot keys 'auto' on a decimal(10,2) side and an int side, with no fold (max_broadcast_rows 0):
    each side finds key 1 in its own type (1.00 and 1), and its rows are joined once."""
    left, right, _ = TWO_WAYS["decimal-int"]
    columns = _columns(join_type)
    call = (f'{{{{ skewjoin.skew_join("{left}", "{right}", on=["k"], join_type="{join_type}", columns={columns}, '
            "skew={'hot_keys': {'a': 'auto', 'b': 'auto'}, "
            "'hot_keys_options': {'min_share': 0.3, 'max_broadcast_rows': 0}}) }}")  # fmt: skip
    sql = inline_compiled_sql(compile_inline(call))
    assert_same_rows(inputs_built.conn, strip_record(sql), _plain(left, right, join_type, columns))
    record = sql.split("*/")[0]
    if "left to AQE" not in record:
        assert "hot branch for keys of a (1.00)" in record and "hot branch for keys of b (1)" in record, record


# ANSI off: an int key against a string key whose texts Spark's legacy cast reads as 1 ('1', '1.0', '1.9',
# ' 1'), as 3 (' 3'), and not at all ('x'); NULLs on both sides
ANSI_LEFT = ("select id, case when id % 10 = 9 then null when id % 10 < 6 then 1 else id % 10 end as k, "
             "concat('p', id % 7) as payload from range(100)")  # fmt: skip
ANSI_RIGHT = ("select * from values ('1.9', 'a'), ('1', 'b'), ('1.0', 'c'), (' 1', 'd'), ('2', 'e'), (' 3', 'f'), "
              "('x', 'g'), (cast(null as string), 'h'), ('8.5', 'i') as t(k, label)")  # fmt: skip
PLANS = {
    "hot keys": "{'hot_keys': {'a': [1]}, 'verify': false}",
    "skew group": "{'groups': [{'when': 'a.k = 1', 'slots': 4}], 'total_slots': 8, 'verify': false}",
}
# where b is preserved, a group driven by a may not multicast b's rows: its keys spread over the slots instead
PRESERVED_B_GROUP = (
    "{'groups': [{'when': 'a.k in (1, 2)', 'distribute': 'keys', 'slots': 4}], 'total_slots': 8, 'verify': false}"
)


@pytest.fixture
def ansi_off(inputs_built: DbtProject) -> Iterator[None]:
    run_sql(inputs_built.conn, "set spark.sql.ansi.enabled=false")
    try:
        yield
    finally:
        run_sql(inputs_built.conn, "set spark.sql.ansi.enabled=true")


def _ansi_off_compile(compile_inline: Callable[..., Any], call: str) -> str:
    """The call compiled in a session with ANSI mode off (the mode its plain join runs in)."""
    return inline_compiled_sql(compile_inline(
        '{% do run_query("set spark.sql.ansi.enabled=false") %}' + call
        + '{% do run_query("set spark.sql.ansi.enabled=true") %}'
    ))  # fmt: skip


@pytest.mark.parametrize("plan", list(PLANS))
@pytest.mark.parametrize("join_type", JOIN_TYPES)
def test_ansi_off_a_string_key_is_read_as_the_join_reads_it(
    inputs_built: DbtProject, compile_inline: Callable[..., Any], ansi_off: None, plan: str, join_type: str
) -> None:
    columns = ["a.id", "a.k", "a.payload"] + (
        [] if join_type in ("left semi", "left anti") else ["b.k as b_k", "b.label"]
    )
    spec = PRESERVED_B_GROUP if plan == "skew group" and join_type in ("right", "full") else PLANS[plan]
    call = (f'{{{{ skewjoin.skew_join("{ANSI_LEFT}", "{ANSI_RIGHT}", on=["k"], join_type="{join_type}", '
            f"columns={columns}, skew={spec}) }}}}")  # fmt: skip
    sql = _ansi_off_compile(compile_inline, call)
    plain = _plain(ANSI_LEFT, ANSI_RIGHT, join_type, columns)
    # the legacy reading matches '1.9', '1.0' and ' 1' to a's key 1: rows try_cast would have lost
    if join_type == "inner":
        legacy = run_sql(inputs_built.conn, f"select count(distinct b_k) from ({plain}) as t where k = 1")[0][0]
        assert legacy == 4  # '1', '1.0', '1.9' and ' 1'
    assert_same_rows(inputs_built.conn, strip_record(sql), plain)
    assert "compared as bigint" in sql.split("*/")[0]
    assert "cast(b.k as bigint)" in sql and "try_cast" not in strip_record(sql)


@pytest.mark.parametrize("small_key", ["string", "int"])
def test_ansi_off_pruning_reads_a_string_key_as_the_join_reads_it(
    inputs_built: DbtProject, compile_inline: Callable[..., Any], ansi_off: None, small_key: str
) -> None:
    """prune_predicate with ANSI off, the big side's and the small side's keys one int and one string:
    the predicate keeps every big row the join matches."""
    ints = "select id, id % 10 as k, concat('p', id) as payload from range(50)"
    strings = "select * from values ('1.9'), ('1.0'), (' 3'), ('x'), (cast(null as string)) as t(k)"
    big, small = (ints, strings) if small_key == "string" else (
        "select * from values ('1.9', 1), ('1.0', 2), (' 3', 3), ('4', 4), ('x', 5), (cast(null as string), 6) "
        "as t(k, id)", "select id % 5 as k from range(10)")  # fmt: skip
    call = f'{{{{ skewjoin.prune_predicate("{big}", "a", [{{"relation": "{small}", "on": ["k"]}}]) }}}}'
    predicate = _ansi_off_compile(compile_inline, call)
    joined = f"select a.*, s.k as s_k from ({big}) as a join ({small}) as s on a.k = s.k"
    assert run_sql(inputs_built.conn, f"select count(*) from ({joined}) as t")[0][0] > 0
    pruned = f"{joined} where {strip_record(predicate)}"
    assert_same_rows(inputs_built.conn, pruned, joined)


@pytest.mark.parametrize("form", ["in list", "range", "semi join"])
def test_pruning_keeps_the_big_rows_a_rounding_comparison_matches(
    inputs_built: DbtProject, compile_inline: Callable[..., Any], form: str
) -> None:
    """A decimal(38,10) big key against decimal(38,0) small keys compares as decimal(38,0): Spark rounds the
    big key first, so 1.4 matches 1 and 1.5 matches 2. The predicate compares the big key as the join does
    (it was written on the bare column, and dropped those rows)."""
    big = ("select id, cast(k as decimal(38,10)) as k from values (1, '1.4'), (2, '1.5'), (3, '1'), "
           "(4, '2.0000000001'), (5, cast(null as string)), (6, '7.2') as t(id, k)")  # fmt: skip
    small = "select cast(k as decimal(38,0)) as k from values (1), (2) as t(k)"
    extra = {"in list": "", "range": ", max_values=1", "semi join": ", max_values=1, fallback='semi_join'"}[form]
    call = f'{{{{ skewjoin.prune_predicate("{big}", "a", [{{"relation": "{small}", "on": ["k"]}}]{extra}) }}}}'
    predicate = inline_compiled_sql(compile_inline(call))
    joined = f"select a.id, a.k, s.k as s_k from ({big}) as a join ({small}) as s on a.k = s.k"
    assert run_sql(inputs_built.conn, f"select count(*) from ({joined}) as t")[0][0] == 4
    assert_same_rows(inputs_built.conn, f"{joined} where {strip_record(predicate)}", joined)


SIGNED_ZERO = f"{SCHEMA}.key_readings_signed_zero"
SMALL_DECIMAL = f"{SCHEMA}.key_readings_small_decimal"
FORMS = {"in list": "", "range": ", max_values=1", "semi join": ", max_values=1, fallback='semi_join'"}


@pytest.fixture(scope="module")
def parquet_keys(inputs_built: DbtProject) -> Iterator[DbtProject]:
    """A file of -0.0 keys (double and float) and a file of 1.0 and 2.0; a decimal(30,25) key below 1e-6 with
    19 significant digits, in Parquet files."""
    conn = inputs_built.conn
    for table in (SIGNED_ZERO, SMALL_DECIMAL):
        run_sql(conn, f"drop table if exists {table}")
    run_sql(conn, f"create table {SIGNED_ZERO} using parquet as select /*+ repartition(1) */ id, -0.0D as k, "
                  "cast(-0.0 as float) as f from range(20)")  # fmt: skip
    run_sql(conn, f"insert into {SIGNED_ZERO} select /*+ repartition(1) */ id, cast(id % 2 + 1 as double), "
                  "cast(id % 2 + 1 as float) from range(6)")  # fmt: skip
    run_sql(conn, f"create table {SMALL_DECIMAL} using parquet as select id, "
                  "cast(if(id < 3, '0.0000001234567890123456789', '0.0000001234567890123456790') as decimal(30,25)) "
                  "as k from range(6)")  # fmt: skip
    try:
        yield inputs_built
    finally:
        for table in (SIGNED_ZERO, SMALL_DECIMAL):
            run_sql(conn, f"drop table if exists {table}")


@pytest.mark.parametrize("form", list(FORMS))
@pytest.mark.parametrize("column", ["k", "f"])
def test_pruning_keeps_the_rows_of_negative_zero(
    parquet_keys: DbtProject, compile_inline: Callable[..., Any], form: str, column: str
) -> None:
    """Keys 0.0 and 1.0 (double; for the float column, float): the big table's file of -0.0 is kept."""
    cast = "double" if column == "k" else "float"
    small = f"select cast(k as {cast}) as {column} from values (0.0D), (1.0D) as t(k)"
    call = (f'{{{{ skewjoin.prune_predicate("{SIGNED_ZERO}", "a", [{{"relation": "{small}", "on": ["{column}"]}}]'
            f"{FORMS[form]}) }}}}")  # fmt: skip
    predicate = inline_compiled_sql(compile_inline(call))
    joined = f"select a.id, a.{column}, s.{column} as s_k from {SIGNED_ZERO} as a join ({small}) as s on a.{column} = s.{column}"
    assert run_sql(parquet_keys.conn, f"select count(*) from ({joined}) as t")[0][0] == 23
    assert_same_rows(parquet_keys.conn, f"{joined} where {strip_record(predicate)}", joined)


@pytest.mark.parametrize("form", list(FORMS))
def test_pruning_writes_a_small_decimal_exactly(
    parquet_keys: DbtProject, compile_inline: Callable[..., Any], ansi_off: None, form: str
) -> None:
    """ANSI off, a decimal(30,25) key of 19 significant digits below 1e-6: its literal is the exact decimal, and
    the key one unit of the last digit away is not taken."""
    small = f"select k from {SMALL_DECIMAL} where id = 0"
    call = (f'{{{{ skewjoin.prune_predicate("{SMALL_DECIMAL}", "a", [{{"relation": "{small}", "on": ["k"]}}]'
            f"{FORMS[form]}) }}}}")  # fmt: skip
    predicate = strip_record(_ansi_off_compile(compile_inline, call))
    assert "E-" not in predicate.upper().replace("CAST(", ""), predicate
    joined = f"select a.id, a.k from {SMALL_DECIMAL} as a join ({small}) as s on a.k = s.k"
    assert run_sql(parquet_keys.conn, f"select count(*) from ({joined}) as t")[0][0] == 3
    assert_same_rows(parquet_keys.conn, f"{joined} where {predicate}", joined)
    if form == "in list":
        assert run_sql(parquet_keys.conn, f"select count(*) from {SMALL_DECIMAL} as a where {predicate}")[0][0] == 3


CHAR3 = f"{SCHEMA}.key_readings_char3"
CHAR5 = f"{SCHEMA}.key_readings_char5"
PADDED = f"{SCHEMA}.key_readings_padded_string"


@pytest.fixture(scope="module")
def char_keys(inputs_built: DbtProject) -> Iterator[DbtProject]:
    """char(3) keys: 'zz' x 20, 'x' x 10, NULL x 10; char(5) keys 'zz', 'x', 'zz  ' (trailing spaces) and NULL."""
    conn = inputs_built.conn
    for table in (CHAR3, CHAR5, PADDED):
        run_sql(conn, f"drop table if exists {table}")
    run_sql(conn, f"create table {CHAR3} (id int, c char(3)) using parquet")
    run_sql(conn, f"insert into {CHAR3} select id, case when id < 20 then 'zz' when id < 30 then 'x' end from range(40)")
    run_sql(conn, f"create table {CHAR5} (c char(5), w string) using parquet")
    run_sql(conn, f"insert into {CHAR5} values ('zz', 'w1'), ('x', 'w2'), ('zz  ', 'w3'), (null, 'w4')")
    # a string key: 'zz' and 'zz ' (what char(3) reads 'zz' as), 'x' and 'x  ', '   ', NULL
    run_sql(conn, f"create table {PADDED} (c string, w string) using parquet")
    run_sql(conn, f"insert into {PADDED} values ('zz', 's1'), ('zz ', 's2'), ('x', 's3'), ('x  ', 's4'), "
                  "('   ', 's5'), (null, 's6')")  # fmt: skip
    try:
        yield inputs_built
    finally:
        for table in (CHAR3, CHAR5, PADDED):
            run_sql(conn, f"drop table if exists {table}")


@pytest.mark.parametrize("join_type", ["inner", "left", "right", "full", "left semi", "left anti"])
def test_a_char_key_joined_to_a_string_key_routes_alike_on_both_sides(
    char_keys: DbtProject, compile_inline: Callable[..., Any], join_type: str
) -> None:
    """Spark pads a string literal compared with a char(3) key ('zz' is 'zz '), not a string column: the hot
    keys, the groups' `when` and the placed slots compare both sides' keys without trailing spaces, so the
    char side's 'zz ' and the string side's 'zz ' (which the join matches) take the same branch and slot.
    They took different ones: 25 of the 75 rows of an inner join came back."""
    columns = '["a.id", "a.c", "b.w"]' if join_type not in ("left semi", "left anti") else '["a.id", "a.c"]'
    specs = [
        "{'hot_keys': {'a': ['zz']}, 'verify': false}",
        "{'hot_keys': {'a': ['zz'], 'b': ['x']}, 'verify': false}",
        "{'groups': [{'when': \"a.c = 'zz'\", 'slots': 3}], 'total_slots': 8, 'verify': false}",
        "{'groups': [{'when': \"a.c = 'zz'\", 'slots': 3, 'distribute': 'keys'}], 'total_slots': 8, 'verify': false}",
    ]
    if join_type in ("full", "right"):  # b preserved: no group of a multicasts it
        specs = [specs[3], "{'hot_keys': {'a': ['zz']}, 'verify': false}"]
    plain_columns = columns.strip("[]").replace('"', "")
    plain = f"select {plain_columns} from {CHAR3} as a {join_type} join {PADDED} as b on a.c = b.c"
    conn = char_keys.conn
    assert run_sql(conn, f"select count(*) from {CHAR3} as a inner join {PADDED} as b on a.c = b.c")[0][0] == 30
    for spec in specs:
        call = (f'{{{{ skewjoin.skew_join("{CHAR3}", "{PADDED}", on=["c"], join_type="{join_type}", '
                f"columns={columns}, skew={spec}) }}}}")  # fmt: skip
        sql = inline_compiled_sql(compile_inline(call))
        assert "strategy: plain join" not in sql.split("*/")[0], sql
        assert_same_rows(conn, strip_record(sql), plain)
    # two string keys: 'zz' and 'zz ' are two keys of the join, which routing puts in one branch
    string_plain = f"select {plain_columns} from {PADDED} as a {join_type} join {PADDED} as b on a.c = b.c"
    for spec in specs:
        call = (f'{{{{ skewjoin.skew_join("{PADDED}", "{PADDED}", on=["c"], join_type="{join_type}", '
                f"columns={columns.replace('a.id', 'a.w')}, skew={spec}) }}}}")  # fmt: skip
        sql = inline_compiled_sql(compile_inline(call))
        assert "strategy: plain join" not in sql.split("*/")[0], sql
        assert_same_rows(conn, strip_record(sql), string_plain.replace("a.id", "a.w"))
    if join_type in ("inner", "left"):
        # skew_join_chain: the string side joined twice to the char side's groups and hot keys
        for spec in (specs[0], specs[2]):
            chain = (f"{{{{ skewjoin.skew_join_chain('{CHAR3}', [{{'relation': '{PADDED}', 'alias': 'b', "
                     f"'join_type': '{join_type}'}}, {{'relation': '{PADDED}', 'alias': 'c', 'join_type': 'left'}}], "
                     f"on=['c'], columns=['a.id', 'a.c', 'b.w', 'c.w as cw'], skew={spec}) }}}}")  # fmt: skip
            sql = inline_compiled_sql(compile_inline(chain))
            assert "strategy: plain join" not in sql.split("*/")[0], sql
            plain_chain = (f"select a.id, a.c, b.w, c.w as cw from {CHAR3} as a {join_type} join {PADDED} as b "
                           f"on a.c = b.c left join {PADDED} as c on a.c = c.c")  # fmt: skip
            assert_same_rows(conn, strip_record(sql), plain_chain)


@pytest.mark.parametrize("join_type", ["inner", "left"])
def test_char_keys_of_two_lengths_meet_in_one_slot(
    char_keys: DbtProject, compile_inline: Callable[..., Any], join_type: str
) -> None:
    """skew_join with a skew group, and skew_join_chain: the rows outside the group take the slot of their
    padded key, so 'x  ' (char(3)) meets 'x    ' (char(5)) as in the plain join."""
    spec = "{'groups': [{'when': \"a.c = 'zz'\", 'slots': 2}], 'total_slots': 6, 'verify': false}"
    pair = (f'{{{{ skewjoin.skew_join("{CHAR3}", "{CHAR5}", on=["c"], join_type="{join_type}", '
            f'columns=["a.id", "a.c", "b.w"], skew={spec}) }}}}')  # fmt: skip
    chain = (f"{{{{ skewjoin.skew_join_chain('{CHAR3}', [{{'relation': '{CHAR5}', 'alias': 'b', "
             f"'join_type': '{join_type}'}}, {{'relation': '{CHAR5}', 'alias': 'c', 'join_type': 'left'}}], "
             f"on=['c'], columns=['a.id', 'a.c', 'b.w', 'c.w as cw'], skew={spec}) }}}}")  # fmt: skip
    plain_pair = f"select a.id, a.c, b.w from {CHAR3} as a {join_type} join {CHAR5} as b on a.c = b.c"
    plain_chain = (f"select a.id, a.c, b.w, c.w as cw from {CHAR3} as a {join_type} join {CHAR5} as b on a.c = b.c "
                   f"left join {CHAR5} as c on a.c = c.c")  # fmt: skip
    conn = char_keys.conn
    assert run_sql(conn, f"select count(*) from ({plain_pair}) as t where w = 'w2'")[0][0] == 10
    for call, plain in ((pair, plain_pair), (chain, plain_chain)):
        sql = inline_compiled_sql(compile_inline(call))
        assert "slots" in sql.split("*/")[0], sql
        assert_same_rows(conn, strip_record(sql), plain)


LCASE_LEFT = "select k collate utf8_lcase as k, id from values ('A', 1), ('a', 2), ('B', 3), ('b', 4), ('a', 5) as t(k, id)"
LCASE_RIGHT = "select k collate utf8_lcase as k, w from values ('a', 'w1'), ('B', 'w2'), ('c', 'w3') as t(k, w)"


def test_a_collated_key_is_refused_and_its_right_form_joins(
    inputs_built: DbtProject, compile_inline: Callable[..., Any]
) -> None:
    """utf8_lcase matches 'A' to 'a', which the slots' hash and the hot keys' literals do not: refused, with
    a right form that joins on the key in the default collation (DESCRIBE QUERY: string collate UTF8_BINARY,
    the plain string). That form's skew plan equals its plain join."""
    call = (f'{{{{ skewjoin.skew_join("{LCASE_LEFT}", "{LCASE_RIGHT}", on=["k"], columns=["a.id", "b.w"], '
            "skew={'hot_keys': ['a'], 'verify': false}) }}")  # fmt: skip
    message = error_text(compile_inline(call, expect_failure=True))
    assert "a collated key is not supported" in message and "collate utf8_binary" in message, message
    left = f"select lower(k) collate utf8_binary as k, id from ({LCASE_LEFT}) as t"
    right = f"select lower(k) collate utf8_binary as k, w from ({LCASE_RIGHT}) as t"
    fixed = (f'{{{{ skewjoin.skew_join("{left}", "{right}", on=["k"], columns=["a.id", "b.w"], '
             "skew={'hot_keys': ['a'], 'verify': false}) }}")  # fmt: skip
    sql = inline_compiled_sql(compile_inline(fixed))
    assert "hot keys of a (declared): a" in sql, sql
    plain = f"select a.id, b.w from ({left}) as a inner join ({right}) as b on a.k = b.k"
    assert_same_rows(inputs_built.conn, strip_record(sql), plain)


HOSTILE_PARTS = f"{SCHEMA}.key_readings_hostile_parts"
HOSTILE_KEYS = f"{SCHEMA}.key_readings_hostile_keys"


def test_pruning_keeps_hostile_string_keys_in_either_literal_mode(
    inputs_built: DbtProject, compile_inline: Callable[..., Any]
) -> None:
    """A partition key holding a quote, a backslash or `${`: the predicate keeps their partitions with
    spark.sql.parser.escapedStringLiterals off and on. With it on Spark keeps a literal's backslashes as
    written, and the backslash-escaped IN list ('it\\'s', 'a\\\\b') matched neither: 1 row of 3."""
    conn = inputs_built.conn
    for table in (HOSTILE_PARTS, HOSTILE_KEYS):
        run_sql(conn, f"drop table if exists {table}")
    # the values are built from char() codes, so the tables do not depend on the literal mode
    values = ["concat('it', char(39), 's')", "concat('a', char(92), 'b')", "concat('x', char(36), '{env:HOME}')",
              "'plain'", "'other'"]  # fmt: skip
    run_sql(conn, f"create table {HOSTILE_PARTS} (v int, p string) using parquet partitioned by (p)")
    run_sql(conn, f"insert into {HOSTILE_PARTS} " + " union all ".join(f"select {i}, {v}" for i, v in enumerate(values)))
    run_sql(conn, f"create table {HOSTILE_KEYS} (p string, keep boolean) using parquet")
    run_sql(conn, f"insert into {HOSTILE_KEYS} " + " union all ".join(
        f"select {v}, {str(i < 4).lower()}" for i, v in enumerate(values)))  # fmt: skip
    try:
        call = (f"select b.v, b.p from {HOSTILE_PARTS} as b where {{{{ skewjoin.prune_predicate('{HOSTILE_PARTS}', "
                f"'b', [{{'relation': '{HOSTILE_KEYS}', 'filter': 'keep', 'on': ['p']}}]) }}}}")  # fmt: skip
        sql = inline_compiled_sql(compile_inline(call))
        assert "4 kept by the literal predicate" in sql.split("*/")[0], sql
        assert "\\" not in strip_record(sql), sql
        plain = f"select b.v, b.p from {HOSTILE_PARTS} as b where b.p in (select p from {HOSTILE_KEYS} where keep)"
        assert assert_same_rows(conn, strip_record(sql), plain) == 4
        with session_settings(conn, {"spark.sql.parser.escapedStringLiterals": "true"}):
            assert assert_same_rows(conn, strip_record(sql), plain) == 4
    finally:
        for table in (HOSTILE_PARTS, HOSTILE_KEYS):
            run_sql(conn, f"drop table if exists {table}")

"""skew_join's planning rules, read from what the macro compiles (no Spark):
the seed's slot layout, percent rounding, the type two keys are compared in,
and the shape of the generated query."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .golden import stable
from .harness import RaisedCompilerError, Renderer, Table, decision_record, fake_partition, strip_record
from .model_cases import render

# -- the seed's layout (HIVE-3286: 20 reducers, groups of 10%, 20%, 40%) ----------------


def test_seed_example_layout() -> None:
    """The seed's example, rendered from the integration model itself: groups
    of 10%, 20% and 40% of 20 slots take #6-#7, #8-#11 and #12-#19; the rows
    in no group take #0-#5."""
    case = render("sj_seed_three_groups")
    r, sql = case.renderer, case.sql
    record = decision_record(sql, "skew_join")
    assert "rows in no group: slots #0-#5" in record
    assert re.search(r"group 1 .*-> slots #6-#7", record)
    assert re.search(r"group 2 .*-> slots #8-#11", record)
    assert re.search(r"group 3 .*-> slots #12-#19", record)
    # one slotting CTE per side, one arm per group: b rows of group 1 are
    # multicast to the group's two slots only, a rows of group 2 to its four
    a_slotted = sql[sql.index("a_slotted as (") : sql.index("b_grouped as (")]
    b_slotted = sql[sql.index("b_slotted as (") :]
    # group 1 names its key ('0'): its slots take values placed on distinct
    # shuffle partitions, with #6-#7 for any other key (both sides alike)
    placed = re.search(r"when 1 then case rtrim\(a\.`key`\)\s+when '0' then array\(element_at\(array\((\d+), (\d+)\), "
                       r"cast\(pmod\(pmod\(xxhash64\(a\.`key`, a\.`value`\), 2\) \+ spark_partition_id\(\), 2\) as int\) \+ 1\)\)\s+"
                       r"else array\(6 \+ pmod\(pmod\(xxhash64\(", a_slotted)
    assert placed, a_slotted
    assert re.search(r"when 1 then case rtrim\(b\.`key`\)\s+when '0' then array\(" + placed.group(1) + ", " + placed.group(2)
                     + r"\)\s+else sequence\(6, 7\)", b_slotted), b_slotted
    assert "when 2 then sequence(8, 11)" in a_slotted
    # a string key hashed without its trailing spaces (char keys of two lengths compare padded)
    assert re.search(r"when 3 then array\(12 \+ pmod\(xxhash64\(rtrim\(a\.`key`\)\), 8\)\)", a_slotted)
    assert "else array(pmod(xxhash64(rtrim(a.`key`)), 6))" in a_slotted
    assert "when 2 then array(8 + pmod(xxhash64(upper(b.key)), 4))" in b_slotted
    assert re.search(r"when 3 then array\(12 \+ pmod\(xxhash64\(rtrim\(b\.`key`\)\), 8\)\)", b_slotted)
    # each side is read once: no CTE per group
    assert sql.count("from a_input as a") == 1 and sql.count("from b_input as b") == 1
    # the join matches on the keys and the slot
    assert re.search(r"on a\.`key` = b\.`key`\s+and a\.sj_slot = b\.sj_slot", sql)
    assert r.logs and r.logs[0].startswith("skewjoin.skew_join decision record (model sj_seed_three_groups): ")


# -- percent sizes round half up ----------------------------------------------------------

ROUNDING = [
    # percent, total slots, slots (half up, at least one)
    (12.5, 20, 3), (7.5, 20, 2), (2.5, 20, 1), (17.5, 20, 4), (0.1, 20, 1), (10, 20, 2), (40, 20, 8),
    (0.25, 200, 1), (0.75, 200, 2), (33.3, 200, 67), (12.5, 8, 1), (37.5, 8, 3),
]  # fmt: skip


@pytest.mark.parametrize(("percent", "total", "slots"), ROUNDING, ids=[f"{p}%_of_{t}" for p, t, _ in ROUNDING])
def test_percent_sizes_round_half_up(renderer: Callable[..., Renderer], percent: float, total: int, slots: int) -> None:
    """12.5% of 20 slots is 2.5 slots: 3, not Jinja's round-half-to-even 2."""
    r = renderer("typed_left", "typed_right")
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], columns=['a.id', 'b.rid'], "
        f"skew={{'total_slots': {total}, 'groups': [{{'when': 'a.k_int = 0', 'percent': {percent}}}]}}) }}}}"
    )
    first = total - slots
    assert f"{percent}% of {total} = {slots} slots -> slots #{first}-#{total - 1}" in decision_record(sql, "skew_join")
    assert f"rows in no group: slots #0-#{first - 1}" in sql


def test_total_slots_come_from_the_spec_then_the_var_then_the_session() -> None:
    for case_id, slots in (("slots_total_from_spec", 10), ("slots_total_from_var", 20), ("slots_total_from_session", 48)):
        sql = render(case_id).sql
        assert f"rows in no group: slots #0-#{slots - 3}" in sql and f"-> slots #{slots - 2}-#{slots - 1}" in sql
    assert "set spark.sql.shuffle.partitions" in render("slots_total_from_session").queries


# -- the type two keys are compared in ----------------------------------------------------

# (left, right, ANSI on, ANSI off): the type Spark's own equality compares
# them in (test_skew_join.py::test_common_key_type_matches_spark checks the
# same pairs against Spark's analyzer); None: refused at compile time.
TYPE_RULES = [
    ("tinyint", "int", "int", "int"),
    ("smallint", "bigint", "bigint", "bigint"),
    ("int", "bigint", "bigint", "bigint"),
    ("int", "decimal(10,2)", "decimal(12,2)", "decimal(12,2)"),
    ("bigint", "decimal(18,4)", "decimal(24,4)", "decimal(24,4)"),
    ("decimal(10,2)", "decimal(18,4)", "decimal(18,4)", "decimal(18,4)"),
    ("decimal(38,0)", "decimal(38,10)", "decimal(38,0)", "decimal(38,0)"),
    ("int", "double", "double", "double"),
    ("int", "float", "double", "float"),
    ("float", "double", "double", "double"),
    ("decimal(10,2)", "double", "double", "double"),
    ("string", "int", "bigint", "int"),
    ("string", "bigint", "bigint", "bigint"),
    ("string", "double", "double", "double"),
    ("string", "boolean", "boolean", "boolean"),
    ("date", "timestamp", "timestamp", "timestamp"),
    ("string", "string", "string", "string"),
    ("date", "date", "date", "date"),
    ("string", "decimal(10,2)", "double", None),
    ("date", "int", None, None),
    ("boolean", "int", None, None),
]


# Spark compares timestamp with timestamp_ntz as timestamp, date and string with it as timestamp_ntz (checked on
# Spark 4.3: typeof(coalesce(...))); the skew plans do not route timestamp_ntz keys, and the way out casts the
# side that is not already in Spark's comparison type, which keeps the join's matches
NTZ_PAIRS = [
    ("timestamp", "timestamp_ntz", "right", "timestamp"),
    ("timestamp_ntz", "timestamp", "left", "timestamp"),
    ("date", "timestamp_ntz", "left", "timestamp_ntz"),
    ("timestamp_ntz", "date", "right", "timestamp_ntz"),
    ("string", "timestamp_ntz", "left", "timestamp_ntz"),
]


@pytest.mark.parametrize(("left", "right", "side", "compared"), NTZ_PAIRS, ids=[f"{p[0]}-{p[1]}" for p in NTZ_PAIRS])
def test_a_timestamp_ntz_key_joined_to_another_type_is_refused_with_the_cast_spark_compares_in(
    renderer: Callable[..., Renderer], left: str, right: str, side: str, compared: str
) -> None:
    """The refusal said these types were ones "Spark cannot compare consistently", which Spark does, and its
    right form cast the left key to the right's type: a timestamp cast to timestamp_ntz can make two instants
    (the autumn clock change) one local time, and match more rows than the plain join."""
    tables = {"l": Table([("id", "int"), ("k", left)]), "r": Table([("k", right), ("v", "int")])}
    r = renderer(extra_tables=tables, model="orders")
    call = "{{ skewjoin.skew_join(%s, %s, on=['k'], skew={'groups': [{'when': 'a.k is not null', 'slots': 2}]}) }}"
    message = r.compile_error(call % ("'l'", "'r'"))
    assert "cannot compare" not in message
    assert "a key of timestamp_ntz joined to another type is not supported" in message
    assert f"Spark compares these two as {compared}: cast {side}'s key to {compared} in a subquery" in message
    cast = f"select cast(k as {compared}) as k, * except (k) from {side[0]}"
    assert f'Right form, for example: {side}="{cast}"' in message
    # the right form compiles, the keys now of Spark's comparison type on both sides
    fixed = renderer(extra_tables={**tables, cast: Table([("k", compared)] + [c for c in tables[side[0]].columns if c[0] != "k"])})
    args = ("'l'", repr(cast)) if side == "right" else (repr(cast), "'r'")
    assert "skewjoin.skew_join decision record" in fixed.render(call % args)


@pytest.mark.parametrize("ansi", [True, False], ids=["ansi_on", "ansi_off"])
@pytest.mark.parametrize(("left", "right", "on", "off"), TYPE_RULES, ids=[f"{r[0]}-{r[1]}" for r in TYPE_RULES])
def test_keys_are_compared_in_spark_common_type(
    renderer: Callable[..., Renderer], left: str, right: str, on: str | None, off: str | None, ansi: bool
) -> None:
    expected = on if ansi else off
    r = renderer(
        extra_tables={"l": Table([("id", "int"), ("k", left)]), "r": Table([("k", right), ("v", "int")])},
        conf={"spark.sql.ansi.enabled": "true" if ansi else "false"},
    )
    call = "{{ skewjoin.skew_join('l', 'r', on=['k'], skew={'groups': [{'when': 'a.k is not null', 'slots': 2}]}) }}"
    if expected is None:
        message = r.compile_error(call)
        assert f"have types Spark cannot compare consistently (ANSI mode {'on' if ansi else 'off'})" in message
        return
    sql = r.render(call)
    line = f"a.k ({left}) = b.k ({right})" + (f", compared as {expected}" if left != right else "")
    assert line + "; skew specification" in decision_record(sql, "skew_join")

    def cast(alias: str, declared: str) -> str:
        if declared == expected or (declared == "string" and expected == "string"):
            return f"{alias}.k"
        # a string as Spark's equality reads it: try_cast with ANSI on (a value it cannot read fails the plain
        # join), cast with ANSI off (its legacy reading: '1.9' is the int 1, where try_cast reads NULL)
        return f"{'try_cast' if declared == 'string' and ansi else 'cast'}({alias}.k as {expected})"

    # the group's `when` and the keys hash see the keys in that type (a string without its trailing spaces,
    # which Spark pads in comparing a char key), on both sides
    for alias, declared in (("a", left), ("b", right)):
        routed = f"rtrim({cast(alias, declared)})" if expected == "string" else cast(alias, declared)
        assert f"when ({routed}) is not null then 1" in sql
        assert f"pmod(xxhash64({routed}), 18)" in sql
    # the join itself compares the columns as declared (Spark casts them)
    assert "on a.k = b.k" in sql


def test_same_join_compiles_to_identical_salts(renderer: Callable[..., Renderer]) -> None:
    call = (
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
        "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}, {'when': 'b.k_int = 7', 'slots': 3}]}) }}"
    )
    first = renderer("typed_left", "typed_right").render(call)
    second = renderer("typed_left", "typed_right").render(call)
    # the seconds the record's last line reports are the one part that is not a function of the inputs
    assert stable(first) == stable(second)
    assert "pmod(xxhash64(a.id, a.k_int" in first and ", 4) + spark_partition_id(), 4)" in first


def test_the_plain_join_when_nothing_is_skewed() -> None:
    sql = render("plain_join_nothing_skewed").sql
    assert "strategy: plain join" in sql
    body = strip_record(sql)
    assert body.startswith("select\n    a.id,")
    assert "from skewjoin_it.typed_left as a\nleft outer join skewjoin_it.typed_right as b\n    on a.k_int = b.k_int" in body
    # default columns: every column of a, the non-key columns of b, clashes renamed
    assert "b.region as b_region" in body and "b.k_int" not in body.split("on a.k_int")[0]


def test_default_columns_rename_a_clash_to_a_free_name(renderer: Callable[..., Renderer]) -> None:
    """a has `region` and `b_region`: b's `region` cannot become b_region (Spark would
    fail with COLUMN_ALREADY_EXISTS); the one output builder takes b_region_2."""
    r = renderer("typed_left_b_region", "typed_right")
    sql = r.render("{{ skewjoin.skew_join(ref('typed_left_b_region'), ref('typed_right'), on=['k_int'], "
                   "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}) }}")
    select_list = strip_record(sql).split("from b_slotted")[0]
    assert "b.region as b_region_2" in select_list
    assert "a.b_region" in select_list and "as b_region," not in select_list
    assert "region -> b_region_2" in sql


def test_star_join_renames_a_clash_to_a_free_name(renderer: Callable[..., Renderer]) -> None:
    """The fact has `region` and `s_region`; the dimension s's `region` becomes s_region_2
    (star_join refused this before the one output builder)."""
    fact = Table([("sale_id", "bigint"), ("store_id", "bigint"), ("region", "string"), ("s_region", "string")],
                 stats_bytes=1_000_000)
    r = renderer("star_stores", extra_tables={"skewjoin_it.star_sales_regions": fact})
    sql = r.render("{{ skewjoin.star_join(ref('star_sales_regions'), [{'relation': ref('star_stores'), "
                   "'alias': 's', 'on': ['store_id']}]) }}")
    assert "s.region as s_region_2" in strip_record(sql)
    assert "s.region -> s_region_2" in sql


def test_parse_time_runs_no_query() -> None:
    """With execute false (dbt parse), valid SQL and no query at all."""
    case = render("sj_parse_time")
    assert case.sql == "select * from skewjoin_it.typed_left as a cross join skewjoin_it.typed_right as b"
    assert case.queries == []


def test_refused_types_are_refused_before_any_plan(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right")
    with pytest.raises(RaisedCompilerError):
        r.render("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=[['k_date', 'k_int']]) }}")
    assert all(q.startswith(("describe query", "set ")) for q in r.spark.queries), r.spark.queries


# -- slot placement: a named key's slots on distinct shuffle partitions ------------------

PLACED = re.compile(r"when (?P<lit>[^\n]+?) then array\((?P<values>[\d,\s]+)\)")


def _placed_values(sql: str, side: str = "b") -> dict[str, list[int]]:
    """The multicast side's placed slot values, per key literal."""
    slotted = sql[sql.index(f"{side}_slotted as (") :]
    return {m["lit"]: [int(v) for v in m["values"].split(",")] for m in PLACED.finditer(slotted)}


def test_placed_slots_take_distinct_partitions_across_keys() -> None:
    """Two groups naming three keys, 150 slots on 200 partitions: no two slots share a partition
    (by the fake Spark's hash), and the driver picks its slot among the same values."""
    case = render("placement_distinct_across_keys")
    r, sql = case.renderer, case.sql
    placed = _placed_values(sql)
    assert list(placed) == ["cast(0 as int)", "cast(7 as int)", "cast(-3 as int)"], placed
    assert [len(v) for v in placed.values()] == [60, 60, 30]
    partitions = [fake_partition(i, v, 200) for i, values in enumerate(placed.values()) for v in values]
    assert len(set(partitions)) == 150, "two slots share a partition"
    for values in placed.values():
        assert len(set(values)) == len(values) and all(0 <= v < 1600 for v in values)
    # the driver side picks the row's slot among the key's values; any other key of the group keeps #start-#end
    a_slotted = sql[sql.index("a_slotted as (") : sql.index("b_grouped as (")]
    assert "when 1 then case a.k_int" in a_slotted and "element_at(array(" in a_slotted
    assert re.search(r"else 110 \+ pmod\(pmod\(xxhash64\(", a_slotted), a_slotted
    assert re.search(r"else sequence\(110, 169\)", sql[sql.index("b_slotted as (") :])
    # one placement query, with 8 x 200 candidate values
    placement = [q for q in r.spark.queries if "sj_candidates" in q]
    assert len(placement) == 1 and "range(0, 1600)" in placement[0]


def test_more_slots_than_free_partitions_share_the_fewest() -> None:
    """12 partitions for two keys of 8 slots: each key's slots still take 8 distinct partitions;
    the second key shares 4 with the first, and the record says so."""
    sql = render("placement_shares_the_fewest").sql
    placed = list(_placed_values(sql).values())
    first = {fake_partition(0, v, 12) for v in placed[0]}
    second = {fake_partition(1, v, 12) for v in placed[1]}
    assert len(first) == 8 and len(second) == 8 and len(first & second) == 4


def test_slots_outnumbering_the_partitions_keep_their_numbers() -> None:
    sql = render("placement_slots_outnumber_partitions").sql
    assert "when 1 then sequence(14, 19)" in sql and "element_at" not in sql


def test_placement_reads_the_partitions_aqe_starts_from() -> None:
    for case_id, partitions in (("placement_aqe_initial_partitions", 64), ("placement_aqe_off", 200)):
        case = render(case_id)
        (query,) = [q for q in case.queries if "sj_candidates" in q]
        assert f"pmod(hash(sj_keys.sj_literal, sj_candidates.id), {partitions})" in query


@pytest.mark.parametrize(
    ("when", "extra", "why"),
    [
        ("a.k_int > 0", "", "a `when` that names no key value"),
        ("a.k_int = 1", ", 'distribute': 'keys'", "keys distribution (nothing to spread)"),
        ("a.k_int = 1", ", 'slots': 1", "one slot"),
    ],
    ids=["range", "distribute_keys", "one_slot"],
)
def test_no_placement_where_nothing_is_named_or_spread(
    renderer: Callable[..., Renderer], when: str, extra: str, why: str
) -> None:
    r = renderer("typed_left", "typed_right")
    group = "{'when': '" + when + "', 'slots': 4" + extra + "}"
    sql = r.render("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
                   "skew={'groups': [" + group + "]}) }}")
    assert "placed on" not in sql and "element_at" not in sql, why
    assert not [q for q in r.spark.queries if "sj_candidates" in q], why


def test_placement_literals_are_typed_and_escaped(renderer: Callable[..., Renderer]) -> None:
    """String and date keys: the placement query and the `case` compare the key in its type;
    a hostile string stays one literal."""
    r = renderer("typed_left", "typed_right")
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_date'], "
        "skew={'groups': [{'when': \"a.k_date = '2024-01-01'\", 'slots': 3}]}) }}"
    )
    assert "when cast('2024-01-01' as date) then array(" in sql
    (query,) = [q for q in r.spark.queries if "sj_candidates" in q]
    assert "values (0, cast('2024-01-01' as date))" in query
    r = renderer("typed_left", "typed_right")
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_str'], "
        "skew={'groups': [{'when': \"a.k_str = 'x--y;${z}'\", 'slots': 3}]}) }}"
    )
    (query,) = [q for q in r.spark.queries if "sj_candidates" in q]
    assert "${" not in query, query
    assert "when rtrim(concat('x--y;', chr(36), '{z}')) then array(" in sql, sql

"""skew_join's planning rules, read from what the macro compiles (no Spark):
the seed's slot layout, percent rounding, the type two keys are compared in,
and the shape of the generated query."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .harness import Renderer, RaisedCompilerError, Table, decision_record, strip_record

# -- the seed's layout (HIVE-3286: 20 reducers, groups of 10%, 20%, 40%) ----------------


def test_seed_example_layout(renderer: Callable[..., Renderer]) -> None:
    """The seed's example, rendered from the integration model itself: groups
    of 10%, 20% and 40% of 20 slots take #6-#7, #8-#11 and #12-#19; the rows
    in no group take #0-#5."""
    r = renderer("src", model="sj_seed_three_groups")
    sql = r.render_model("models/skew_join/sj_seed_three_groups.sql")
    record = decision_record(sql, "skew_join")
    assert "total slots 20 (from skew_join.total_slots)" in record
    assert "rows in no group: slots #0-#5" in record
    assert re.search(r"group 1 .*driver a, 10(\.0)?% of 20 = 2 slots -> slots #6-#7, distribute random", record)
    assert re.search(r"group 2 .*driver b, 20(\.0)?% of 20 = 4 slots -> slots #8-#11, distribute expression", record)
    assert re.search(r"group 3 .*driver a, 40(\.0)?% of 20 = 8 slots -> slots #12-#19, distribute keys", record)
    # one slotting CTE per side, one arm per group: b rows of group 1 are
    # multicast to the group's two slots only, a rows of group 2 to its four
    a_slotted = sql[sql.index("a_slotted as (") : sql.index("b_grouped as (")]
    b_slotted = sql[sql.index("b_slotted as (") :]
    assert re.search(r"when 1 then array\(6 \+ pmod\(xxhash64\(", a_slotted)
    assert "when 2 then sequence(8, 11)" in a_slotted
    assert re.search(r"when 3 then array\(12 \+ pmod\(xxhash64\(a\.`key`\), 8\)\)", a_slotted)
    assert "else array(pmod(xxhash64(a.`key`), 6))" in a_slotted
    assert "when 1 then sequence(6, 7)" in b_slotted
    assert "when 2 then array(8 + pmod(xxhash64(upper(b.key)), 4))" in b_slotted
    assert re.search(r"when 3 then array\(12 \+ pmod\(xxhash64\(b\.`key`\), 8\)\)", b_slotted)
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


def test_total_slots_come_from_the_spec_then_the_var_then_the_session(renderer: Callable[..., Renderer]) -> None:
    call = (
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
        "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 2}]" + "%s}) }}"
    )
    sql = renderer("typed_left", "typed_right").render(call % ", 'total_slots': 10")
    assert "total slots 10 (from skew_join.total_slots)" in sql
    sql = renderer("typed_left", "typed_right").render(call % "")
    assert "total slots 20 (from var('skewjoin_total_slots'))" in sql
    r = renderer("typed_left", "typed_right", vars={"skewjoin_total_slots": None}, conf={"spark.sql.shuffle.partitions": "48"})
    sql = r.render(call % "")
    assert "total slots 48 (from spark.sql.shuffle.partitions)" in sql
    assert "set spark.sql.shuffle.partitions" in r.spark.queries


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
        return f"{'try_cast' if declared == 'string' else 'cast'}({alias}.k as {expected})"

    # the group's `when` and the keys hash see the keys in that type, on both sides
    for alias, declared in (("a", left), ("b", right)):
        assert f"when ({cast(alias, declared)}) is not null then 1" in sql
        assert f"pmod(xxhash64({cast(alias, declared)}), 18)" in sql
    # the join itself compares the columns as declared (Spark casts them)
    assert "on a.k = b.k" in sql


def test_same_join_compiles_to_identical_salts(renderer: Callable[..., Renderer]) -> None:
    call = (
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
        "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}, {'when': 'b.k_int = 7', 'slots': 3}]}) }}"
    )
    first = renderer("typed_left", "typed_right").render(call)
    second = renderer("typed_left", "typed_right").render(call)
    assert first == second
    assert "pmod(xxhash64(a.id, a.k_int" in first


def test_the_plain_join_when_nothing_is_skewed(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right")
    sql = r.render("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='left outer') }}")
    assert "strategy: plain join (no skew groups and no hot keys)" in sql
    body = strip_record(sql)
    assert body.startswith("select\n    a.id,")
    assert "from skewjoin_it.typed_left as a\nleft outer join skewjoin_it.typed_right as b\n    on a.k_int = b.k_int" in body
    # default columns: every column of a, the non-key columns of b, clashes renamed
    assert "b.region as b_region" in body and "b.k_int" not in body.split("on a.k_int")[0]
    assert "output columns of b renamed to avoid duplicate names: " in sql


def test_parse_time_runs_no_query(renderer: Callable[..., Renderer]) -> None:
    """With execute false (dbt parse), valid SQL and no query at all."""
    r = renderer("typed_left", "typed_right", execute=False)
    sql = r.render(
        "{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
        "skew={'hot_keys': 'auto', 'groups': [{'when': 'a.k_int = 0', 'slots': 2}]}) }}"
    )
    assert sql == "select * from skewjoin_it.typed_left as a cross join skewjoin_it.typed_right as b"
    assert r.spark.queries == []


def test_refused_types_are_refused_before_any_plan(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left", "typed_right")
    with pytest.raises(RaisedCompilerError):
        r.render("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=[['k_date', 'k_int']]) }}")
    assert all(q.startswith(("describe query", "set ")) for q in r.spark.queries), r.spark.queries

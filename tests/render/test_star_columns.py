"""`columns=['a.*', ...]` under a skew plan: the plan's CTEs carry columns of their own (sj_group, sj_slot),
which `a.*` selected too. With skew groups and hot keys the union's branches then had different column counts
(Spark's NUM_COLUMNS_MISMATCH), and a semi join's output gained the salting columns. A bare `<alias>.*` item
is that side's columns by name; a star inside an expression is refused."""

from __future__ import annotations

from collections.abc import Callable

from .harness import Renderer, assert_clear_compile_error, decision_record, strip_record
from .tables import INPUTS as TABLES

INPUTS = ("typed_left", "typed_right")
SPEC = "{'groups': [{'when': 'a.k_int = 0', 'slots': 4}], 'hot_keys': [7], 'verify': false}"


def _names(table: str) -> list[str]:
    return [c[0] for c in TABLES[table].columns]


def _call(columns: str, join_type: str = "inner") -> str:
    return (f"{{{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], join_type='{join_type}', "
            f"columns={columns}, skew={SPEC}) }}}}")  # fmt: skip


def test_a_star_item_is_the_sides_columns_by_name(renderer: Callable[..., Renderer]) -> None:
    r = renderer(*INPUTS)
    sql = r.render(_call("['a.*', 'b.*']"))
    assert "skew groups: 1" in decision_record(sql, "skew_join") and "hot_a" in sql
    body = strip_record(sql)
    left = _names("typed_left")
    right = _names("typed_right")
    listed = ",\n        ".join([f"a.{c}" for c in left] + [f"b.{c}" for c in right])
    # every branch of the union selects the same list: the hot branch, and the slotted rest
    assert body.count(listed) == 2, body


def test_a_star_item_in_a_semi_join_keeps_the_left_columns_only(renderer: Callable[..., Renderer]) -> None:
    r = renderer(*INPUTS)
    body = strip_record(r.render(_call("['a.*']", "left semi")))
    rest = body.split("rest_joined as (", 1)[1].split("from", 1)[0]
    left = _names("typed_left")
    assert rest.split() == ["select"] + [f"a.{c}," for c in left[:-1]] + [f"a.{left[-1]}"], rest


def test_a_star_inside_an_expression_is_refused(renderer: Callable[..., Renderer]) -> None:
    message = renderer(*INPUTS).compile_error(_call("['struct(a.*) as a_row', 'b.rid']"))
    assert_clear_compile_error(message, "skew_join", "unit_model", "columns", "uses a.* inside an expression")


def test_star_join_renames_a_dimension_column_a_fact_star_already_selects(renderer: Callable[..., Renderer]) -> None:
    """star_join with columns=['f.*'] and a dimension's own `columns`: a dimension column whose name the fact
    has (promo_code) is renamed, as with the fact's columns listed one by one (Spark failed with
    COLUMN_ALREADY_EXISTS)."""
    r = renderer("star_sales", "star_promos")
    dims = "[{'relation': ref('star_promos'), 'alias': 'p', 'on': ['store_id'], 'columns': ['promo_code']}]"
    for columns in ("['f.*']", "['f.sale_id', 'f.promo_code']"):
        body = strip_record(r.render(f"{{{{ skewjoin.star_join(ref('star_sales'), {dims}, columns={columns}) }}}}"))
        assert "p.promo_code as p_promo_code" in body, body


def test_star_join_refuses_keys_spark_cannot_compare(renderer: Callable[..., Renderer]) -> None:
    r = renderer("star_sales", "star_dates")
    message = r.compile_error(
        "{{ skewjoin.star_join(ref('star_sales'), [{'relation': ref('star_dates'), 'alias': 'd', "
        "'on': [['sold_date', 'year']], 'columns': ['month']}]) }}"
    )
    assert_clear_compile_error(message, "star_join", r.model_name, "dims[0].on", "have types Spark cannot compare")


def test_star_join_leaves_a_boolean_against_a_number_to_spark(renderer: Callable[..., Renderer]) -> None:
    """A boolean key against an int key: Spark compares them with ANSI off (a boolean read as 0 or 1), so
    star_join joins them (refused before: the package writes no common type for them)."""
    from .tables import Table

    r = renderer(extra_tables={"flags_fact": Table([("id", "int"), ("flag", "boolean")], stats_bytes=1_000),
                               "flags_dim": Table([("flag_id", "int"), ("label", "string")], stats_bytes=100)})  # fmt: skip
    body = strip_record(r.render("{{ skewjoin.star_join('flags_fact', [{'relation': 'flags_dim', "
                                 "'alias': 'd', 'on': [['flag', 'flag_id']], 'columns': ['label']}]) }}"))
    assert "f.flag = d.flag_id" in body, body

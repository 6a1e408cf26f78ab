"""A relation a macro reads by a name the compiled SQL gives one of its own
CTEs (`a_input`, `sj_<alias>`, ...) would be read as that CTE inside the
WITH clause: the macros refuse it at compile time, with the way out (a
schema-qualified name or ref())."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .harness import Renderer, Table, assert_clear_compile_error


def _tables(**names: list[tuple[str, str]]) -> dict[str, Table]:
    return {name: Table(columns) for name, columns in names.items()}


def test_skew_join_refuses_a_side_that_reads_a_table_named_like_its_cte(renderer: Callable[..., Renderer]) -> None:
    r = renderer(extra_tables={"l": Table([("k", "int"), ("v", "string")]),
                               "select k, w from a_input": Table([("k", "int"), ("w", "string")])},
                 model="orders")  # fmt: skip
    call = "{{ skewjoin.skew_join('l', 'select k, w from a_input', on=['k'], skew={'hot_keys': [1]}) }}"
    message = r.compile_error(call)
    assert_clear_compile_error(message, "skew_join", "orders", "right",
                               "reads `a_input` without a schema, and the SQL this macro compiles defines a CTE")  # fmt: skip
    assert "'my_schema.a_input'" in message


def test_a_comma_join_of_a_table_named_like_a_cte_is_refused(renderer: Callable[..., Renderer]) -> None:
    """`from t, a_input u` reads the CTE as surely as `join a_input`: 499 rows came back for 448."""
    query = "select t.k, t.w from r as t, a_input u where t.k = u.k"
    r = renderer(extra_tables={"l": Table([("k", "int"), ("v", "string")]), query: Table([("k", "int"), ("w", "string")])},
                 model="orders")  # fmt: skip
    message = r.compile_error(f"{{{{ skewjoin.skew_join('l', '{query}', on=['k'], skew={{'hot_keys': [1]}}) }}}}")
    assert_clear_compile_error(message, "skew_join", "orders", "right", "reads `a_input` without a schema")


@pytest.mark.parametrize(
    "query",
    [
        "table a_input",
        "select * from/* the dimension */a_input",
        "select * from -- the dimension\n a_input",
        "select * from (a_input)",
        "select * from identifier('a_input')",
        'select * from IDENTIFIER ( "a_input" )',
        "select k, w from r union all table a_input",
    ],
    ids=["table_statement", "comment_after_from", "line_comment_after_from", "parenthesized", "identifier",
         "identifier_double_quoted", "union_table"],  # fmt: skip
)
def test_every_way_a_query_reads_a_table_named_like_a_cte_is_refused(
    renderer: Callable[..., Renderer], query: str
) -> None:
    """TABLE, a comment between FROM and the name, parentheses and IDENTIFIER('...') read the relation too:
    each compiled, and Spark read the left side's CTE instead (66 rows for the plain join's 10)."""
    r = renderer(extra_tables={"l": Table([("k", "int"), ("v", "string")]), query: Table([("k", "int"), ("w", "string")])},
                 model="orders")  # fmt: skip
    call = "{{ skewjoin.skew_join('l', " + repr(query) + ", on=['k'], skew={'hot_keys': [1]}) }}"
    message = r.compile_error(call)
    assert_clear_compile_error(message, "skew_join", "orders", "right", "reads `a_input` without a schema")


@pytest.mark.parametrize(
    "query",
    [
        "select k, w from r where w <> 'from a_input'",
        "select k, w from r -- not from a_input",
        "select k, w /* table a_input */ from r",
        "select k, `from a_input` as w from r",
        "select k, w from mine.a_input",
        "with a_input as (select k, w from r) select * from a_input",
    ],
    ids=["in_a_literal", "in_a_line_comment", "in_a_comment", "in_a_backticked_name", "schema_qualified",
         "its_own_cte"],  # fmt: skip
)
def test_a_name_that_reads_no_relation_is_not_refused(renderer: Callable[..., Renderer], query: str) -> None:
    r = renderer(extra_tables={"l": Table([("k", "int"), ("v", "string")]), query: Table([("k", "int"), ("w", "string")])})
    sql = r.render("{{ skewjoin.skew_join('l', " + repr(query) + ", on=['k'], skew={'hot_keys': [1]}) }}")
    assert "\na_input as (\n" in sql


def test_a_schema_qualified_name_is_read_as_written(renderer: Callable[..., Renderer]) -> None:
    r = renderer(extra_tables={"l": Table([("k", "int"), ("v", "string")]),
                               "select k, w from mine.a_input": Table([("k", "int"), ("w", "string")])})  # fmt: skip
    sql = r.render("{{ skewjoin.skew_join('l', 'select k, w from mine.a_input', on=['k'], skew={'hot_keys': [1]}) }}")
    assert "\na_input as (\n" in sql and "from mine.a_input" in sql


def test_star_join_refuses_a_dimension_named_like_another_dimensions_cte(renderer: Callable[..., Renderer]) -> None:
    r = renderer(extra_tables={"f": Table([("k", "int"), ("j", "int")], file_bytes=9000), "d": Table([("k", "int"), ("x", "int")], file_bytes=900),
                               "sj_d": Table([("j", "int"), ("y", "int")], file_bytes=900)}, model="orders")  # fmt: skip
    call = ("{{ skewjoin.star_join('f', [{'relation': 'd', 'alias': 'd', 'on': ['k'], 'filter': 'd.x > 0'}, "
            "{'relation': 'sj_d', 'alias': 'e', 'on': ['j']}], prune=false) }}")
    message = r.compile_error(call)
    assert_clear_compile_error(message, "star_join", "orders", "dims[1].relation", "reads `sj_d` without a schema")


def test_prune_predicate_refuses_a_small_relation_named_like_its_key_querys_cte(
    renderer: Callable[..., Renderer],
) -> None:
    """The key query collects each small relation's keys into `sj_keys_<n>` and their intersection into
    `sj_kept`: a small relation read by one of those names would be read as the CTE (and prune by its keys)."""
    r = renderer(extra_tables={"f": Table([("k", "int"), ("v", "int")], file_bytes=9000),
                               "sj_kept": Table([("k", "int"), ("x", "int")], file_bytes=900)},
                 model="orders")  # fmt: skip
    message = r.compile_error("{{ skewjoin.prune_predicate('f', 'f', [{'relation': 'sj_kept', 'alias': 'd', "
                              "'on': ['k'], 'filter': 'd.x > 0'}]) }}")  # fmt: skip
    assert_clear_compile_error(message, "prune_predicate", "orders", "small[0].relation", "reads `sj_kept` without a schema")


def test_a_query_that_defines_the_cte_itself_is_read_as_written(renderer: Callable[..., Renderer]) -> None:
    """A side that is another skew_join's SQL defines `a_input` in its own WITH clause, where its own
    definition is the one Spark reads: not refused."""
    inner = "with a_input as (select k, w from t) select k, w from a_input"
    r = renderer(extra_tables={"l": Table([("k", "int"), ("v", "string")]), inner: Table([("k", "int"), ("w", "string")])})
    sql = r.render("{{ skewjoin.skew_join('l', '" + inner + "', on=['k'], skew={'hot_keys': [1]}) }}")
    assert "\na_input as (\n" in sql and inner in sql

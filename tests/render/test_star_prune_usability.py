"""star_join and prune_predicate as a new user meets them (no Spark).

- a dimension's `columns` combine with the argument `columns`, and accept
  names qualified by the dimension's alias;
- the documented spellings (`left outer`, byte strings like '10MB');
- "did you mean" for near misses of enumerated values and keys;
- the right form a message gives, put in place of the failing value, compiles;
- with var skewjoin_run_queries false nothing but column lists and settings
  is read, and the decision record says what that means;
- the record says that sizes are on disk and points at size_factor.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from .harness import RaisedCompilerError, Renderer, collapse, decision_record, strip_record
from .model_cases import render

STORES = "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id']}"
DATES = "{'relation': ref('prune_dates'), 'on': ['date_key']}"
NO_QUERIES = {"skewjoin_run_queries": False}


def star(r: Renderer, args: str) -> str:
    return r.render("{{ skewjoin.star_join(ref('star_sales'), " + args + ") }}")


def select_list(sql: str) -> list[str]:
    body = strip_record(sql)
    m = re.search(r"select(?: /\*\+.*?\*/)?\n(.*?)\nfrom ", body, flags=re.S)
    assert m, body
    return [c.strip() for c in m.group(1).split(",\n")]


def data_queries(r: Renderer) -> list[str]:
    """Queries other than column lists (DESCRIBE QUERY) and settings (SET)."""
    return [q for q in r.spark.queries if not q.startswith(("describe query", "set "))]


# -- dimension columns ---------------------------------------------------------------------


def test_dimension_columns_follow_the_argument_columns(renderer: Callable[..., Renderer]) -> None:
    r = renderer("star_sales", "star_stores", "star_dates")
    dims = (
        "[{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], 'columns': ['s.store_name', 'region']},"
        " {'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']]}]"
    )
    sql = star(r, dims + ", columns=['f.sale_id', 'f.amount', 'd.year as region']")
    # the argument's expressions first, then the dimension's columns; a name
    # the argument already gives the output (region) is renamed
    assert select_list(sql) == ["f.sale_id", "f.amount", "d.year as region", "s.store_name", "s.region as s_region"]
    assert "s.region -> s_region" in decision_record(sql, "star_join")


def test_dimension_columns_without_the_argument_keep_the_default_for_the_others(
    renderer: Callable[..., Renderer],
) -> None:
    r = renderer("star_sales", "star_stores", "star_dates")
    dims = (
        "[{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], 'columns': ['S.store_name']},"
        " {'relation': ref('star_dates'), 'alias': 'd', 'on': [['sold_date', 'date_key']]}]"
    )
    columns = select_list(star(r, dims))
    assert columns[-4:] == ["s.store_name", "d.`year`", "d.`month`", "d.day_name"]


def test_dimension_columns_qualified_by_another_alias_are_refused(renderer: Callable[..., Renderer]) -> None:
    r = renderer("star_sales", "star_stores")
    message = r.compile_error(
        "{{ skewjoin.star_join(ref('star_sales'), [{'relation': ref('star_stores'), 'alias': 's', "
        "'on': ['store_id'], 'columns': ['f.region']}]) }}"
    )
    assert "argument `dims[0].columns`" in message
    assert "is qualified by 'f', but a dimension's columns belong to that dimension, here named 's'" in message
    assert "Right form, for example: ['s.region']" in message


# -- spellings -----------------------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["left outer", "LEFT OUTER JOIN", "left  join"])
def test_join_type_spellings(renderer: Callable[..., Renderer], spelling: str) -> None:
    r = renderer("star_sales", "star_stores")
    sql = star(r, "[" + STORES[:-1] + ", 'join_type': '" + spelling + "'}]")
    assert "left outer join skewjoin_it.star_stores as s" in sql


@pytest.mark.parametrize(("budget", "bytes_"), [("'10MB'", 10485760), ("'10m'", 10485760), ("'512 KiB'", 524288),
                                                ("'1g'", 1073741824), ("2048", 2048), ("'0'", 0)])
def test_budget_byte_strings(renderer: Callable[..., Renderer], budget: str, bytes_: int) -> None:
    r = renderer("star_sales", "star_stores")
    record = decision_record(star(r, f"[{STORES}], broadcast_budget={budget}"), "star_join")
    assert f"broadcast budget {bytes_} bytes" in record


def test_prune_fallback_defaults_to_range(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_sales", "prune_dates", vars=NO_QUERIES)
    assert r.call("_sj_prune_spec", "prune_predicate", "t", "f", [{"relation": "t2", "on": ["k"]}], "inner",
                  None, None)["fallback"] == "range"  # fmt: skip


# -- did you mean ----------------------------------------------------------------------------


NEAR_MISSES = [
    ("star", f"[{STORES}], shuffle_hint='mrege'", "shuffle_hint", "(did you mean 'merge'?)", {}),
    ("star", f"[{STORES}], analyze='alwyas'", "analyze", "(did you mean 'always'?)", {}),
    ("star", "[" + STORES[:-1] + ", 'broadcast': 'autto'}]", "dims[0].broadcast", "(did you mean 'auto'?)", {}),
    ("star", "[" + STORES[:-1] + ", 'filtre': 'region = 1'}]", "dims[0]", "(did you mean 'filter'?)", {}),
    ("star", "[" + STORES[:-1] + ", 'join_type': 'lefft'}]", "dims[0].join_type", "(did you mean 'left'?)", {}),
    ("star", f"[{STORES}]", "star_join", "(did you mean 'shuffle_hint'?)", {"star_join": {"shufle_hint": "none"}}),
    ("star", "[{'relation': ref('star_stores'), 'alias': 's', 'on': [['store_id', 'store_nme']]}]", "dims[0].on",
     "(did you mean 'store_name'?)", {}),
    ("star", "[" + STORES[:-1] + ", 'columns': ['regoin']}]", "dims[0].columns", "(did you mean 'region'?)", {}),
    ("star", f"[{STORES}], columns=['f.sale_id', 's.store_nam']", "columns", "(did you mean 'store_name'?)", {}),
    ("prune", f"[{DATES}], fallback='rnage'", "fallback", "(did you mean 'range'?)", {}),
    ("prune", "[{'relation': ref('prune_dates'), 'on': ['date_key'], 'fitler': 'year = 1'}]", "small[0]",
     "(did you mean 'filter'?)", {}),
    ("prune", "[{'relation': ref('prune_dates'), 'on': ['date_kye']}]", "small[0].on", "(did you mean 'date_key'?)",
     {}),
]  # fmt: skip


@pytest.mark.parametrize(("macro", "args", "argument", "hint", "config"), NEAR_MISSES,
                         ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(NEAR_MISSES)])  # fmt: skip
def test_near_misses_say_did_you_mean(
    renderer: Callable[..., Renderer], macro: str, args: str, argument: str, hint: str, config: dict
) -> None:
    if macro == "star":
        r = renderer("star_sales", "star_stores", config=config)
        message = r.compile_error("{{ skewjoin.star_join(ref('star_sales'), " + args + ") }}")
    else:
        r = renderer("prune_sales", "prune_dates", config=config)
        message = r.compile_error("{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', " + args + ") }}")
    assert f"argument `{argument}`" in message, message
    assert hint in message, message


# -- the right form compiles ------------------------------------------------------------------

# (id, call with a hole {}, the failing text put in the hole). The example the
# message gives goes in the same hole and must compile. star_join calls use
# prune=false so that a filtered dimension asks no key query of the fake Spark;
# prune_predicate calls compile with compile-time queries off (column lists only).
STAR = "{{ skewjoin.star_join(ref('star_sales'), %s) }}"
STAR_DIM = STAR % "[{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], %s}], prune=false"
PRUNE = "select 1 where {{ skewjoin.prune_predicate(ref('prune_sales'), 'f', %s) }}"
PRUNE_SMALL = PRUNE % "[{'relation': ref('prune_dates'), %s}]"

EXAMPLE_CASES = [
    ("fact_alias", STAR % f"[{STORES}], {{}}", "fact_alias='f x'"),
    ("dim_alias_prefix", STAR % "[{'relation': ref('star_stores'), 'alias': {}, 'on': ['store_id']}]", "'sj_s'"),
    ("dim_alias_taken", STAR % "[{'relation': ref('star_stores'), 'alias': {}, 'on': ['store_id']}]", "'f'"),
    ("dim_join_type", STAR_DIM % "'join_type': {}", "'cross'"),
    ("dim_join_type_typo", STAR_DIM % "'join_type': {}", "'lefft'"),
    ("dim_broadcast", STAR_DIM % "'broadcast': {}", "'yes'"),
    ("dim_forced_right", STAR_DIM % "'join_type': 'right', 'broadcast': {}", "true"),
    ("dim_forced_full", STAR_DIM % "'join_type': 'full', 'broadcast': {}", "true"),
    ("dim_size_factor", STAR_DIM % "'size_factor': {}", "-2"),
    ("dim_on_fact_column", STAR % "[{'relation': ref('star_stores'), 'alias': 's', 'on': {}}]",
     "[['shop_id', 'store_id']]"),
    ("dim_on_dim_column", STAR % "[{'relation': ref('star_stores'), 'alias': 's', 'on': {}}]",
     "[['store_id', 'shop']]"),
    ("dim_on_shape", STAR % "[{'relation': ref('star_stores'), 'alias': 's', 'on': {}}]", "[['store_id']]"),
    # one misspelled name for both sides: the right form replaces it on both
    ("dim_on_both_columns", STAR % "[{'relation': ref('star_stores'), 'alias': 's', 'on': {}}]", "['stor_id']"),
    ("dim_columns_unknown", STAR_DIM % "'columns': {}", "['nope']"),
    ("dim_columns_expression", STAR_DIM % "'columns': {}", "['upper(region)']"),
    ("dim_columns_other_alias", STAR_DIM % "'columns': {}", "['f.region']"),
    ("dim_columns_semi", STAR % "[{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], "
     "'join_type': 'left anti', 'columns': {}}]", "['region']"),
    ("dim_filter_other_alias", STAR_DIM % "'filter': {}", "'f.qty > 1'"),
    ("dim_filter_unknown_column", STAR_DIM % "'filter': {}", "'s.nope = 1'"),
    ("dim_filter_statement", STAR_DIM % "'filter': {}", "\"region = 'EU'; drop table x\""),
    ("dim_unknown_key", STAR % "[{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id'], 'join': 1}]",
     None),
    ("dim_missing_on", STAR % "[{'relation': ref('star_stores'), 'alias': 's'}]", None),
    ("dims_empty", STAR % "{}", "[]"),
    ("columns_alias", STAR % f"[{STORES}], {{}}", "columns=['x.store_name']"),
    ("columns_column", STAR % f"[{STORES}], {{}}", "columns=['s.nope']"),
    ("budget", STAR % f"[{STORES}], {{}}", "broadcast_budget='lots'"),
    ("size_factor", STAR % f"[{STORES}], {{}}", "size_factor=0"),
    ("analyze", STAR % f"[{STORES}], {{}}", "analyze='sometimes'"),
    ("shuffle_hint", STAR % f"[{STORES}], {{}}", "shuffle_hint='broadcast'"),
    ("prune_flag", STAR % f"[{STORES}], {{}}", "prune='yes'"),
    ("prune_join_type", PRUNE % f"[{DATES}], {{}}", "join_type='left'"),
    ("prune_join_type_small", PRUNE_SMALL % "'on': ['date_key'], 'join_type': {}", "'left anti'"),
    ("prune_unknown_join_type", PRUNE % f"[{DATES}], {{}}", "join_type='cross'"),
    ("prune_max_values", PRUNE % f"[{DATES}], {{}}", "max_values=0"),
    ("prune_fallback", PRUNE % f"[{DATES}], {{}}", "fallback='bloom'"),
    ("prune_on_shape", PRUNE_SMALL % "'on': {}", "[['date_key']]"),
    ("prune_big_column_twice", PRUNE_SMALL % "'on': {}", "['date_key', ['date_key', 'year']]"),
    ("prune_not_big_column", PRUNE_SMALL % "'on': {}", "[['date_kye', 'date_key']]"),
    ("prune_not_small_column", PRUNE_SMALL % "'on': {}", "[['date_key', 'dk']]"),
    ("prune_not_either_column", PRUNE_SMALL % "'on': {}", "['date_kye']"),
    ("prune_types", PRUNE_SMALL % "'on': {}", "[['date_key', 'is_weekend']]"),
    ("prune_small_alias", PRUNE_SMALL % "'on': ['date_key'], 'alias': {}", "'f'"),
    ("prune_filter_alias", PRUNE_SMALL % "'on': ['date_key'], 'filter': {}", "'d.year = 2026'"),
    ("prune_big_alias", "select 1 where {{ skewjoin.prune_predicate(ref('prune_sales'), {}, small=[" + DATES
     + "]) }}", "big_alias='sj_f'"),
    ("prune_small_key", PRUNE % "[{'relation': ref('prune_dates'), 'on': ['date_key'], 'filters': 'x'}]", None),
    ("prune_small_empty", PRUNE % "{}", "[]"),
]  # fmt: skip


# Cases whose right form cannot be a value that compiles here; each says why.
NOT_COMPILABLE = {
    "prune_join_type": "a join that keeps every big row cannot be pruned: the way out is dropping the small "
                       "relation, not another join_type (which would prune rows the join returns)",
    "prune_join_type_small": "as prune_join_type, for one small relation's own join_type",
    "dims_empty": "there is no dimension to build the example from; it names a generic table (stores)",
    "prune_small_empty": "there is no small relation to build the example from; it names a generic table (dates)",
}


def _raw_error(r: Renderer, source: str) -> str:
    try:
        out = r.render(source)
    except RaisedCompilerError as exc:
        return str(exc.msg)
    raise AssertionError(f"compiled although it should not:\n{out[:3000]}")


def _example(message: str) -> str:
    text = message.split("Right form, for example:", 1)[1].strip()
    return re.split(r"\s{2,}", text, maxsplit=1)[0].strip()


@pytest.mark.parametrize(
    ("template", "bad"),
    [pytest.param(t, b, id=i, marks=[pytest.mark.xfail(reason=NOT_COMPILABLE[i], strict=True)] if i in NOT_COMPILABLE
                  else []) for i, t, b in EXAMPLE_CASES],
)
def test_the_right_form_compiles(renderer: Callable[..., Renderer], template: str, bad: str | None) -> None:
    tables = ("star_sales", "star_stores", "prune_sales", "prune_dates")
    # None: the failing value is the whole first list entry (a dimension or small relation)
    failing = template.replace("{}", bad) if bad is not None else template
    message = _raw_error(renderer(*tables, vars=NO_QUERIES), failing)
    example = _example(message)
    if bad is None:
        entry = re.search(r"\[(\{.*?\})\]", template)
        assert entry, template
        fixed = template.replace(entry.group(1), example)
    else:
        fixed = template.replace("{}", example)
    r = renderer(*tables, vars=NO_QUERIES)
    try:
        r.render(fixed)
    except Exception as exc:  # noqa: BLE001  (the report names the example and the new failure)
        raise AssertionError(f"the right form {example!r} does not compile:\n{fixed}\n{exc}") from exc


# -- compile-time queries off ---------------------------------------------------------------------


def test_star_join_without_queries_looks_up_no_size_and_broadcasts_only_forced() -> None:
    case = render("use_star_no_queries")
    r, sql = case.renderer, case.sql
    assert data_queries(r) == [], data_queries(r)
    body = strip_record(sql)
    assert "/*+ broadcast(d), merge(s) */" in body
    record = collapse(decision_record(sql, "star_join"))
    assert "size unknown (not looked up: compile-time queries are off (var skewjoin_run_queries: false))" in record
    assert "size queries: none, compile-time queries are off" in record
    assert "only dimensions with broadcast: true are broadcast" in record
    assert "pruning: none, compile-time queries are off" in record
    assert "sj_f as" not in body  # the fact is read whole


def test_prune_predicate_without_queries_gives_true_and_says_so() -> None:
    case = render("use_prune_no_queries")
    r, sql = case.renderer, case.sql
    assert data_queries(r) == [], data_queries(r)
    assert strip_record(sql) == "true"
    record = collapse(decision_record(sql, "prune_predicate"))
    assert "no predicate (true)" in record


def test_queries_off_still_checks_columns(renderer: Callable[..., Renderer]) -> None:
    r = renderer("prune_sales", "prune_dates", vars=NO_QUERIES)
    message = r.compile_error("{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [{'relation': ref('prune_dates'),"
                              " 'on': [['date_key', 'shop']]}]) }}")  # fmt: skip
    assert "'shop' is not a column of prune_dates" in message


# -- memory vs disk ---------------------------------------------------------------------------


def test_record_says_sizes_are_on_disk_with_the_default_factor() -> None:
    record = collapse(decision_record(render("use_star_size_factor_default").sql, "star_join"))
    assert "memory:" in record and "set size_factor" in record
    record = collapse(decision_record(render("use_star_size_factor_5").sql, "star_join"))
    assert "memory:" not in record


def test_a_misspelled_dimension_column_is_replaced_and_the_others_kept(renderer: Callable[..., Renderer]) -> None:
    r = renderer("star_sales", "star_stores")
    dim = STORES[:-1] + ", 'columns': ['store_name', 'regoin']}"
    message = r.compile_error("{{ skewjoin.star_join(ref('star_sales'), [" + dim + "]) }}")
    assert "(did you mean 'region'?)" in message, message
    assert "Right form, for example: ['store_name', 'region']" in message, message


def test_a_left_join_is_never_offered_another_join_type_to_prune(renderer: Callable[..., Renderer]) -> None:
    """Declaring inner for a left join would prune big rows the join returns: the way out is dropping the
    small relation, and the message must not suggest a join_type."""
    r = renderer("prune_sales", "prune_dates")
    message = r.compile_error(
        "{{ skewjoin.prune_predicate(ref('prune_sales'), 'f', [" + DATES + "], join_type='left') }}"
    )
    right_form = message.split("Right form, for example:", 1)[1]
    assert "join_type=" not in right_form and "drop" in right_form and "from small" in right_form, message


@pytest.mark.parametrize(
    ("fact_type", "dim_type", "compared"),
    [("timestamp", "timestamp_ntz", "in a way"), ("string collate UTF8_LCASE", "string collate UTF8_LCASE", "in a way")],
    ids=["timestamp_vs_ntz", "collated_strings"],
)
def test_a_key_pruning_cannot_write_leaves_that_dimension_out_of_the_pruning(
    renderer: Callable[..., Renderer], fact_type: str, dim_type: str, compared: str
) -> None:
    """star_join joins such a key itself (Spark compares it); only pruning, which writes the dimension's keys
    as literals, cannot mirror that comparison: the dimension is joined as written and does not prune the
    fact, and the record says why (prune_predicate, asked for it, refuses it)."""
    from .harness import Table

    r = renderer(extra_tables={"f": Table([("id", "int"), ("k", fact_type)], file_bytes=9000),
                               "d": Table([("k", dim_type), ("x", "int")], file_bytes=900)})  # fmt: skip
    sql = r.render("{{ skewjoin.star_join('f', [{'relation': 'd', 'alias': 'd', 'on': ['k'], 'filter': 'd.x > 0'}], "
                   "columns=['f.id']) }}")  # fmt: skip
    record = decision_record(sql, "star_join")
    assert (f"pruning: dimension d does not prune the fact: its key k ({fact_type}) = d.k ({dim_type}) is compared "
            f"{compared}").lower() in record.lower()  # fmt: skip
    assert "pruning: none, so the fact is read whole" in record
    assert " in (" not in strip_record(sql)


@pytest.mark.parametrize(
    "filter_text",
    ["extract(year from d.dk) = 2026", "trim(both ' ' from d.name) = 'a'", "d.`from` = 'a'",
     "substring(d.name from 1 for 2) = 'ab'", "exists(d.tags, t -> t.name = '1')",
     "aggregate(d.tags, 0, (acc, t) -> acc + length(t.name)) > 2"],
    ids=["extract", "trim", "backticked_from", "substring", "lambda", "lambda_two_params"],
)  # fmt: skip
def test_a_scalar_filter_with_from_or_a_lambda_is_accepted(renderer: Callable[..., Renderer], filter_text: str) -> None:
    """`from` inside extract(), trim() or substring(), a column named `from`, and a lambda's parameters are
    parts of a scalar expression, not a subquery or another relation's alias."""
    from .harness import Table

    r = renderer(extra_tables={
        "f": Table([("id", "int"), ("k", "int")], file_bytes=9000),
        "d": Table([("k", "int"), ("dk", "date"), ("name", "string"), ("from", "string"),
                    ("tags", "array<struct<name:string>>")], file_bytes=900),
    })  # fmt: skip
    sql = r.render("{{ skewjoin.star_join('f', [{'relation': 'd', 'alias': 'd', 'on': ['k'], 'filter': "
                   + repr(filter_text) + "}], columns=['f.id'], prune=false) }}")  # fmt: skip
    assert f"where {filter_text}" in strip_record(sql)


@pytest.mark.parametrize("filter_text", ["d.k in (from f)", "d.k in (select k from f)", "d.k in (f.k, (from f))"])
def test_a_filter_that_holds_a_query_is_refused(renderer: Callable[..., Renderer], filter_text: str) -> None:
    from .harness import Table

    r = renderer(extra_tables={"f": Table([("id", "int"), ("k", "int")], file_bytes=9000),
                               "d": Table([("k", "int")], file_bytes=900)}, model="orders")  # fmt: skip
    message = r.compile_error("{{ skewjoin.star_join('f', [{'relation': 'd', 'alias': 'd', 'on': ['k'], 'filter': "
                              + repr(filter_text) + "}], columns=['f.id'], prune=false) }}")  # fmt: skip
    assert "holds a subquery, window or statement keyword" in message, message


def test_a_backticked_name_with_a_quote_or_dashes_is_a_name(renderer: Callable[..., Renderer]) -> None:
    """A column named `it's` or `a--b`, backticked, is neither an unterminated literal nor a comment."""
    from .harness import Table

    r = renderer(extra_tables={"f": Table([("id", "int"), ("k", "int")], file_bytes=9000),
                               "d": Table([("k", "int"), ("it's", "int"), ("a--b", "int")], file_bytes=900)})  # fmt: skip
    sql = r.render("{{ skewjoin.star_join('f', [{'relation': 'd', 'alias': 'd', 'on': ['k'], "
                   "'filter': \"d.`it's` > 0 and d.`a--b` < 3\"}], columns=['f.id'], prune=false) }}")  # fmt: skip
    assert "where d.`it's` > 0 and d.`a--b` < 3" in strip_record(sql)

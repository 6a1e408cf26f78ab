"""star_join: every bad input is a clear compile error (no Spark).

Each case renders ``skewjoin.star_join(ref('star_sales'), <args>)``. To add
a case, add a row.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .cases import ErrorCase, params
from .golden import check_expected
from .harness import Renderer, Table, assert_clear_compile_error

STORES = "{'relation': ref('star_stores'), 'alias': 's', 'on': ['store_id']}"


def dim(**extra: str) -> str:
    """The stores dimension with extra keys (values as Jinja source)."""
    return "[" + STORES[:-1] + "".join(f", '{k}': {v}" for k, v in extra.items()) + "}]"


CASES = [
    ErrorCase("unknown_alias_in_columns", f"[{STORES}], columns=['f.sale_id', 'x.store_name']", "columns",
              "'x.store_name' uses the alias 'x', which names nothing here; the aliases are f, s"),
    ErrorCase("unknown_column_in_columns", f"[{STORES}], columns=['s.nope']", "columns", "s has no column 'nope'"),
    ErrorCase("unknown_fact_column", "[{'relation': ref('star_stores'), 'alias': 's', 'on': [['shop_id', 'store_id']]}]", "dims[0].on",
              "column 'shop_id' is not a column of the fact (f)"),
    ErrorCase("unknown_dim_column", "[{'relation': ref('star_stores'), 'alias': 's', 'on': [['store_id', 'shop']]}]", "dims[0].on",
              "column 'shop' is not a column of the dimension s"),
    # a misspelled `relation`: the right form keeps the relation written under it (it gave 'stores', a relation of no one's)
    ErrorCase("dim_relation_typo", "[{'relaton': ref('star_stores'), 'alias': 's', 'on': ['store_id']}]", "dims[0]",
              "(did you mean 'relation'?)"),
    ErrorCase("bad_budget_word", f"[{STORES}], broadcast_budget='lots'", "broadcast_budget", "a whole number >= 0 or a byte string; got lots"),
    ErrorCase("bad_budget_negative", f"[{STORES}], broadcast_budget=-1", "broadcast_budget", "got -1"),
    ErrorCase("bad_budget_var", f"[{STORES}]", "broadcast_budget", "got 10 megabytes", vars={"skewjoin_broadcast_budget": "10 megabytes"}),
    ErrorCase("bad_join_type", dim(join_type="'cross'"), "dims[0].join_type", "unknown join type 'cross'"),
    ErrorCase("argument_typo", f"[{STORES}], prnue=false", "prnue", "no such argument (did you mean 'prune'?)"),
    ErrorCase("filter_with_semicolon", dim(filter="\"region = 'EU'; drop table x\""), "dims[0].filter", "contains `;` outside a string literal"),
    ErrorCase("filter_other_alias", dim(filter="'f.qty > 1'"), "dims[0].filter",
              "the filter uses 'f.qty', but a dimension's filter sees only that dimension"),
    ErrorCase("filter_unknown_column", dim(filter="'s.nope = 1'"), "dims[0].filter", "s has no column nope"),
    ErrorCase("duplicate_alias", "[{'relation': ref('star_stores'), 'alias': 'f', 'on': ['store_id']}]", "dims[0].alias",
              "the alias 'f' is already taken"),
    ErrorCase("alias_sj_prefix", "[{'relation': ref('star_stores'), 'alias': 'sj_s', 'on': ['store_id']}]", "dims[0].alias",
              "not starting with sj_"),
    ErrorCase("fact_alias_bad", f"[{STORES}], fact_alias='f x'", "fact_alias", "an alias is a plain identifier"),
    ErrorCase("unknown_dimension_key", dim(join="'left'"), "dims[0]", "unknown key 'join'"),
    ErrorCase("missing_on", "[{'relation': ref('star_stores'), 'alias': 's'}]", "dims[0]", "on is required"),
    ErrorCase("dimension_not_a_mapping", "['star_stores']", "dims[0]", "each dimension is a mapping"),
    ErrorCase("bad_on", dim(on="[['store_id']]"), "dims[0].on", "[fact_column, dimension_column] pair"),
    ErrorCase("bad_relation", "[{'relation': 42, 'alias': 's', 'on': ['store_id']}]", "dims[0].relation", "expected a relation"),
    ErrorCase("bad_size_factor", f"[{STORES}], size_factor=0", "size_factor", "a number above 0"),
    ErrorCase("bad_size_factor_per_format", f"[{STORES}], size_factor={{'parquet': 'big'}}", "size_factor.parquet", "a number above 0"),
    ErrorCase("bad_dim_size_factor", dim(size_factor="-2"), "dims[0].size_factor", "a number above 0"),
    ErrorCase("bad_broadcast", dim(broadcast="'yes'"), "dims[0].broadcast", "broadcast is 'auto'"),
    ErrorCase("forced_broadcast_right", dim(join_type="'right'", broadcast="true"), "dims[0].broadcast",
              "refused: s is right-joined, so it is a preserved side"),
    ErrorCase("forced_broadcast_full", dim(join_type="'full'", broadcast="true"), "dims[0].broadcast",
              "a full outer join is never converted"),
    ErrorCase("dim_columns_unknown", dim(columns="['nope']"), "dims[0].columns", "'nope' is not a column of the dimension s"),
    ErrorCase("dim_columns_expression", dim(columns="['upper(region)']"), "dims[0].columns", "each entry is a plain column name"),
    ErrorCase("semi_join_columns", dim(join_type="'left semi'") + ", columns=['s.region']", "columns",
              "a left semi join returns only the rows of the fact"),
    ErrorCase("semi_join_dim_columns", dim(join_type="'left anti'", columns="['region']"), "dims[0].columns",
              "a left anti join returns only the rows of the fact"),
    ErrorCase("empty_dims", "[]", "dims", "expected a non-empty list of dimensions"),
    ErrorCase("bad_analyze", f"[{STORES}], analyze='sometimes'", "analyze", "analyze is false"),
    ErrorCase("bad_shuffle_hint", f"[{STORES}], shuffle_hint='broadcast'", "shuffle_hint", "'merge' (sort-merge join"),
    ErrorCase("bad_prune", f"[{STORES}], prune='yes'", "prune", "'cache' (read them from the prune cache"),
    ErrorCase("bad_config", f"[{STORES}]", "star_join", "unknown key 'budget'", config={"star_join": {"budget": 5}}),
    ErrorCase("config_not_a_mapping", f"[{STORES}]", "star_join", "the model config star_join is a mapping",
              config={"star_join": "10m"}),
    ErrorCase("bad_budget_in_config", f"[{STORES}]", "broadcast_budget", "got lots",
              config={"star_join": {"broadcast_budget": "lots"}}),
]  # fmt: skip


@pytest.mark.parametrize("case", params(CASES))
def test_bad_input_is_a_clear_compile_error(renderer: Callable[..., Renderer], case: ErrorCase, rewrite_expected: bool) -> None:
    r = renderer("star_sales", "star_stores", config=case.config, vars=case.vars, model="star_bad_" + case.id)
    message = r.compile_error("{{ skewjoin.star_join(ref('star_sales'), " + case.args + ") }}")
    assert_clear_compile_error(message, "star_join", "star_bad_" + case.id, case.argument, case.expected)
    check_expected(f"errors/star_join/{case.id}.txt", message + "\n", rewrite_expected)
    assert not [q for q in r.spark.queries if not q.startswith(("describe query", "set "))], "no size query before the checks"


def test_adapters_other_than_spark_are_refused(renderer: Callable[..., Renderer]) -> None:
    r = renderer("star_sales", "star_stores", adapter_type="postgres")
    message = r.compile_error("{{ skewjoin.star_join(ref('star_sales'), [" + STORES + "]) }}")
    assert_clear_compile_error(message, "star_join", "unit_model", "adapter", "this target uses postgres")


def test_a_filter_may_qualify_a_name_that_holds_a_backtick(renderer: Callable[..., Renderer]) -> None:
    """`` s.`a``b` `` is the column a`b of s, as Spark reads it (it was read as a column `a` and refused)."""
    r = renderer(extra_tables={"f": Table([("store_id", "int"), ("qty", "int")], file_bytes=900),
                               "d": Table([("store_id", "int"), ("a`b", "string")], file_bytes=900)})  # fmt: skip
    sql = r.render("{{ skewjoin.star_join('f', [{'relation': 'd', 'alias': 's', 'on': ['store_id'], "
                   "'filter': \"s.`a``b` <> 'x'\"}], prune=false) }}")  # fmt: skip
    assert "s.`a``b` <> 'x'" in sql, sql
    message = r.compile_error("{{ skewjoin.star_join('f', [{'relation': 'd', 'alias': 's', 'on': ['store_id'], "
                              "'filter': \"s.`a``c` <> 'x'\"}]) }}")  # fmt: skip
    assert "the filter uses 's.a`c', but s has no column a`c" in message, message

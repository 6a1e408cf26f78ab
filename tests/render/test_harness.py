"""The render tier's own guarantees: it loads every macro file, provides every
name the macros read, and fails loudly where dbt or Spark would have answered
something the test did not set up."""

from __future__ import annotations

import re
from collections.abc import Callable

import jinja2
import jinja2.nodes
import pytest

from .harness import CONTEXT_NAMES, Package, Renderer, Table, UnexpectedQuery, load_package

# Jinja's own globals and the names a macro body may use without a context.
JINJA_NAMES = {"range", "dict", "lipsum", "cycler", "joiner", "namespace", "loop", "caller", "varargs", "kwargs"}

PUBLIC = {
    "skew_join": "left, right, on, join_type='inner', columns=None, left_alias='a', right_alias='b', skew=None",
    "star_join": "fact, dims, fact_alias='f', columns=None, broadcast_budget=None, size_factor=None, analyze=None, "
    "shuffle_hint=None, prune=None",
    "prune_predicate": "big, big_alias, small, join_type='inner', max_values=None, fallback=None, cache=None",
    "prune_key_sets": "key_sets=None",
}


def _signature(pkg: Package, name: str) -> str:
    macro = next(pkg.env.parse(pkg.sources[name].sql).find_all(jinja2.nodes.Macro))
    defaults = [None] * (len(macro.args) - len(macro.defaults)) + list(macro.defaults)
    parts = []
    for arg, default in zip(macro.args, defaults, strict=True):
        parts.append(arg.name if default is None else f"{arg.name}={default.as_const()!r}")
    return ", ".join(parts)


def test_every_macro_file_is_loaded(pkg: Package) -> None:
    files = sorted(pkg.macro_dir.rglob("*.sql"))
    assert files and {s.path for s in pkg.sources.values()} == set(files) - {
        f for f in files if "{% macro" not in f.read_text() and "{%- macro" not in f.read_text()
    }
    assert len(pkg.sources) >= 20


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_macros_keep_their_arguments(pkg: Package, name: str) -> None:
    assert _signature(pkg, name) == PUBLIC[name]


def test_every_name_the_macros_read_is_provided(pkg: Package) -> None:
    read = set().union(*pkg.free_names().values())
    assert {"skewjoin", "run_query", "modules", "exceptions", "config", "var", "adapter", "execute", "return"} <= read
    missing = {name: sorted(free - set(CONTEXT_NAMES) - JINJA_NAMES) for name, free in pkg.free_names().items()}
    assert not {k: v for k, v in missing.items() if v}, "names the harness does not provide"


def test_every_package_macro_the_macros_call_exists(pkg: Package) -> None:
    called = {}
    for source in pkg.sources.values():
        for name in re.findall(r"\bskewjoin\.(\w+)", source.sql):
            called.setdefault(name, source.name)
    assert not {n: m for n, m in called.items() if n not in pkg.sources}, "calls to macros that do not exist"


def test_an_unexpected_query_fails(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left")
    with pytest.raises(UnexpectedQuery, match="no table 'skewjoin_it.nowhere'"):
        r.render("{{ skewjoin.skew_join(ref('typed_left'), 'skewjoin_it.nowhere', on=['k_int']) }}")
    with pytest.raises(UnexpectedQuery, match="no answer for"):
        r.render("{% do run_query('select 42') %}")
    with pytest.raises(UnexpectedQuery, match="not a setting this test declares"):
        r.render("{% do run_query('set spark.sql.adaptive.localShuffleReader.enabled') %}")


def test_an_unknown_macro_fails(renderer: Callable[..., Renderer]) -> None:
    r = renderer()
    assert r.render("{{ skewjoin._sj_no_such_macro is defined }}") == "False"
    with pytest.raises(jinja2.UndefinedError):
        r.render("{{ skewjoin._sj_no_such_macro('x') }}")


def test_a_missing_context_name_fails(renderer: Callable[..., Renderer]) -> None:
    r = renderer()
    with pytest.raises(jinja2.UndefinedError):
        r.render("{{ builtins.ref }}")
    with pytest.raises(jinja2.UndefinedError):
        r.render("{{ adapter.quote('x') }}")
    with pytest.raises(UnexpectedQuery):
        r.render("{{ ref('not_an_input') }}")


def test_return_dispatch_and_relations_behave_as_in_dbt(renderer: Callable[..., Renderer]) -> None:
    r = renderer("typed_left")
    # return() ends the macro with a value of any type
    assert r.render("{{ skewjoin._sj_is_relation(ref('typed_left')) }}") == "True"
    assert r.render("{{ skewjoin._sj_is_relation('skewjoin_it.typed_left') }}") == "False"
    # dispatch picks spark__ for spark (and databricks), default__ otherwise
    assert r.macros["skew_join"].name == "skew_join"
    assert r.context["adapter"].dispatch("skew_join", "skewjoin").name == "spark__skew_join"
    assert Renderer({}, adapter_type="databricks").context["adapter"].dispatch("star_join", "skewjoin").name == "spark__star_join"
    assert Renderer({}, adapter_type="postgres").context["adapter"].dispatch("star_join", "skewjoin").name == "default__star_join"


def test_a_duplicate_macro_is_an_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "a.sql").write_text("{% macro x() %}1{% endmacro %}")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "c.sql").write_text("{% macro x() %}2{% endmacro %}")
    with pytest.raises(AssertionError, match="macro x defined twice"):
        load_package(tmp_path)


def test_describe_answers_from_the_tables() -> None:
    r = Renderer({"t": Table([("a", "int"), ("b", "decimal(10,2)")])})
    assert r.render("{{ tojson(skewjoin._sj_columns('t')) }}") == '[{"name": "a", "type": "int"}, {"name": "b", "type": "decimal(10,2)"}]'
    assert r.spark.queries == ["describe query select * from t as sj_described"]

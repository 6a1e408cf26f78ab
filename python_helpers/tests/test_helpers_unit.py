"""dbt runner and pytest plugin pieces that need no Spark."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skewjoin.dbt_runner import _environ, compiled_sql
from skewjoin.testing.plugin import _SQL_START, find_repo_root


def test_environ_sets_and_restores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKJ_A", "old")
    monkeypatch.delenv("SKJ_B", raising=False)
    with _environ({"SKJ_A": "new", "SKJ_B": "b"}):
        assert os.environ["SKJ_A"] == "new" and os.environ["SKJ_B"] == "b"
    assert os.environ["SKJ_A"] == "old"
    assert "SKJ_B" not in os.environ
    with pytest.raises(RuntimeError), _environ({"SKJ_B": "b"}):
        raise RuntimeError
    assert "SKJ_B" not in os.environ


def test_compiled_sql(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="dbt compile --select m1"):
        compiled_sql(tmp_path, "m1")
    target = tmp_path / "target" / "compiled" / "proj" / "models" / "sub"
    target.mkdir(parents=True)
    (target / "m1.sql").write_text("select 1")
    (target / "m10.sql").write_text("select 10")
    assert compiled_sql(tmp_path, "m1") == "select 1"
    other = tmp_path / "target" / "compiled" / "dep" / "models"
    other.mkdir(parents=True)
    (other / "m1.sql").write_text("select 2")
    with pytest.raises(ValueError, match="ambiguous"):
        compiled_sql(tmp_path, "m1")


def test_find_repo_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SKEWJOIN_REPO", raising=False)
    (tmp_path / "dbt_project.yml").write_text("name: 'skewjoin'\nversion: '0.1.0'\n")
    nested = tmp_path / "integration_tests"
    nested.mkdir()
    (nested / "dbt_project.yml").write_text("name: 'skewjoin_integration_tests'\n")
    deep = nested / "tests" / "x"
    deep.mkdir(parents=True)
    assert find_repo_root(deep) == tmp_path
    monkeypatch.setenv("SKEWJOIN_REPO", str(nested))
    with pytest.raises(pytest.UsageError, match="SKEWJOIN_REPO"):
        find_repo_root(deep)
    monkeypatch.setenv("SKEWJOIN_REPO", str(tmp_path))
    assert find_repo_root(Path("/")) == tmp_path


def test_find_repo_root_fails_clearly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SKEWJOIN_REPO", raising=False)
    with pytest.raises(pytest.UsageError, match="cannot find the skewjoin repository"):
        find_repo_root(tmp_path)


@pytest.mark.parametrize(
    ("text", "is_sql"),
    [
        ("select 1", True),
        ("  WITH a as (select 1) select * from a", True),
        ("-- comment\nselect 1", True),
        ("/* skewjoin: plan */\nselect 1", True),
        ("(select 1) union all (select 2)", True),
        ("skewjoin_it.test_skew_join", False),
        ("`db`.`selected_rows`", False),
        ("selected_rows", False),
    ],
)
def test_relation_or_sql(text: str, is_sql: bool) -> None:
    assert bool(_SQL_START.match(text)) is is_sql


def test_plugin_registers_option_and_marker(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("-p", "skewjoin.testing.plugin", "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.spark:*"])
    result = pytester.runpytest("-p", "skewjoin.testing.plugin", "--help")
    result.stdout.fnmatch_lines(["*--skewjoin-thrift-port=PORT*"])


def test_plugin_is_opt_in(pytester: pytest.Pytester) -> None:
    """Installing skewjoin loads nothing into other projects' pytest runs (no pytest11 entry point)."""
    from importlib.metadata import entry_points

    assert not [ep for ep in entry_points(group="pytest11") if ep.value.startswith("skewjoin")]
    result = pytester.runpytest_subprocess("--help")
    assert "--skewjoin-thrift-port" not in result.stdout.str()

"""pytest plugin pieces that need no Spark."""

from __future__ import annotations

from pathlib import Path

import pytest

from skewjoin.literals import is_query_text
from skewjoin_devtools.pytest_plugin import find_repo_root


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
    assert is_query_text(text) is is_sql


def test_plugin_registers_option_and_marker(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest("-p", "skewjoin_devtools.pytest_plugin", "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.spark:*"])
    result = pytester.runpytest("-p", "skewjoin_devtools.pytest_plugin", "--help")
    result.stdout.fnmatch_lines(["*--skewjoin-thrift-port=PORT*"])


def test_plugin_is_opt_in(pytester: pytest.Pytester) -> None:
    """Installing skewjoin or skewjoin-devtools loads nothing into other projects' pytest runs
    (no pytest11 entry point)."""
    from importlib.metadata import entry_points

    assert not [ep for ep in entry_points(group="pytest11") if ep.value.startswith("skewjoin")]
    result = pytester.runpytest_subprocess("--help")
    assert "--skewjoin-thrift-port" not in result.stdout.str()

"""Shared fixtures for the dbt integration tests of integration_tests/.

The Thrift server, the dbt runner and the multiset oracle come from the
``skewjoin`` pytest plugin (python_helpers). Here: the input tables are built
once per session, and ``build`` runs ``dbt build`` on a selection and checks
that every model and data test passed, and that data tests actually ran.
Helper functions live in support.py.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dbt.cli.main import dbtRunnerResult

sys.path.insert(0, str(Path(__file__).parent))

from support import SCHEMA, as_json, error_text, inline_compiled_sql, node_results  # noqa: E402,F401  (re-exported)

from skewjoin.testing.plugin import DbtProject  # noqa: E402


@pytest.fixture(scope="session")
def inputs_built(dbt_project: DbtProject) -> DbtProject:
    """The input seeds and tables (tag:inputs) built once for the whole session."""
    dbt_project.run(["build", "--select", "tag:inputs", "--indirect-selection", "cautious"])
    return dbt_project


@pytest.fixture(scope="session")
def build(inputs_built: DbtProject) -> Callable[..., list[tuple[str, str, str]]]:
    """``build(selector, min_tests=1)``: dbt build a selection; assert all passed."""

    def _build(selector: str, min_tests: int = 1, vars: dict[str, Any] | None = None) -> list[tuple[str, str, str]]:
        result = inputs_built.run(["build", "--select", selector], vars=vars)
        nodes = node_results(result)
        failed = [n for n in nodes if n[2] not in ("success", "pass")]
        assert not failed, f"dbt nodes did not pass: {failed}"
        tests = [n for n in nodes if n[0] == "test"]
        assert len(tests) >= min_tests, f"expected at least {min_tests} data tests for {selector}, ran {len(tests)}"
        return nodes

    return _build


@pytest.fixture(scope="session")
def compile_inline(inputs_built: DbtProject) -> Callable[..., dbtRunnerResult]:
    """``compile_inline(sql, expect_failure=False)``: ``dbt compile --inline``."""

    def _compile(sql: str, expect_failure: bool = False, vars: dict[str, Any] | None = None) -> dbtRunnerResult:
        return inputs_built.run(["compile", "--inline", sql], vars=vars, expect_failure=expect_failure)

    return _compile

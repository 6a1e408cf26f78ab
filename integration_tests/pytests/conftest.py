"""Shared fixtures for the dbt integration tests of integration_tests/.

The Thrift server, the dbt runner, the multiset oracle and the input tables
built once per session (``inputs_built``) come from the pytest plugin
(``skewjoin_devtools.pytest_plugin``). Here: ``build`` runs ``dbt build`` on a
selection and checks that every model and data test passed, and that data
tests actually ran.
Helper functions live in support.py.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from dbt.cli.main import dbtRunnerResult

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[2] / "tests"))  # the no-Spark tier's package `render` (tests/render)

from support import BUILD_THREADS, SCHEMA, as_json, error_text, inline_compiled_sql, node_results  # noqa: E402,F401  (re-exported)

from skewjoin_devtools.pytest_plugin import DbtProject  # noqa: E402


@dataclass
class Built:
    """What one ``dbt build`` ran: (resource type, name, status) per node, and
    the compiled SQL of each model (from the run's results, wherever dbt's
    target path is)."""

    nodes: list[tuple[str, str, str]]
    sql: dict[str, str]


def built_from(result: dbtRunnerResult) -> Built:
    sql = {
        r.node.name: str(r.node.compiled_code)
        for r in result.result.results  # type: ignore[union-attr]
        if r.node.resource_type == "model" and r.node.compiled_code
    }
    return Built(nodes=node_results(result), sql=sql)


@pytest.fixture(scope="session")
def build(inputs_built: DbtProject) -> Callable[..., Built]:
    """``build(selector, min_tests=1)``: dbt build a selection; assert all passed."""

    def _build(selector: str, min_tests: int = 1, vars: dict[str, Any] | None = None) -> Built:
        built = built_from(inputs_built.run(["build", *BUILD_THREADS, "--select", selector], vars=vars))
        failed = [n for n in built.nodes if n[2] not in ("success", "pass")]
        assert not failed, f"dbt nodes did not pass: {failed}"
        tests = [n for n in built.nodes if n[0] == "test"]
        assert len(tests) >= min_tests, f"expected at least {min_tests} data tests for {selector}, ran {len(tests)}"
        return built

    return _build


@pytest.fixture(scope="session")
def skew_models_built(build: Callable[..., Built]) -> Built:
    """models/skew_join and models/hot_keys with their data tests (each model
    equals the plain join), built once for the session: one dbt invocation
    instead of one per test that reads a model's compiled SQL."""
    return build("path:models/skew_join path:models/hot_keys", min_tests=46)


@pytest.fixture(scope="session")
def compile_inline(inputs_built: DbtProject) -> Callable[..., dbtRunnerResult]:
    """``compile_inline(sql, expect_failure=False)``: ``dbt compile --inline``."""

    def _compile(sql: str, expect_failure: bool = False, vars: dict[str, Any] | None = None) -> dbtRunnerResult:
        return inputs_built.run(["compile", "--inline", sql], vars=vars, expect_failure=expect_failure)

    return _compile

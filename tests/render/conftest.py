"""The render tier: the package's macros rendered with dbt's Jinja environment
and a fake adapter (harness.py); no Java, no Spark, no dbt invocation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .harness import Package, Renderer, Table, package
from .tables import tables


@pytest.fixture(scope="session")
def pkg() -> Package:
    return package()


@pytest.fixture
def renderer(pkg: Package) -> Callable[..., Renderer]:
    """``renderer(*input_names, extra_tables=None, **options)``: a Renderer over
    copies of the named inputs (see tables.py) and any extra tables."""

    def _make(*names: str, extra_tables: dict[str, Table] | None = None, **options: Any) -> Renderer:
        return Renderer(tables(*names, **(extra_tables or {})), pkg=pkg, **options)

    return _make


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--rewrite-expected", action="store_true", default=False,
        help="rewrite the render tier's expected-output files (tests/render/expected) instead of comparing",
    )  # fmt: skip


@pytest.fixture
def rewrite_expected(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--rewrite-expected"))

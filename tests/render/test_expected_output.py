"""Every model case (model_cases.py) compiles to exactly its expected files:
``expected/<id>.sql`` (the compiled SQL, decision record at its top) and
``expected/<id>.log`` (log() lines, warnings, the queries it ran). A change of
one character fails with a diff; ``make expected`` rewrites them after an
intended change (see expected/README.md)."""

from __future__ import annotations

import pytest

from . import (
    test_prune_predicate_errors,
    test_skew_auto,
    test_skew_join_chain,
    test_skew_join_errors,
    test_star_join_errors,
    test_verify,
)
from .golden import EXPECTED_DIR, check_expected, render_case_once
from .harness import Package
from .model_cases import CASES, ModelCase

ERROR_TABLES = {"skew_join": test_skew_join_errors.CASES, "star_join": test_star_join_errors.CASES,
                "prune_predicate": test_prune_predicate_errors.CASES, "skew_join_chain": test_skew_join_chain.CASES,
                "skew_join_auto": test_skew_auto.CASES, "verify": test_verify.CASES}  # fmt: skip


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_model_case_compiles_to_its_expected_files(pkg: Package, case: ModelCase, rewrite_expected: bool) -> None:
    rendered = render_case_once(case, pkg)
    check_expected(f"{case.id}.sql", rendered.sql.rstrip("\n") + "\n", rewrite_expected)
    check_expected(f"{case.id}.log", rendered.log_text(), rewrite_expected)


def test_every_expected_file_has_its_case(rewrite_expected: bool) -> None:
    """No file outlives its case (a renamed or deleted case leaves none behind)."""
    wanted = {f"{c.id}{ext}" for c in CASES for ext in (".sql", ".log")}
    wanted |= {f"errors/{macro}/{c.id}.txt" for macro, cases in ERROR_TABLES.items() for c in cases}
    wanted.add("README.md")
    present = {str(p.relative_to(EXPECTED_DIR)) for p in EXPECTED_DIR.rglob("*") if p.is_file()}
    stale = sorted(present - wanted)
    if rewrite_expected:
        for name in stale:
            (EXPECTED_DIR / name).unlink()
        return
    assert not stale, f"expected files without a case (delete them, or run `make expected`): {stale}"

"""What dbt reads from the package in a project that installs it: macros, and the demo
models (disabled there). No test of ours may be collected as the user's data test."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
PATH_KEYS = ("model-paths", "test-paths", "seed-paths", "analysis-paths", "snapshot-paths", "macro-paths")


def _dbt_paths() -> dict[str, list[str]]:
    project = yaml.safe_load((ROOT / "dbt_project.yml").read_text())
    return {key: list(project.get(key, [])) for key in PATH_KEYS}


def test_the_package_ships_no_data_tests() -> None:
    assert _dbt_paths()["test-paths"] == []


def test_no_dbt_path_holds_the_python_tests() -> None:
    for key, paths in _dbt_paths().items():
        for path in paths:
            resolved = (ROOT / path).resolve()
            for tests_dir in (ROOT / "tests", ROOT / "integration_tests"):
                assert not resolved.is_relative_to(tests_dir) and not tests_dir.is_relative_to(resolved), (
                    f"{key} {path!r} makes dbt read {tests_dir.relative_to(ROOT)} in every project that installs skewjoin"
                )


def test_no_macro_file_is_over_350_lines() -> None:
    """One concern a file (issue 28's rule): a macro file that grows past 350 lines is split by what it holds."""
    long = {str(p.relative_to(ROOT)): n for p in (ROOT / "macros").rglob("*.sql")
            if (n := len(p.read_text().splitlines())) > 350}  # fmt: skip
    assert not long, long

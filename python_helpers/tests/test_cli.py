"""The `skewjoin` command: help a newcomer can follow, exit codes scripts can use."""

from __future__ import annotations

import importlib.metadata
import importlib.util
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import skewjoin
from skewjoin.cli import main


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_top_level_help_lists_commands(runner: CliRunner) -> None:
    result = runner.invoke(main, ["--help"])
    assert result.exit_code == 0, result.output
    assert "Usage: skewjoin" in result.output
    assert "profile" in result.output and "prune" in result.output
    assert "--verbose" in result.output
    assert "skewjoin profile " in result.output  # a first step to copy
    assert "spark-thrift" not in result.output  # the launcher is skewjoin-dev's, not shipped


def test_the_installed_package_carries_no_benchmark(runner: CliRunner) -> None:
    """The benchmark is the repository's own bench/ project (``skewjoin-bench``): not installed with skewjoin."""
    assert importlib.util.find_spec("skewjoin.bench") is None
    package_dir = Path(skewjoin.__file__).parent
    assert not any("bench" in path.name for path in package_dir.rglob("*") if "__pycache__" not in path.parts)
    assert sorted(p.name for p in package_dir.parent.iterdir() if (p / "__init__.py").is_file()) == ["skewjoin"]
    entry_points = importlib.metadata.distribution("skewjoin").entry_points
    assert [(ep.name, ep.value) for ep in entry_points] == [("skewjoin", "skewjoin.cli:main")]
    assert "bench" not in main.list_commands(click.Context(main))
    listed = runner.invoke(main, ["--help"])
    assert listed.exit_code == 0 and "bench" not in listed.output
    assert runner.invoke(main, ["bench", "--help"]).exit_code == 2


def test_unknown_command_fails(runner: CliRunner) -> None:
    result = runner.invoke(main, ["no-such-command"])
    assert result.exit_code == 2
    assert "No such command" in result.output


def test_the_installed_package_carries_no_development_tools() -> None:
    """The Thrift server launcher, the pytest plugin and spark-thrift are skewjoin-devtools', not shipped:
    importing every module of skewjoin loads neither pytest nor the launcher."""
    import subprocess
    import sys

    package_dir = Path(skewjoin.__file__).parent
    names = sorted(p.stem for p in package_dir.glob("*.py") if p.stem != "__main__")
    assert "thrift_server" not in names and not (package_dir / "testing").exists()
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}: importlib.import_module('skewjoin.' + name if name != '__init__' else 'skewjoin')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pytest', '_pytest', 'skewjoin_devtools'))\n"
        "assert not bad, bad\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "spark-thrift" not in main.list_commands(click.Context(main))

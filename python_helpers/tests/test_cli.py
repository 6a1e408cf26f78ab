"""The `skewjoin` command: help a newcomer can follow, exit codes scripts can use."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
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
    assert "spark-thrift" in result.output
    assert "--verbose" in result.output
    assert "skewjoin spark-thrift start" in result.output  # a first step to copy


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


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["spark-thrift", "--help"], ["start", "stop", "status", "127.0.0.1", "Java 17"]),
        (["spark-thrift", "start", "--help"], ["--dir", ".spark/thrift", "--port", "--conf", "KEY=VALUE", "--timeout"]),
        (["spark-thrift", "stop", "--help"], ["--dir", "SIGTERM"]),
        (["spark-thrift", "status", "--help"], ["--dir", "exit 0 if running, 1 if not"]),
        (["spark-thrift", "start", "-h"], ["Usage: skewjoin spark-thrift start"]),
    ],
)
def test_subcommand_help(runner: CliRunner, args: list[str], expected: list[str]) -> None:
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # help text is wrapped to the terminal width
    for needle in expected:
        assert needle in text, f"{needle!r} not in help of {args}:\n{result.output}"


def test_unknown_command_fails(runner: CliRunner) -> None:
    result = runner.invoke(main, ["no-such-command"])
    assert result.exit_code == 2
    assert "No such command" in result.output


def test_start_rejects_malformed_conf(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["spark-thrift", "start", "--dir", str(tmp_path), "--conf", "no_equals_sign"])
    assert result.exit_code == 2
    assert "KEY=VALUE" in result.output
    assert not (tmp_path / "thrift.json").exists()


def test_status_and_stop_without_server(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(main, ["spark-thrift", "status", "--dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "not running" in result.output
    result = runner.invoke(main, ["spark-thrift", "stop", "--dir", str(tmp_path)])
    assert result.exit_code == 0
    assert "no server recorded" in result.output


def test_status_reports_stale_record(runner: CliRunner, tmp_path: Path) -> None:
    # A pid that cannot be alive: the record outlived its server (e.g. after a reboot).
    dead_pid = _dead_pid()
    (tmp_path / "thrift.json").write_text(json.dumps({"pid": dead_pid, "port": 1, "host": "127.0.0.1"}))
    result = runner.invoke(main, ["spark-thrift", "status", "--dir", str(tmp_path)])
    assert result.exit_code == 1
    assert f"stale record: pid={dead_pid}" in result.output
    result = runner.invoke(main, ["spark-thrift", "stop", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "was not running" in result.output
    assert not (tmp_path / "thrift.json").exists()


def _dead_pid() -> int:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid

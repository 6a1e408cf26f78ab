"""The `skewjoin-dev spark-thrift` command: help, exit codes, no server needed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from skewjoin_devtools.command import dev


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_top_level_help(runner: CliRunner) -> None:
    result = runner.invoke(dev, ["--help"])
    assert result.exit_code == 0, result.output
    assert "Usage: skewjoin-dev" in result.output
    assert "skewjoin-dev spark-thrift start" in result.output


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["spark-thrift", "--help"], ["start", "stop", "status", "127.0.0.1", "Java 17"]),
        (["spark-thrift", "start", "--help"], ["--dir", ".spark/thrift", "--port", "--conf", "KEY=VALUE", "--timeout"]),
        (["spark-thrift", "stop", "--help"], ["--dir", "SIGTERM"]),
        (["spark-thrift", "status", "--help"], ["--dir", "exit 0 if running, 1 if not"]),
        (["spark-thrift", "start", "-h"], ["Usage: skewjoin-dev spark-thrift start"]),
    ],
)
def test_subcommand_help(runner: CliRunner, args: list[str], expected: list[str]) -> None:
    result = runner.invoke(dev, args)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())  # help text is wrapped to the terminal width
    for needle in expected:
        assert needle in text, f"{needle!r} not in help of {args}:\n{result.output}"


def test_start_rejects_malformed_conf(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(dev, ["spark-thrift", "start", "--dir", str(tmp_path), "--conf", "no_equals_sign"])
    assert result.exit_code == 2
    assert "KEY=VALUE" in result.output
    assert not (tmp_path / "thrift.json").exists()


def test_status_and_stop_without_server(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(dev, ["spark-thrift", "status", "--dir", str(tmp_path)])
    assert result.exit_code == 1
    assert "not running" in result.output
    result = runner.invoke(dev, ["spark-thrift", "stop", "--dir", str(tmp_path)])
    assert result.exit_code == 0
    assert "no server recorded" in result.output


def test_status_reports_stale_record(runner: CliRunner, tmp_path: Path) -> None:
    # A pid that cannot be alive: the record outlived its server (e.g. after a reboot).
    dead_pid = _dead_pid()
    (tmp_path / "thrift.json").write_text(json.dumps({"pid": dead_pid, "port": 1, "host": "127.0.0.1"}))
    result = runner.invoke(dev, ["spark-thrift", "status", "--dir", str(tmp_path)])
    assert result.exit_code == 1
    assert f"stale record: pid={dead_pid}" in result.output
    result = runner.invoke(dev, ["spark-thrift", "stop", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "was not running" in result.output
    assert not (tmp_path / "thrift.json").exists()


def _dead_pid() -> int:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid

"""dbt runner pieces that need no Spark."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skewjoin.dbt_runner import _environ, compiled_sql


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

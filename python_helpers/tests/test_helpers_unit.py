"""dbt runner pieces that need no Spark."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skewjoin.dbt_runner import _environ, cli_json, compiled_sql


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


@pytest.mark.parametrize(
    "value",
    [
        {"skewjoin_prune_cache_run": "run-\U0001f600", "key_sets": [["2026-01-01", "\u00e9\U00020000"]]},
        {"s": "quote ' \" back \\ tab \t newline \n"},
        # characters YAML folds (line and paragraph separators, NEL) or refuses (DEL, C1 controls, BOM)
        {"s": "a \u2028 b \u2029 c \x85 d \x7f \x9b \ufeff e"},
    ],
)
def test_dbt_option_json_is_read_back_by_dbt_as_written(value: dict) -> None:
    # dbt reads --vars and --args as YAML: a JSON surrogate pair for a character outside the BMP (an emoji,
    # rare CJK) was refused ("is not valid YAML"), so `skewjoin prune --cache-run` stopped on such a key
    from dbt.clients.yaml_helper import load_yaml_text

    assert "\\ud83d" not in cli_json(value)
    assert load_yaml_text(cli_json(value)) == value


def test_side_b_in_upper_case_is_side_b() -> None:
    # `--side B`: the other side defaulted to 'b' (a case-sensitive test), then "--side and --other-side must
    # differ; both are 'B'" named an option that was not given
    from skewjoin.profiler import ProfileRequest, profile

    class Stop(Exception):
        pass

    class Backend:
        def __getattr__(self, name: str) -> object:
            raise Stop(name)

    with pytest.raises(Stop):  # past the check: the backend is asked for the table
        profile(Backend(), ProfileRequest(table="t", keys=["k"], side="B"))  # type: ignore[arg-type]


def test_a_prune_request_naming_a_missing_table_gets_the_request_error() -> None:
    # a request whose table does not exist stopped with dbt's failed-command text (the whole inline Jinja),
    # Spark's error and a logical plan, exit 1; it is the request's error (exit 2) naming the table
    from skewjoin.errors import DbtRunError, PruneSpecError
    from skewjoin.prune_command import _dbt_error

    spark = (
        "Runtime Error\n  Database Error\n    org.apache.hive.service.cli.HiveSQLException: Error running query: "
        "[TABLE_OR_VIEW_NOT_FOUND] The table or view `clirev`.`nope` cannot be found. Verify the spelling ...\n"
        "'Project [*]\n+- 'UnresolvedRelation [clirev, nope], [], false"
    )
    error = _dbt_error("request 'days'", DbtRunError(["compile"], [("inline_query", spark)], None))
    assert isinstance(error, PruneSpecError)
    assert str(error).startswith("request 'days': the table or view `clirev`.`nope` does not exist")
    assert "`big` or `small[].relation`" in str(error) and "UnresolvedRelation" not in str(error)
    other = DbtRunError(["compile"], [("inline_query", "Runtime Error: something else")], None)
    assert _dbt_error("request 'days'", other) is other

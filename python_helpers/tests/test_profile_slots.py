"""`skewjoin profile` plans for the slot count the user's models run with (issue: total_slots: 200 pasted
into a project with 16 shuffle partitions). No Spark here: the dbt files are read as dbt reads them, and
the choice is checked against a backend that only answers `set spark.sql.shuffle.partitions`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from skewjoin.dbt_target import target_total_slots
from skewjoin.errors import DbtTargetError
from skewjoin.planner import KeyStat, PlanOptions, SideStats, plan
from skewjoin.profiler import DbtTarget, ProfileRequest, choose_total_slots
from skewjoin.report import report, to_json, total_slots_comment


def _project(directory: Path, variables: dict[str, Any] | None = None) -> Path:
    data: dict[str, Any] = {"name": "shop", "version": "1.0", "profile": "shop"}
    if variables is not None:
        data["vars"] = variables
    (directory / "dbt_project.yml").write_text(yaml.safe_dump(data))
    return directory


def _profiles(directory: Path, partitions: str | None = "16") -> Path:
    params = {"spark.sql.shuffle.partitions": partitions} if partitions is not None else {}
    text = yaml.safe_dump(
        {
            "shop": {
                "target": "dev",
                "outputs": {
                    "dev": {"type": "spark", "method": "session", "host": "NA", "schema": "s",
                            "server_side_parameters": params},
                    "prod": {"type": "spark", "method": "thrift", "host": "h", "port": 10000, "schema": "s",
                             "server_side_parameters": {"spark.sql.shuffle.partitions": 64}},
                },
            }
        }
    )  # fmt: skip
    (directory / "profiles.yml").write_text(text)
    return directory


def test_shuffle_partitions_of_the_target(tmp_path: Path) -> None:
    _project(tmp_path)
    _profiles(tmp_path)
    found = target_total_slots(tmp_path, tmp_path)
    assert found.total_slots == 16
    assert "spark.sql.shuffle.partitions of dbt target 'dev' of profile 'shop'" in found.source
    assert target_total_slots(tmp_path, tmp_path, target="prod").total_slots == 64
    assert target_total_slots(None, tmp_path, profile="shop", target="prod").total_slots == 64


def test_env_var_in_profiles_is_rendered_as_dbt_does(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _project(tmp_path)
    _profiles(tmp_path, "{{ env_var('SHOP_PARTITIONS', '8') }}")
    assert target_total_slots(tmp_path, tmp_path).total_slots == 8
    monkeypatch.setenv("SHOP_PARTITIONS", "24")
    assert target_total_slots(tmp_path, tmp_path).total_slots == 24
    monkeypatch.setenv("DBT_TARGET", "prod")
    assert target_total_slots(tmp_path, tmp_path).total_slots == 64


def test_the_project_var_wins_as_in_the_macro(tmp_path: Path) -> None:
    _profiles(tmp_path)
    _project(tmp_path, {"skewjoin_total_slots": 40})
    found = target_total_slots(tmp_path, tmp_path)
    assert (found.total_slots, found.source) == (40, f"var('skewjoin_total_slots') of {tmp_path / 'dbt_project.yml'}")
    _project(tmp_path, {"shop": {"skewjoin_total_slots": "12"}})
    assert target_total_slots(tmp_path, tmp_path).total_slots == 12


def test_a_target_without_the_setting_gives_none(tmp_path: Path) -> None:
    _project(tmp_path)
    _profiles(tmp_path, None)
    found = target_total_slots(tmp_path, tmp_path)
    assert found.total_slots is None
    assert "sets no spark.sql.shuffle.partitions" in found.source


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": "nope"}, "has no target 'nope'; its targets: dev, prod"),
        ({"profile": "other"}, "has no profile 'other'; its profiles: shop"),
    ],
)
def test_wrong_names_fail_clearly(tmp_path: Path, kwargs: dict[str, str], message: str) -> None:
    _project(tmp_path)
    _profiles(tmp_path)
    with pytest.raises(DbtTargetError, match=message):
        target_total_slots(tmp_path, tmp_path, **kwargs)


def test_bad_values_and_missing_files_fail_clearly(tmp_path: Path) -> None:
    _project(tmp_path, {"skewjoin_total_slots": 1})
    with pytest.raises(DbtTargetError, match="a whole number of at least 2"):
        target_total_slots(tmp_path, tmp_path)
    with pytest.raises(DbtTargetError, match="no profiles.yml in"):
        target_total_slots(None, tmp_path / "none", profile="shop")
    with pytest.raises(DbtTargetError, match="name the dbt profile"):
        target_total_slots(None, tmp_path)


class _Settings:
    """A backend that only knows its settings (choose_total_slots reads one)."""

    def __init__(self, kind: str, conf: dict[str, str]) -> None:
        self.kind, self.description, self.conf = kind, f"{kind} backend", conf

    def get_conf(self, key: str) -> str | None:
        return self.conf.get(key)


def _choose(backend: Any, **kwargs: Any) -> Any:
    return choose_total_slots(ProfileRequest(table="t", keys=["k"], **kwargs), backend)


def test_slot_choice_order(tmp_path: Path) -> None:
    local = _Settings("local", {"spark.sql.shuffle.partitions": "4"})
    server = _Settings("thrift", {"spark.sql.shuffle.partitions": "8"})
    _project(tmp_path)
    _profiles(tmp_path)
    dbt = DbtTarget(project_dir=tmp_path, profiles_dir=tmp_path)

    chosen = _choose(local, total_slots=30, dbt=dbt)
    assert (chosen.total_slots, chosen.source, chosen.written) == (30, "--total-slots", True)
    chosen = _choose(local, dbt=dbt)
    assert (chosen.total_slots, chosen.written) == (16, True) and "dbt target 'dev'" in chosen.source
    # nothing names the user's count: left out; a local profile's own session says nothing, assume Spark's default
    chosen = _choose(local)
    assert (chosen.total_slots, chosen.written) == (200, False) and "Spark's default" in chosen.source
    chosen = _choose(server)
    assert (chosen.total_slots, chosen.written) == (8, False) and "thrift backend" in chosen.source
    _profiles(tmp_path, None)
    chosen = _choose(server, dbt=dbt)
    assert (chosen.total_slots, chosen.written) == (8, False)
    assert "sets no spark.sql.shuffle.partitions" in chosen.source


def _planned(options: PlanOptions) -> Any:
    side = SideStats("a", ("k",), ("bigint",), 1000, 0, (KeyStat((7,), 500),), source="t")
    return plan(side, options)


def test_the_printed_config_says_where_total_slots_comes_from() -> None:
    written = _planned(PlanOptions(total_slots=16, total_slots_source="--total-slots"))
    assert written.config["total_slots"] == 16
    text = report(written)
    assert "    # total_slots 16: --total-slots" in text
    assert "    {# total_slots 16: --total-slots #}" in text
    assert yaml.safe_load(text.split("(models/<name>.yml):\n")[1].split("\n\n")[0]) == {"skew_join": written.config}

    left_out = _planned(PlanOptions(total_slots=200, total_slots_source="Spark's default", write_total_slots=False))
    assert "total_slots" not in left_out.config and left_out.config["hot_keys"] == {"a": [7]}
    comment = total_slots_comment(left_out)
    assert comment.startswith("total_slots left out: the model takes var('skewjoin_total_slots')")
    assert "assume 200 (Spark's default)" in comment
    text = report(left_out)
    assert f"    # {comment}" in text and "{# " + comment + " #}" in text
    assert "total_slots: not set; planned assuming 200" in text
    data = to_json(left_out)
    assert data["options"]["total_slots_in_config"] is False and data["options"]["total_slots_comment"] == comment


def test_a_comment_cannot_close_the_jinja_comment() -> None:
    odd = _planned(PlanOptions(total_slots=16, total_slots_source="profiles.yml in /tmp/a#}b\nc"))
    line = next(t for t in report(odd).splitlines() if t.strip().startswith("{#"))
    assert line.count("#}") == 1 and line.endswith("#}")


def test_a_share_just_under_min_share_is_not_printed_as_min_share() -> None:
    """3,005 rows, a key of 30: 0.998% was printed 1.00% in the table, then `below min_share 1.00%`."""
    side = SideStats("a", ("k",), ("bigint",), 3005, 0, (KeyStat((1,), 600), KeyStat((3,), 30)), source="t")
    planned = plan(side, PlanOptions(total_slots=16, total_slots_source="--total-slots"))
    text = report(planned)
    assert "#2: below min_share 1.00%" in text
    assert [d.reason for d in planned.keys if d.stat.values == (3,)] == ["0.998% is below min_share 1.00%"]
    row = next(line for line in text.splitlines() if line.split()[:2] == ["2", "3"])
    assert "0.998%" in row and "1.00%" not in row, row
    assert "19.97%" in text  # a share far from the threshold keeps two decimals

"""`skewjoin prune` without Spark: the spec file, the macro call it renders, the report, the errors.

The rules are the macros' (rendered through dbt; the Spark tests in
integration_tests/pytests/test_prune_helper.py run the command). Here: a spec
file becomes exactly the arguments it holds in the ``prune_predicate`` call,
whatever the strings hold (quotes, Jinja delimiters, newlines); a malformed
file exits 2 before dbt runs; the report and the JSON document show the
macro's record and predicate as dbt returned them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from dbt_common.clients.jinja import get_environment
from hypothesis import given, settings
from hypothesis import strategies as st

from skewjoin.cli import main
from skewjoin.prune_command import Pruned, PruneRun, Request, _split, key_sets_of, load_spec

PIECES = [*"ab '\"\\{}%#\n\t$é日", "{{", "}}", "{%", "%}", "*/", "{#"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=10,
)


def rendered_arguments(call: str) -> list[Any]:
    """The arguments the macro call passes, as dbt's Jinja evaluates them."""
    seen: list[Any] = []
    env = get_environment()
    template = env.from_string(call.replace("skewjoin.prune_predicate(", "capture("))
    template.render({"capture": lambda *args: seen.extend(args) or ""})
    return seen


@settings(max_examples=200, deadline=None)
@given(big=TEXT, alias=st.none() | TEXT, small=st.lists(st.dictionaries(TEXT, VALUES, max_size=4), max_size=3),
       max_values=st.none() | st.integers(0, 10**6), fallback=st.none() | TEXT)  # fmt: skip
def test_the_macro_gets_the_arguments_the_file_holds(
    big: str, alias: str | None, small: list[dict[str, Any]], max_values: int | None, fallback: str | None
) -> None:
    request = Request("r", {"big": big, "big_alias": alias, "small": small, "max_values": max_values,
                            "fallback": fallback})  # fmt: skip
    assert rendered_arguments(request.call()) == [big, alias, small, "inner", max_values, fallback]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "prune.yml"
    path.write_text(text)
    return path


def test_a_yaml_file_bare_on_and_a_list(tmp_path: Path) -> None:
    text = (
        "- name: feb\n  big: s.sales\n  big_alias: f\n  small:\n"
        "    - {relation: s.dates, filter: 'year = 2026', on: [date_key], join_type: right}\n"
        "- {big: s.sales, big_alias: null, small: [{relation: s.stores, keys: [store_id]}]}\n"
    )
    spec = write(tmp_path, text)
    first, second = load_spec(spec)
    assert first.name == "feb" and first.args["small"][0]["on"] == ["date_key"]
    assert second.name == "#1" and second.args["big_alias"] is None
    assert key_sets_of([first, second]) == [
        {"relation": "s.dates", "filter": "year = 2026", "on": ["date_key"]},
        {"relation": "s.stores", "keys": ["store_id"]},
    ]
    one = load_spec(write(tmp_path, json.dumps({"big": "s.sales", "small": [{"relation": "s.d", "on": ["k"]}]})))
    assert one[0].args == {"big": "s.sales", "small": [{"relation": "s.d", "on": ["k"]}]}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("big: s.sales\nsmall: [{relation: s.d, on: [k]}]\nbig_alais: f\n",
         "request '#0': unknown key(s) big_alais; the keys are name, big, big_alias, small"),
        ("name: feb\nbig: s.sales\n", "request 'feb': small required"),
        ("- 1\n- 2\n", "expected one request (a mapping) or a list of them"),
        ("big: [unclosed\n", "not YAML or JSON"),
    ],
    ids=["unknown_key", "missing_small", "not_mappings", "not_yaml"],
)  # fmt: skip
def test_a_malformed_spec_file_exits_2_before_dbt_runs(tmp_path: Path, text: str, expected: str) -> None:
    spec = write(tmp_path, text)
    result = CliRunner().invoke(main, ["prune", "--spec", str(spec), "--project-dir", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert expected in result.stderr and "Right form, for example:" in result.stderr


def test_missing_file_and_cache_table_without_run(tmp_path: Path) -> None:
    missing = CliRunner().invoke(main, ["prune", "--spec", str(tmp_path / "none.yml"), "--project-dir", str(tmp_path)])
    assert missing.exit_code == 2 and "cannot read the spec file" in missing.stderr
    spec = write(tmp_path, "big: s.sales\nsmall: [{relation: s.d, on: [k]}]\n")
    result = CliRunner().invoke(main, ["prune", "--spec", str(spec), "--cache-table", "s.cache"])
    assert result.exit_code == 2 and "--cache-table needs --cache-run" in result.stderr


def test_help_names_the_dbt_options() -> None:
    result = CliRunner().invoke(main, ["prune", "--help"])
    assert result.exit_code == 0
    for option in ("--spec FILE", "--project-dir", "--profiles-dir", "--target", "--cache-run RUN", "--cache-table"):
        assert option in result.output
    assert "--thrift" not in result.output


def test_report_and_json_show_what_dbt_returned() -> None:
    header = "skewjoin.prune_predicate decision record (model inline_query)"
    lines = ["small[0] dates: 2 distinct key(s)", "partitions: 3 in total, 2 kept"]
    compiled = f"/* {header}\n  {lines[0]}\n  {lines[1]}\n*/\n(\n    f.k in (1, 2)\n)"
    record, predicate = _split(compiled)
    assert record == [header, *lines]
    request = Request("feb", {"big": "s.sales", "big_alias": "f", "small": []})
    hook = [
        "skewjoin.prune_key_sets decision record (hook): cache s.c, run r1; key sets from key_sets: 1",
        "key set 0123456789ab (s.dates on k): computed",
    ]
    run = PruneRun([Pruned(request, record, predicate, compiled)], cache_run="r1", cache_record=hook)
    text = run.report()
    assert "== prune cache, run r1: skewjoin.prune_key_sets\n" in text and "  key set 0123456789ab" in text
    assert "== feb: prune s.sales as f\n  skewjoin.prune_predicate decision record" in text
    assert "predicate:\n    (\n        f.k in (1, 2)\n    )\n" in text
    document = run.json()
    assert document["requests"][0]["predicate"] == predicate and document["cache"]["run"] == "r1"
    long = PruneRun([Pruned(request, ["x" * 300], predicate, compiled)]).report()
    assert "(60 more characters; --full or --json for all)" in long


def test_a_json_spec_is_read_as_json(tmp_path: Path) -> None:
    """A .json spec by JSON's rules: json.dumps writes an emoji as a surrogate pair, which YAML read as two lone
    surrogates (the run stopped with UnicodeEncodeError); U+2028 and U+0085 stay in the filter (YAML folded
    them as line breaks, so the key set was built from another filter than the query's)."""
    filt = "k <> 'x \u2028 y \U0001f600 a\x85b'"
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({"big": "s.sales", "small": [{"relation": "s.d", "on": ["k"], "filter": filt}]}))
    assert "\\ud83d" in path.read_text()
    (request,) = load_spec(path)
    assert request.args["small"][0]["filter"] == filt


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("spec.yml", 'big: s.sales\nsmall: [{relation: s.d, on: [k], filter: "k <> \'\\ud83d\'"}]\n', "lone UTF-16"),
        ("spec.json", '{"big": "s.sales", "small": [{"relation": "s.d", "on": ["k"], "filter": "\\ud83d"}]}',
         "lone UTF-16"),
        ("spec.json", '{"big": "s.sales", "small": [}', "not JSON"),
    ],
    ids=["yaml_lone_surrogate", "json_lone_surrogate", "not_json"],
)  # fmt: skip
def test_a_spec_with_a_lone_surrogate_or_bad_json_exits_2(tmp_path: Path, name: str, text: str, expected: str) -> None:
    spec = tmp_path / name
    spec.write_text(text)
    result = CliRunner().invoke(main, ["prune", "--spec", str(spec), "--project-dir", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert expected in result.stderr and "Right form, for example:" in result.stderr


def test_a_json_spec_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "spec.json"
    path.write_text("\ufeff" + json.dumps({"big": "s.sales", "small": [{"relation": "s.d", "on": ["k"]}]}))
    (request,) = load_spec(path)
    assert request.args["big"] == "s.sales"

"""The dbt habits a team relies on, on models that call the package, on the
Thrift server: dbt unit tests (models/unit_tests/unit_tests.yml), whose
expected rows are the plain join of their given rows computed here on Spark;
`dbt build --empty` over every integration model; a CI target that compiles
the skew plan production runs; and a NaN hot key against the plain join.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from support import BUILD_THREADS, SCHEMA, inline_compiled_sql, node_results

from skewjoin.dbt_runner import run_dbt
from skewjoin.spark_backend import run_sql
from skewjoin_devtools.multisets import compare_multisets
from skewjoin_devtools.pytest_plugin import DbtProject, vars_target_path

pytestmark = pytest.mark.spark

UNIT_TESTS = Path(__file__).parents[1] / "models" / "unit_tests" / "unit_tests.yml"

# Each unit test's plain join, over its inputs named as in `given` (bare names),
# selecting the columns of its `expect` rows in their order.
PLAIN_JOINS = {
    "ut_skew_join_pinned": "select a.id, a.k_int, b.rid, b.attr from typed_left as a "
    "left join typed_right as b on a.k_int = b.k_int",
    "ut_skew_join_yaml_config": "select a.id, a.k_int, b.rid, b.attr from typed_left as a "
    "left join typed_right as b on a.k_int = b.k_int",
    "ut_skew_join_seed_groups": "select a.key, a.value, b.value as b_value from src as a "
    "join src as b on a.key = b.key",
    "ut_skew_join_auto": "select a.id, a.k_int, b.rid, b.attr from typed_left as a "
    "join typed_right as b on a.k_int = b.k_int",
    "ut_skew_join_chain": "select a.id, a.k_big, b.rid, b.attr, c.label from typed_left as a "
    "join typed_right as b on a.k_big = b.k_big join spread_right as c on a.k_big = c.k",
    "ut_star_join": "select f.sale_id, f.store_id, s.region, c.segment from star_sales as f "
    "join star_stores as s on f.store_id = s.store_id left join star_customers as c on f.customer_id = c.customer_id",
    "ut_prune_predicate": "select f.sale_id, f.store_id from prune_sales_flat as f "
    "left semi join prune_stores as s on f.store_id = s.store_id and s.region = 'APAC'",
}

# What each unit test's decision record must say: the plan the model gets on the given rows.
RECORDS = {
    "ut_skew_join_pinned": [
        "skew specification from config skew_join",
        "hot keys of a (declared): 0",
        "skew groups: 1, total slots 8",
        "strategy: hot keys by broadcast + skew groups for the rest, results unioned",
    ],
    # the same specification from a properties file: dbt hands a unit test's node none of the model's config,
    # so the test checks the plain join, and the record and a warning say so
    "ut_skew_join_yaml_config": [
        "skew specification from none (a dbt unit test sees only the model's code: a skew_join config set in a "
        "properties file or dbt_project.yml is not seen here, so this test checks the plain join",
        "strategy: plain join",
    ],
    "ut_skew_join_seed_groups": ["skew groups: 3, total slots 20", "strategy: skew groups over a shuffle join"],
    "ut_skew_join_auto": [
        "auto: nothing measured: measuring needs a query and compile-time queries are off (this is a dbt unit test",
        "strategy: plain join",
    ],
    "ut_skew_join_chain": ["skew groups: 1, total slots 20", "group 1 group_1: when 'a.k_big = 0', driver a, 8 slots"],
    "ut_star_join": ["not looked up: compile-time queries are off (this is a dbt unit test", "broadcast: none"],
    "ut_prune_predicate": ["no predicate (true): compile-time queries are off (this is a dbt unit test"],
}


def _unit_tests() -> list[dict[str, Any]]:
    return list(yaml.safe_load(UNIT_TESTS.read_text())["unit_tests"])


def _literal(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return repr(value)
    return "'" + str(value).replace("\\", "\\\\").replace("'", "\\'") + "'"


def _given_cte(conn: Any, name: str, rows: list[dict[str, Any]]) -> str:
    """The given rows as dbt's fixture makes them: every column of the real
    relation, in its type, NULL where a row does not name it."""
    described = run_sql(conn, f"describe table {SCHEMA}.{name}")
    columns = [(r[0], r[1]) for r in described if r[0] and not r[0].startswith("#")]
    selects = []
    for row in rows:
        lowered = {k.lower(): v for k, v in row.items()}
        values = [f"cast({_literal(lowered.get(c.lower()))} as {t}) as `{c}`" for c, t in columns]
        selects.append("select " + ", ".join(values))
    return f"{name} as (\n" + "\nunion all\n".join(selects) + "\n)"


def test_unit_test_expectations_are_the_plain_join(inputs_built: DbtProject) -> None:
    conn = inputs_built.conn
    tests = _unit_tests()
    assert {t["name"] for t in tests} == set(PLAIN_JOINS)
    for t in tests:
        names = [re.fullmatch(r"ref\('(\w+)'\)", g["input"]).group(1) for g in t["given"]]  # type: ignore[union-attr]
        ctes = [_given_cte(conn, name, g["rows"]) for name, g in zip(names, t["given"], strict=True)]
        plain = run_sql(conn, "with " + ",\n".join(ctes) + "\n" + PLAIN_JOINS[t["name"]])
        expect = [tuple(r.values()) for r in t["expect"]["rows"]]
        diff = compare_multisets([tuple(str(v) if v is not None else None for v in r) for r in plain],
                                 [tuple(str(v) if v is not None else None for v in r) for r in expect])  # fmt: skip
        assert diff.equal, f"{t['name']}: expect is not the plain join of the given rows\n{diff}"
        assert diff.expected_count > 0


def test_unit_tests_pass_with_the_plan_the_model_gets(inputs_built: DbtProject) -> None:
    result = inputs_built.run(["test", *BUILD_THREADS, "--select", "test_type:unit"])
    nodes = node_results(result)
    assert sorted(n[1] for n in nodes) == sorted(RECORDS), nodes
    assert all(n[2] == "pass" for n in nodes), nodes
    compiled = {r.node.name: str(r.node.compiled_code) for r in result.result.results}  # type: ignore[union-attr]
    for name, phrases in RECORDS.items():
        record = re.search(r"/\* skewjoin\.\w+ decision record.*?\*/", compiled[name], re.S)
        assert record, compiled[name][:2000]
        for phrase in phrases:
            assert phrase in record.group(0), f"{name}: {phrase!r} not in\n{record.group(0)}"


def test_build_empty_over_every_model(inputs_built: DbtProject) -> None:
    """`dbt build --empty` (models, seeds and unit tests; the data tests of an
    empty model would fail by design) in a schema of its own."""
    schema = f"{SCHEMA}_empty"
    env = {**inputs_built.env, "SKEWJOIN_TEST_SCHEMA": schema}
    # a target path of its own: another profile (schema) makes dbt drop the partial parse of the last one
    args = ["build", "--empty", *BUILD_THREADS, "--exclude-resource-type", "test",
            "--target-path", vars_target_path({"schema": schema})]  # fmt: skip
    try:
        result = run_dbt(args, project_dir=inputs_built.project_dir, profiles_dir=inputs_built.profiles_dir,
                         target=inputs_built.target, env=env, flags=["--no-write-json"])  # fmt: skip
        nodes = node_results(result)
        failed = [n for n in nodes if n[2] not in ("success", "pass")]
        assert not failed, failed
        models = [n for n in nodes if n[0] == "model"]
        macro_models = [p.stem for p in (inputs_built.project_dir / "models").rglob("*.sql") if "/bench/" not in str(p)]
        assert {n[1] for n in models} >= set(macro_models)
        assert len([n for n in nodes if n[0] == "unit_test"]) == len(RECORDS)
        results = result.result.results  # type: ignore[union-attr]
        compiled = {r.node.name: str(r.node.compiled_code) for r in results if r.node.resource_type == "model"}
        assert "compile-time queries are off (dbt --empty" in compiled["pr_semi_join"]
        assert "where false limit 0" in compiled["pr_semi_join"]
        assert ("auto: nothing measured: measuring needs a query and compile-time queries are off (dbt --empty"
                in compiled["sj_auto_inner"])  # fmt: skip
        # a pinned specification keeps its plan: the plan, not the plain join
        assert "strategy: skew groups over a shuffle join" in compiled["sj_seed_three_groups"]
    finally:
        run_sql(inputs_built.conn, f"drop schema if exists {schema} cascade")


def test_a_ci_target_with_min_parallelism_1_compiles_the_skew_plan(inputs_built: DbtProject) -> None:
    """On this 2-core server skew plans are declined by default (min parallelism
    4): a CI target must set var skewjoin_min_parallelism: 1 to test the plan
    production runs. The integration project sets it (its dbt_project.yml: the CI
    setting, compiled with the project's vars, whose parse the other inline compiles
    share); here both ways."""
    project_vars = yaml.safe_load((inputs_built.project_dir / "dbt_project.yml").read_text())["vars"]
    assert project_vars["skewjoin_min_parallelism"] == 1
    call = ("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
            "skew={'groups': [{'when': 'a.k_int = 0', 'slots': 4}]}) }}")  # fmt: skip
    ci = inline_compiled_sql(inputs_built.run(["compile", "--inline", call]))
    assert "strategy: skew groups over a shuffle join on (keys, slot)" in ci
    assert "and a.sj_slot = b.sj_slot" in ci
    default = inline_compiled_sql(inputs_built.run(["compile", "--inline", call], vars={"skewjoin_min_parallelism": 4}))
    assert ("strategy: plain join (skew plans declined: this local Spark runs 2 tasks at once, fewer than "
            "min_parallelism 4; var skewjoin_min_parallelism: 1 plans them anyway)") in default
    assert "sj_slot" not in re.sub(r"/\*.*?\*/", "", default, flags=re.S)


NAN_LEFT = ("select * from values (1, double('NaN')), (2, double('NaN')), (3, double('NaN')), (4, 1.5D), (5, -0.0D), "
            "(6, cast(null as double)), (7, double('Infinity')) as t(id, k)")  # fmt: skip
NAN_RIGHT = ("select * from values (10, double('NaN')), (11, 1.5D), (12, 0.0D), (13, cast(null as double)), "
             "(14, double('NaN')), (15, double('Infinity')) as t(rid, k)")  # fmt: skip


@pytest.mark.parametrize("join_type", ["inner", "left"])
def test_a_nan_hot_key_equals_the_plain_join(
    inputs_built: DbtProject, compile_inline: Callable[..., Any], join_type: str
) -> None:
    """Spark joins NaN with NaN: a declared NaN (and infinity) hot key on a
    double column routes those rows to the broadcast branch, and the result
    is the plain join's (-0.0 = 0.0 and NULLs included)."""
    call = (f'{{{{ skewjoin.skew_join("{NAN_LEFT}", "{NAN_RIGHT}", on=["k"], join_type="{join_type}", '
            f'columns=["a.id", "a.k", "b.rid"], skew={{"hot_keys": ["NaN", "Infinity"]}}) }}}}')  # fmt: skip
    sql = inline_compiled_sql(compile_inline(call))
    assert "hot keys of a (declared): NaN; Infinity" in sql, sql
    assert "cast('NaN' as double)" in sql and "strategy: hot keys by broadcast" in sql
    plain = f"select a.id, a.k, b.rid from ({NAN_LEFT}) as a {join_type} join ({NAN_RIGHT}) as b on a.k = b.k"
    rows = inputs_built.assert_model_equals(sql, plain)
    assert rows >= 6


def test_the_pinned_auto_specification_pastes_back(
    inputs_built: DbtProject, compile_inline: Callable[..., Any]
) -> None:
    """The Jinja and YAML forms the 'auto' record prints, pasted back, give the
    plan 'auto' made (on the same data and session)."""
    result = inputs_built.run(["compile", "--select", "sj_auto_inner"])
    results = result.result.results  # type: ignore[union-attr]
    auto_sql = next(str(r.node.compiled_code) for r in results if r.node.name == "sj_auto_inner")
    jinja = re.search(r"paste into the model \(Jinja\): \{\{ config\(skew_join=(\{.*?\})\) \}\}\n", auto_sql)
    yaml_form = re.search(r"in YAML \(a properties file or dbt_project.yml\): skew_join: (\{.*?\})\n", auto_sql)
    assert jinja and yaml_form, auto_sql[:3000]
    assert "groups" in jinja.group(1) and "none" in jinja.group(1)
    call = ("{{ skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_int'], "
            "columns=['a.id', 'a.k_int', 'b.rid', 'b.attr'], skew=SKEW) }}")  # fmt: skip
    from_jinja = inline_compiled_sql(compile_inline(call.replace("SKEW", jinja.group(1))))
    from_yaml = inline_compiled_sql(
        compile_inline(call.replace("SKEW", "fromyaml('skew_join: " + yaml_form.group(1) + "')['skew_join']"))
    )
    body = re.sub(r"^.*?\*/", "", auto_sql, count=1, flags=re.S).strip()
    for pinned in (from_jinja, from_yaml):
        assert "skew specification from argument skew" in pinned
        assert re.sub(r"^.*?\*/", "", pinned, count=1, flags=re.S).strip() == body

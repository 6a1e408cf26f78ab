"""skew_join_chain on the Spark Thrift Server: every model in
models/skew_join_chain equals the plain chain of Spark joins (the
`equals_plain_chain` data test: a multiset difference both ways), and the physical plan
shuffles the large side once for the whole chain. The chain's text and its
errors are checked without Spark by the render tier."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import Built
from support import SCHEMA, strip_record

from skewjoin.spark_backend import run_sql
from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def chains_built(build: Callable[..., Built]) -> Built:
    return build("path:models/skew_join_chain", min_tests=3)


def _exchanges(conn: Any, sql: str) -> list[str]:
    """The hash exchanges of the physical plan, AQE and broadcasts off (so every join shuffles what it must)."""
    run_sql(conn, "set spark.sql.adaptive.enabled=false")
    run_sql(conn, "set spark.sql.autoBroadcastJoinThreshold=-1")
    try:
        plan = run_sql(conn, "explain " + sql)[0][0]
    finally:
        run_sql(conn, "set spark.sql.adaptive.enabled=true")
        run_sql(conn, "set spark.sql.autoBroadcastJoinThreshold=10485760")
    physical = plan.split("== Physical Plan ==")[-1]
    return [line.strip() for line in physical.splitlines() if "Exchange hashpartitioning" in line]


def test_chain_models_equal_the_plain_chain(chains_built: Built) -> None:
    models = {n[1] for n in chains_built.nodes if n[0] == "model"}
    assert {"sjc_inner_groups", "sjc_left_hot_and_groups", "sjc_mixed_default_columns"} <= models


def test_the_large_side_is_shuffled_once(chains_built: Built, inputs_built: DbtProject) -> None:
    """The chain's three sides are hash-partitioned once each: the second join reuses the first join's
    partitioning on (k, slot). The plain chain shuffles the first join's output again for the second
    join only when the keys differ; nesting skew_join in skew_join salts and shuffles it again."""
    conn = inputs_built.conn
    chain = strip_record(chains_built.sql["sjc_inner_groups"])
    exchanges = _exchanges(conn, chain)
    assert len(exchanges) == 3, exchanges
    assert all("sj_slot" in e for e in exchanges), exchanges
    nested = (
        "{{ skewjoin.skew_join(skewjoin.skew_join(ref('typed_left'), ref('typed_right'), on=['k_big'], "
        "columns=['a.id', 'a.k_big', 'b.rid', 'b.attr'], skew={'groups': [{'when': 'a.k_big = 0', 'slots': 8}]}), "
        "ref('spread_right'), on=[['k_big', 'k']], columns=['a.id', 'a.k_big', 'a.rid', 'a.attr', 'b.label'], "
        "skew={'groups': [{'when': 'a.k_big = 0', 'slots': 8}]}) }}"
    )
    result = inputs_built.run(["compile", "--inline", nested])
    nested_sql = strip_record(str(result.result.results[0].node.compiled_code))  # type: ignore[union-attr]
    assert len(_exchanges(conn, nested_sql)) == 4


def test_the_record_of_keys_of_different_types(chains_built: Built) -> None:
    """sjc_left_hot_and_groups joins typed_left.k_int (int) to spread_right.k (bigint): the slots are hashed
    in bigint on every side, and the record says the second join shuffles again."""
    record = chains_built.sql["sjc_left_hot_and_groups"]
    assert ("the keys compare in different types (a.k_int = b.k_int compares as int): the slots are hashed in "
            "bigint") in record
    assert f"from {SCHEMA}.spread_right" in record

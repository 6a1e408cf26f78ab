"""Helpers shared by the integration tests (imported as `support`)."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from dbt.cli.main import dbtRunnerResult

from skewjoin.spark_backend import run_sql

SCHEMA = "skewjoin_it"

# `dbt build` runs independent models and data tests side by side: most of a
# test model's time is dbt and Thrift round trips (dbt-spark polls each query
# every second), which overlap even on two cores.
BUILD_THREADS = ["--threads", "4"]


def node_results(result: dbtRunnerResult) -> list[tuple[str, str, str]]:
    """(resource type, node name, status) for each node a dbt command ran."""
    rows = []
    for r in result.result.results:  # type: ignore[union-attr]
        rows.append((r.node.resource_type, r.node.name, str(r.status)))
    return rows


def inline_compiled_sql(result: dbtRunnerResult) -> str:
    """The SQL produced by ``dbt compile --inline``."""
    return str(result.result.results[0].node.compiled_code)  # type: ignore[union-attr]


def error_text(result: dbtRunnerResult) -> str:
    """The error message of a failed dbt command, whitespace-collapsed."""
    parts = []
    if result.exception is not None:
        parts.append(str(result.exception))
    if result.result is not None and hasattr(result.result, "results"):
        for r in result.result.results:
            if r.message:
                parts.append(str(r.message))
    return re.sub(r"\s+", " ", " ".join(parts))


def assert_clear_compile_error(
    result: dbtRunnerResult, name: str, macro: str, expected: str, argument: str | None = None
) -> str:
    """A failed compile whose message names the macro and model, the argument
    (when given), says `expected` and shows the right form; returns the message."""
    assert not result.success, f"{name}: compiled although it should not"
    message = error_text(result)
    assert f"skewjoin.{macro} in model" in message, message
    if argument is not None:
        assert f"argument `{argument}`" in message, message
    assert expected in message, message
    assert "Right form, for example:" in message, message
    return message


def as_json(result: dbtRunnerResult) -> Any:
    return json.loads(inline_compiled_sql(result))


def strip_record(sql: str) -> str:
    """The compiled SQL without its decision record (hints stay)."""
    return re.sub(r"/\* skewjoin\.\w+ decision record.*?\*/", "", sql, flags=re.S).strip()


#: The session settings under which a query's partitions are read with spark_partition_id(): broadcasts
#: off, and AQE coalescing only what holds no row (1-byte targets, no skew split). A partition that holds
#: a row always starts a task of its own, so rows share a task exactly when they share a partition of the
#: plan, without a task for every empty one of the 200.
PARTITIONS_AS_PLANNED = {
    "spark.sql.autoBroadcastJoinThreshold": "-1",
    "spark.sql.adaptive.enabled": "true",
    "spark.sql.adaptive.coalescePartitions.enabled": "true",
    "spark.sql.adaptive.advisoryPartitionSizeInBytes": "1",
    "spark.sql.adaptive.coalescePartitions.minPartitionSize": "1",
    "spark.sql.adaptive.skewJoin.enabled": "false",
}


@contextmanager
def session_settings(conn: Any, settings: dict[str, str]) -> Iterator[None]:
    """The settings on the connection's session, each reset to the server's own afterwards."""
    for key, value in settings.items():
        run_sql(conn, f"set {key}={value}")
    try:
        yield
    finally:
        for key in settings:
            run_sql(conn, f"reset {key}")


def partition_shares(conn: Any, sql: str, hot_filter: str) -> list[float]:
    """Share of the hot rows in each Spark partition of the query's last stage that holds any
    (PARTITIONS_AS_PLANNED: the plan's own partitions)."""
    with session_settings(conn, PARTITIONS_AS_PLANNED):
        # every hot row's partition in one global aggregate (one task after the query's own): a group by
        # the partition shuffled into 200 more tasks
        ((parts,),) = run_sql(
            conn,
            f"select to_json(collect_list(sj_part)) from "
            f"(select spark_partition_id() as sj_part, t.* from ({sql}) as t) as p where {hot_filter}",
        )
    counts = Counter(json.loads(parts))
    total = sum(counts.values())
    assert total > 0
    return sorted((n / total for n in counts.values()), reverse=True)

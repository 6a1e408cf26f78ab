"""The prune cache: each small relation's key set, written where the dbt macros read it.

A key set is one small relation as a request writes it (relation, alias,
filter, key columns), independent of the big table; its canonical text and
md5 id, the table and the one ``insert overwrite`` statement per key set are
those of macros/pruning/prune_cache.sql (``_sj_prune_key_set``,
``_sj_prune_cache_create_sql``, ``_sj_prune_cache_fill_sql``), so that
``prune_predicate(..., cache=true)`` finds what ``skewjoin prune --cache-run``
wrote.
"""

from __future__ import annotations

import hashlib
import re
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from skewjoin.errors import PruneSpecError
from skewjoin.literals import normalize_type, quote_spark_string, spark_ident
from skewjoin.pruning import Column, PruneResult, Source, value_text
from skewjoin.spark_backend import SparkBackend

if TYPE_CHECKING:
    from skewjoin.prune_spec import PruneSpec

CACHE_TABLE_NAME = "skewjoin_prune_cache"
_CACHE_TABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*")
_CACHE_RUN = re.compile(r"[A-Za-z0-9_.:-]{1,128}")

KEY_SET_VERSION = "skewjoin prune key set 1"


@dataclass(frozen=True)
class KeySet:
    """One small relation as written (relation, alias, filter, key columns), independent of the big table."""

    id: str
    text: str
    from_text: str
    alias: str
    filter: str | None
    columns: tuple[Column, ...]


def key_set(from_sql: str, alias: str, filter_: str | None, columns: Sequence[Column]) -> KeySet:
    """The key set and its canonical text and id (md5 of the text): key columns deduplicated
    (case-insensitive, first kept) and ordered by lowercased name, types normalized."""
    seen: dict[str, Column] = {}
    for c in columns:
        seen.setdefault(c.name.lower(), Column(c.name, normalize_type(c.type)))
    ordered = tuple(seen[name] for name in sorted(seen))
    relation = from_sql if from_sql.startswith("(") else from_sql.lower().replace("`", "")
    text = "\n".join([
        KEY_SET_VERSION,
        f"relation: {relation}",
        f"alias: {alias}",
        f"filter: {filter_ if filter_ is not None else ''}",
        "keys: " + ", ".join(f"{c.name} {c.type}" for c in ordered),
    ])  # fmt: skip
    return KeySet(hashlib.md5(text.encode("utf-8")).hexdigest(), text, from_sql, alias, filter_, ordered)


def source_key_set(src: Source) -> KeySet:
    """The key set of a resolved small relation (its small-side key columns)."""
    return key_set(
        src.spec.from_text, src.spec.alias, src.spec.filter, [Column(k.small, k.small_type) for k in src.keys]
    )


def cache_create_sql(table: str) -> str:
    return (
        f"create table if not exists {table} (sj_kind string, sj_values array<string>, sj_created timestamp, "
        "sj_run string, sj_key_set string, sj_writer string) using parquet "
        "partitioned by (sj_run, sj_key_set, sj_writer) "
        "options (partitionOverwriteMode 'dynamic')"
    )


def cache_fill_sql(table: str, run: str, ks: KeySet, writer: str) -> str:
    """One statement writing a key set's rows: its distinct NULL-free keys, its NULL-key row count
    and the 'done' row, in a partition of this writer's own (no write replaces files a reader may be
    reading; dynamic partition overwrite: concurrent writers stage apart)."""
    refs = [f"{ks.alias}.{spark_ident(c.name)}" for c in ks.columns]
    texts = [value_text(f"sj_k{i}", c.type) for i, c in enumerate(ks.columns)]
    filter_ = f"({ks.filter})\n        and " if ks.filter is not None else ""
    distinct = ", ".join(f"{r} as sj_k{i}" for i, r in enumerate(refs))
    return f"""insert overwrite table {table} partition (sj_run, sj_key_set, sj_writer)
select sj_kind, sj_values, current_timestamp() as sj_created,
    {quote_spark_string(run)} as sj_run, '{ks.id}' as sj_key_set, '{writer}' as sj_writer
from (
    select 'key' as sj_kind, array({", ".join(texts)}) as sj_values
    from (
        select distinct {distinct}
        from {ks.from_text} as {ks.alias}
        where {filter_}{" and ".join(f"{r} is not null" for r in refs)}
    ) as sj_keys
    union all
    select 'nulls' as sj_kind, array(cast(count(*) as string)) as sj_values
    from {ks.from_text} as {ks.alias}
    where {filter_}({" or ".join(f"{r} is null" for r in refs)})
    union all
    select 'done' as sj_kind, array({quote_spark_string(ks.text)}) as sj_values
) as sj_rows"""


def _checked(value: str, pattern: re.Pattern[str], option: str, expected: str, example: str) -> str:
    if not pattern.fullmatch(value):
        raise PruneSpecError(
            f"skewjoin prune, {option}: expected {expected}; got {value!r}\n  Right form, for example: "
            f"{option} {example}"
        )
    return value


def check_cache_table(table: str) -> str:
    return _checked(table, _CACHE_TABLE, "--cache-table", "a table name schema.table (plain names, as the macros' "
                    "var skewjoin_prune_cache_table)", "analytics.skewjoin_prune_cache")  # fmt: skip


def check_cache_run(run: str) -> str:
    return _checked(run, _CACHE_RUN, "--cache-run", "a run name of 1 to 128 letters, digits, '_', '.', ':' or '-' "
                    "(what the macros' var skewjoin_prune_cache_run names)", "nightly-2026-11-25")  # fmt: skip


def default_cache_table(specs: Sequence[PruneSpec]) -> str:
    """``<schema of the first big table>.skewjoin_prune_cache``."""
    parts = specs[0].big_from.replace("`", "").split(".") if specs[0].big_is_table else []
    if len(parts) < 2:
        raise PruneSpecError(
            f"skewjoin prune, --cache-table: the first big table ({specs[0].big.strip()[:80]}) names "
            "no schema to put the cache in\n  Right form, for example: --cache-table "
            "analytics.skewjoin_prune_cache"
        )
    return check_cache_table(f"{parts[-2]}.{CACHE_TABLE_NAME}")


@dataclass
class CachedKeySet:
    key_set: KeySet
    key_rows: int
    null_rows: int
    rows: int
    seconds: float


@dataclass
class CacheWrite:
    table: str
    run: str
    key_sets: list[CachedKeySet]


def write_cache(backend: SparkBackend, results: Sequence[PruneResult], table: str, run: str) -> CacheWrite:
    """Write every distinct key set of *results* into *table* for *run*, and read back what it holds."""
    backend.sql(cache_create_sql(table))
    unique: dict[str, KeySet] = {}
    for result in results:
        for src in result.sources:
            ks = source_key_set(src)
            unique.setdefault(ks.id, ks)
    written = []
    writer = uuid.uuid4().hex[:16]
    for ks in unique.values():
        started = time.monotonic()
        backend.sql(cache_fill_sql(table, run, ks, writer), marker="skewjoin-prune-cache", label=ks.id[:12])
        rows = backend.sql(
            f"select sj_kind, count(*), max(case when sj_kind = 'nulls' then sj_values[0] end) from {table} "
            f"where sj_run = {quote_spark_string(run)} and sj_key_set = '{ks.id}' and sj_writer = '{writer}' "
            "group by sj_kind"
        )
        by_kind = {str(r[0]): (int(r[1]), r[2]) for r in rows}
        key_rows = by_kind.get("key", (0, None))[0]
        nulls = by_kind.get("nulls", (0, None))[1]
        written.append(
            CachedKeySet(ks, key_rows, int(nulls or 0), sum(c for c, _ in by_kind.values()), time.monotonic() - started)
        )
    return CacheWrite(table, run, written)

"""What ``skewjoin prune`` does once its options are parsed: open Spark, prune each request
(:func:`skewjoin.pruning.prune`), write the prune cache when asked
(:mod:`skewjoin.prune_cache`), and render the report or the JSON document.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from skewjoin.prune_cache import CacheWrite, check_cache_run, check_cache_table, default_cache_table, write_cache
from skewjoin.prune_spec import PruneSpec
from skewjoin.pruning import PruneResult, prune
from skewjoin.sources import SparkLocation
from skewjoin.spark_backend import SparkBackend

logger = logging.getLogger(__name__)

#: what the readable report shows unless --full: characters of one predicate line, kept partitions listed
LINE_CHARS = 240
PARTITIONS_SHOWN = 20


@dataclass
class PruneRun:
    """Every request's result and the cache write (None without --cache-run)."""

    results: list[PruneResult]
    cache: CacheWrite | None = None
    timings: dict[str, float] = field(default_factory=dict)

    def report(self, full: bool = False) -> str:
        return report(self, full)

    def json(self) -> dict[str, Any]:
        return to_json(self)


def prune_all(
    backend: SparkBackend, specs: Sequence[PruneSpec], cache_run: str | None = None, cache_table: str | None = None
) -> PruneRun:
    """Prune every request on *backend*; with *cache_run*, write every key set into the cache."""
    from skewjoin.profiler import phase

    if cache_run is not None:
        check_cache_run(cache_run)
        cache_table = check_cache_table(cache_table) if cache_table else default_cache_table(specs)
    run = PruneRun([])
    for spec in specs:
        with phase(f"pruning {spec.name} ({spec.big_from.strip()[:60]})", backend, run.timings, spec.name):
            run.results.append(prune(backend, spec))
    if cache_run is not None and cache_table is not None:
        with phase(f"writing the key sets into {cache_table} (run {cache_run})", backend, run.timings, "cache"):
            run.cache = write_cache(backend, run.results, cache_table, cache_run)
    return run


def run_prune(
    specs: Sequence[PruneSpec], location: SparkLocation, cache_run: str | None = None, cache_table: str | None = None
) -> PruneRun:
    """Open the Spark at *location*, prune, close it: all of ``skewjoin prune``."""
    from skewjoin.profiler import phase

    if cache_run is not None:  # refuse bad names before Spark starts
        check_cache_run(cache_run)
        if cache_table:
            check_cache_table(cache_table)
        else:
            default_cache_table(specs)
    timings: dict[str, float] = {}
    with phase(f"connecting to {location.describe()}", None, timings, "connect"):
        backend = location.open()
    try:
        run = prune_all(backend, specs, cache_run, cache_table)
    finally:
        backend.close()
    run.timings = {**timings, **run.timings}
    return run


# -- rendering ------------------------------------------------------------------------------


def _clip(line: str, full: bool) -> str:
    if full or len(line) <= LINE_CHARS:
        return line
    return f"{line[:LINE_CHARS]} ... ({len(line) - LINE_CHARS:,} more characters; --full or --json for all)"


def partition_name(spec: dict[str, str | None]) -> str:
    """``date_key=2026-02-01/store=3`` (NULL as Hive's default partition)."""
    return "/".join(f"{k}={'__HIVE_DEFAULT_PARTITION__' if v is None else v}" for k, v in spec.items())


def report(run: PruneRun, full: bool = False) -> str:
    """The readable report: per request its decision record (what each small relation gave), the
    predicate, and the partitions kept; then the cache written."""
    out: list[str] = []
    for result in run.results:
        spec = result.spec
        big = spec.big_from if spec.big_is_table else "a query"
        out.append(f"== {spec.name}: prune {big}" + (f" as {spec.alias}" if spec.alias else ""))
        out += [f"  {line}" for line in result.lines]
        out.append("predicate:")
        out += [f"    {_clip(line, full)}" for line in result.predicate.split("\n")]
        parts = result.partitions
        if parts is None:
            out.append("partitions: none listed (" + ("a query" if not spec.big_is_table else "not partitioned") + ")")
        elif parts.kept_partitions is None:
            out.append(f"partitions: {parts.total} in total; kept not counted (more than 10000)")
        else:
            kept = parts.kept_partitions
            out.append(f"partitions: {parts.total} in total, {len(kept)} kept" + (":" if kept else ""))
            shown = kept if full else kept[:PARTITIONS_SHOWN]
            out += [f"    {_clip(partition_name(p), full)}" for p in shown]
            if len(shown) < len(kept):
                out.append(f"    ... and {len(kept) - len(shown)} more (--full or --json for all)")
        out.append("")
    if run.cache is not None:
        cache = run.cache
        out.append(f"== cache {cache.table}, run {cache.run}: {len(cache.key_sets)} key set(s) written")
        for c in cache.key_sets:
            ks = c.key_set
            what = ks.from_text.strip() if not ks.from_text.startswith("(") else "a query"
            where = f" where {ks.filter}" if ks.filter is not None else ""
            columns = ", ".join(col.name for col in ks.columns)
            out.append(
                f"  key set {ks.id}: {c.rows} row(s) ({c.key_rows} key(s), {c.null_rows} NULL-key row(s)); "
                f"{_clip(what + where, full)} on {columns}"
            )
        out.append("")
    return "\n".join(out)


def to_json(run: PruneRun) -> dict[str, Any]:
    """One JSON document: every request's predicate, record, sources, groups and partitions; the cache."""
    requests = []
    for result in run.results:
        spec = result.spec
        parts = result.partitions
        requests.append({
            "name": spec.name,
            "big": spec.big_from,
            "big_alias": spec.alias,
            "max_values": spec.max_values,
            "fallback": spec.fallback,
            "ansi": result.ansi,
            "predicate": result.predicate,
            "empty": result.empty,
            "record": result.lines,
            "sources": [
                {
                    "index": src.spec.index, "relation": src.spec.from_text, "label": src.spec.label,
                    "alias": src.spec.alias, "filter": src.spec.filter, "join_type": src.spec.join_type,
                    "keys": [
                        {"big": k.big, "big_type": k.big_type, "small": k.small, "small_type": k.small_type,
                         "common_type": k.common, "target_type": k.target, "pushable": k.pushable,
                         "big_expr": k.big_expr}
                        for k in src.keys
                    ],
                    **vars(result.counts(src)),
                }
                for src in result.sources
            ],
            "groups": [
                {"columns": [k.big for k in g.sources[0].keys], "sources": [s.spec.index for s in g.sources],
                 "kept": g.collected.kept, "min": g.collected.min, "max": g.collected.max, "empty": g.empty,
                 "decision": g.line}
                for g in result.groups
            ],
            "partitions": None if parts is None else {
                "columns": parts.columns, "total": parts.total, "kept": parts.kept,
                "kept_partitions": parts.kept_partitions,
            },
            "seconds": round(result.seconds, 2),
        })  # fmt: skip
    cache = None
    if run.cache is not None:
        cache = {
            "table": run.cache.table,
            "run": run.cache.run,
            "key_sets": [
                {"id": c.key_set.id, "text": c.key_set.text, "relation": c.key_set.from_text,
                 "alias": c.key_set.alias, "filter": c.key_set.filter,
                 "keys": [[col.name, col.type] for col in c.key_set.columns],
                 "rows": c.rows, "key_rows": c.key_rows, "null_rows": c.null_rows}
                for c in run.cache.key_sets
            ],
        }  # fmt: skip
    return {"requests": requests, "cache": cache, "timings": run.timings}

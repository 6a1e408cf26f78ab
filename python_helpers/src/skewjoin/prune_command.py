"""``skewjoin prune``: the pruning pre-step outside ``dbt run``, with every rule from the macros.

The macros own every rule that shapes SQL: which key set a small relation is,
the statement that computes it into the prune cache, its id, and the
predicate with its decision record. This module holds none of them. It reads
the spec file, then asks dbt, in-process (:func:`skewjoin.dbt_runner.run_dbt`),
on the user's project and target:

1. with ``--cache-run RUN``: ``dbt run-operation skewjoin.prune_key_sets
   --args '{key_sets: [...]}'`` with vars ``skewjoin_prune_cache_run: RUN``
   (and ``skewjoin_prune_cache_table``), one key set per small relation of
   every request. The macro creates the cache table when missing, computes
   the key sets in one statement and logs its decision record, which the
   report shows;
2. for each request, ``dbt compile --inline '{{ skewjoin.prune_predicate(...) }}'``
   (with the cache on for RUN when given): the compiled text is the decision
   record and the predicate a model gets, character for character.

Why run-operation rather than compiling the macro's statement and running it
in a PySpark session of our own: the statement, the key set ids and the
rows are then the very ones a ``pre_hook`` or ``on-run-start`` writes, on the
catalog the models read (the target's), with no SQL passed between two
programs and no second Spark session (a local warehouse's Derby metastore
admits one process at a time). The key sets are still computed by Spark, in
the one statement the macro renders; the command starts no JVM of its own.

What stays in Python is the file format only: YAML or JSON, one request or a
list, YAML's bare ``on:`` (read as ``true``) taken as ``on``. Every check of a
request's arguments is the macro's, and its compile error is the command's.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from skewjoin.config_text import to_jinja
from skewjoin.dbt_runner import cli_json, failures_of, run_dbt
from skewjoin.errors import DbtRunError, PruneSpecError

logger = logging.getLogger(__name__)

#: a request's keys: the arguments of prune_predicate, and a name for messages
REQUEST_KEYS = ("name", "big", "big_alias", "small", "join_type", "max_values", "fallback")
#: what the readable report shows of one line unless --full
LINE_CHARS = 240
#: dbt's own log lines stay off stdout (the report and --json are ours); its file log is kept
QUIET = ["--log-level", "none"]

EXAMPLE = """name: feb_sales
big: analytics.sales
big_alias: f
small:
  - {relation: analytics.dates, filter: "year = 2026 and month = 2", on: [date_key]}"""


@dataclass(frozen=True)
class DbtProjectTarget:
    """Where dbt runs: the project, its profiles directory and target (None: dbt's defaults)."""

    project_dir: Path = Path(".")
    profiles_dir: Path | None = None
    target: str | None = None


@dataclass
class Request:
    """One request of the spec file: prune_predicate's arguments, and its name in messages."""

    name: str
    args: dict[str, Any]

    def call(self) -> str:
        """The macro call that ``dbt compile --inline`` renders."""
        a = self.args
        values = [a["big"], a.get("big_alias"), a["small"], a.get("join_type", "inner"), a.get("max_values"),
                  a.get("fallback")]  # fmt: skip
        return "{{ skewjoin.prune_predicate(" + ", ".join(to_jinja(v) for v in values) + ") }}"


@dataclass
class Pruned:
    """What the macro returned for one request: its decision record and its predicate."""

    request: Request
    record: list[str]
    predicate: str
    compiled: str


@dataclass
class PruneRun:
    """Every request's result; the cache run, its table var and the prune_key_sets record (None without it)."""

    results: list[Pruned] = field(default_factory=list)
    cache_run: str | None = None
    cache_table: str | None = None
    cache_record: list[str] | None = None
    timings: dict[str, float] = field(default_factory=dict)

    def report(self, full: bool = False) -> str:
        return report(self, full)

    def json(self) -> dict[str, Any]:
        return {
            "requests": [
                {"name": r.request.name, **r.request.args, "predicate": r.predicate, "record": r.record,
                 "compiled": r.compiled}
                for r in self.results
            ],
            "cache": None if self.cache_run is None else {
                "run": self.cache_run, "table": self.cache_table, "record": self.cache_record,
            },
            "timings": self.timings,
        }  # fmt: skip


# -- the spec file -----------------------------------------------------------------------------


def _bad(where: str, problem: str) -> PruneSpecError:
    return PruneSpecError(f"{where}: {problem}. Right form, for example:\n{EXAMPLE}")


def _lone_surrogates(value: Any) -> str | None:
    """The first string of *value* (nested, keys included) holding a surrogate code point, or None."""
    if isinstance(value, str):
        return value if any("\ud800" <= ch <= "\udfff" for ch in value) else None
    items = list(value.items()) if isinstance(value, dict) else value if isinstance(value, list) else []
    for item in items:
        for part in item if isinstance(item, tuple) else (item,):
            found = _lone_surrogates(part)
            if found is not None:
                return found
    return None


def load_spec(path: Path) -> list[Request]:
    """The requests of a YAML or JSON spec file; a malformed file raises :class:`PruneSpecError`."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # a BOM is no part of the text
        # JSON by its own rules where the file says so: YAML reads a JSON surrogate pair (\ud83d\ude00) as two
        # lone surrogates, and folds U+2028 and U+0085 in a quoted string as line breaks
        data = json.loads(text) if Path(path).suffix.lower() == ".json" else yaml.safe_load(text)
    except OSError as exc:
        raise PruneSpecError(f"cannot read the spec file {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise _bad(f"spec file {path}", f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise _bad(f"spec file {path}", f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from exc
    except yaml.YAMLError as exc:
        raise _bad(f"spec file {path}", f"not YAML or JSON ({' '.join(str(exc).split())})") from exc
    lone = _lone_surrogates(data)
    if lone:
        raise _bad(
            f"spec file {path}",
            f"the text {lone!r} holds a lone UTF-16 surrogate (an escape like \\ud83d "
            "without its pair); write the character itself, or both halves of the pair in a .json file",
        )
    items = data if isinstance(data, list) else [data]
    if not items or not all(isinstance(item, dict) for item in items):
        raise _bad(f"spec file {path}", "expected one request (a mapping) or a list of them")
    requests = []
    for index, item in enumerate(items):
        name = str(item.get("name", f"#{index}"))
        where = f"spec file {path}, request {name!r}"
        unknown = [str(k) for k in item if k not in REQUEST_KEYS]
        if unknown:
            raise _bad(where, f"unknown key(s) {', '.join(unknown)}; the keys are {', '.join(REQUEST_KEYS)}")
        missing = [k for k in ("big", "small") if k not in item]
        if missing:
            raise _bad(where, f"{' and '.join(missing)} required")
        args = {k: v for k, v in item.items() if k != "name"}
        if isinstance(args["small"], list):  # YAML 1.1 reads a bare `on:` as true
            args["small"] = [
                {("on" if k is True else k): v for k, v in s.items()} if isinstance(s, dict) else s
                for s in args["small"]
            ]
        requests.append(Request(name, args))
    return requests


def key_sets_of(requests: list[Request]) -> list[dict[str, Any]]:
    """prune_key_sets' argument: every small relation of every request (the macro drops repeats)."""
    return [
        {k: v for k, v in small.items() if k != "join_type"}
        for request in requests
        if isinstance(request.args["small"], list)
        for small in request.args["small"]
        if isinstance(small, dict)
    ]


# -- running dbt -------------------------------------------------------------------------------


def _dbt_error(request: str, exc: DbtRunError) -> PruneSpecError | DbtRunError:
    """A macro's compile error, or a relation the request names that Spark cannot find, as the request's
    error (exit 2); anything else as dbt's own."""
    messages = [message for _, message in exc.failures]
    if exc.exception is not None:
        messages.append(str(exc.exception))
    text = "\n".join(messages)
    if "skewjoin." in text and "Right form" in text:
        return PruneSpecError(f"{request}: " + " ".join(text.split()))
    missing = re.search(r"\[TABLE_OR_VIEW_NOT_FOUND\] The table or view (.+?) cannot be found", text)
    if missing is not None:
        return PruneSpecError(
            f"{request}: the table or view {missing.group(1)} does not exist (Spark's TABLE_OR_VIEW_NOT_FOUND); "
            "name an existing one in `big` or `small[].relation` (schema.table, or a SELECT text)"
        )
    return exc


def _split(compiled: str) -> tuple[list[str], str]:
    """``(record lines, predicate)`` of what prune_predicate returned (the record comment first)."""
    text = compiled.strip()
    if not text.startswith("/*") or "\n*/\n" not in text:
        return [], text
    comment, predicate = text.split("\n*/\n", 1)
    return [line.removeprefix("  ") for line in comment.removeprefix("/* ").split("\n")], predicate


def run_prune(
    requests: list[Request],
    where: DbtProjectTarget,
    cache_run: str | None = None,
    cache_table: str | None = None,
) -> PruneRun:
    """All of ``skewjoin prune``: write the key sets (with *cache_run*), then render every request."""
    run = PruneRun(cache_run=cache_run, cache_table=cache_table)
    cache_vars: dict[str, Any] = {}
    if cache_run is not None:
        cache_vars = {"skewjoin_prune_cache": True, "skewjoin_prune_cache_run": cache_run}
        if cache_table is not None:
            cache_vars["skewjoin_prune_cache_table"] = cache_table
        logs: list[str] = []

        def keep_record(event: Any) -> None:
            message = getattr(getattr(event, "data", None), "msg", "")
            if isinstance(message, str) and message.startswith("skewjoin.prune_key_sets decision record"):
                logs.append(message)

        args = cli_json({"key_sets": key_sets_of(requests)})
        logger.info("writing the key sets into the prune cache, run %s", cache_run)
        started = time.monotonic()
        try:
            run_dbt(["run-operation", "skewjoin.prune_key_sets", "--args", args], where.project_dir,
                    where.profiles_dir, where.target, cache_vars, flags=QUIET, callbacks=[keep_record])  # fmt: skip
        except DbtRunError as exc:
            raise _dbt_error("--cache-run, writing the key sets", exc) from exc
        run.timings["cache"] = round(time.monotonic() - started, 2)
        run.cache_record = [part for line in logs for part in line.split(" | ")]
    for request in requests:
        logger.info("rendering prune_predicate for request %s", request.name)
        started = time.monotonic()
        try:
            result = run_dbt(["compile", "--no-populate-cache", "--inline", request.call()], where.project_dir,
                             where.profiles_dir, where.target, cache_vars or None, flags=QUIET)  # fmt: skip
        except DbtRunError as exc:
            raise _dbt_error(f"request {request.name!r}", exc) from exc
        compiled = _compiled_inline(result)
        record, predicate = _split(compiled)
        run.results.append(Pruned(request, record, predicate, compiled))
        run.timings[request.name] = round(time.monotonic() - started, 2)
    return run


def _compiled_inline(result: Any) -> str:
    for node_result in getattr(result.result, "results", None) or []:
        node = getattr(node_result, "node", None)
        if getattr(node, "compiled_code", None) is not None:
            return str(node.compiled_code)
    raise DbtRunError(["compile", "--inline"], failures_of(result), result.exception)


# -- the report --------------------------------------------------------------------------------


def _clip(line: str, full: bool) -> str:
    if full or len(line) <= LINE_CHARS:
        return line
    return f"{line[:LINE_CHARS]} ... ({len(line) - LINE_CHARS:,} more characters; --full or --json for all)"


def report(run: PruneRun, full: bool = False) -> str:
    """The readable report: the cache written (with --cache-run), then per request its decision
    record and its predicate."""
    out: list[str] = []
    if run.cache_record is not None:
        out.append(f"== prune cache, run {run.cache_run}: skewjoin.prune_key_sets")
        out += [f"  {_clip(line, full)}" for line in run.cache_record]
        out.append("")
    for result in run.results:
        args = result.request.args
        big = _clip(" ".join(str(args["big"]).split()), full)
        alias = f" as {args['big_alias']}" if args.get("big_alias") else ""
        out.append(f"== {result.request.name}: prune {big}{alias}")
        out += [f"  {_clip(line, full)}" for line in result.record]
        out.append("predicate:")
        out += [f"    {_clip(line, full)}" for line in result.predicate.split("\n")]
        out.append("")
    return "\n".join(out)

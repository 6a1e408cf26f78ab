"""Run dbt in-process (``dbt.cli.main.dbtRunner``) and read what it compiled."""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skewjoin.errors import DbtRunError

if TYPE_CHECKING:
    from dbt.cli.main import dbtRunnerResult

logger = logging.getLogger(__name__)

# Node statuses that make a dbt invocation unsuccessful.
_FAILED_STATUSES = {"error", "fail", "runtime error", "skipped"}

__all__ = ["DbtRunError", "cli_json", "compiled_sql", "failures_of", "run_dbt"]


#: characters YAML reads differently from JSON when they stand as they are: line breaks YAML folds in a quoted
#: string (U+0085, U+2028, U+2029) and characters its reader refuses (DEL and the C1 controls, U+FEFF, U+FFFE,
#: U+FFFF); written as JSON escapes, which YAML's double-quoted strings read back as the same character
_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def cli_json(value: Any) -> str:
    """*value* as the JSON text of a dbt ``--vars`` or ``--args`` option: dbt reads those as YAML, which takes
    no JSON surrogate pair (``\\ud83d\\ude00``), so a character is written as it is, but for those YAML would
    fold or refuse (``_YAML_UNSAFE``), written as ``\\uXXXX``."""
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))


@contextmanager
def _environ(env: Mapping[str, str] | None) -> Iterator[None]:
    """Set environment variables for the duration of the block, then restore them."""
    if not env:
        yield
        return
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update({key: str(value) for key, value in env.items()})
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def failures_of(result: dbtRunnerResult) -> list[tuple[str, str]]:
    """``(node name, message)`` for every node that errored, failed or was skipped."""
    failures: list[tuple[str, str]] = []
    results = getattr(result.result, "results", None) or []
    for node_result in results:
        raw_status = getattr(node_result, "status", "")
        status = str(getattr(raw_status, "value", raw_status)).lower()
        if status not in _FAILED_STATUSES:
            continue
        node = getattr(node_result, "node", None)
        name = getattr(node, "unique_id", None) or getattr(node, "name", None) or "?"
        message = getattr(node_result, "message", None) or status
        failures.append((str(name), str(message)))
    return failures


def run_dbt(
    args: list[str],
    project_dir: Path,
    profiles_dir: Path | None,
    target: str | None,
    vars: dict[str, Any] | None = None,
    env: dict[str, str] | None = None,
    *,
    expect_failure: bool = False,
    manifest: Any = None,
    callbacks: list[Callable[[Any], None]] | None = None,
    flags: list[str] | None = None,
) -> dbtRunnerResult:
    """Invoke ``dbt <args>`` in this process against *project_dir*.

    Adds ``--project-dir``, ``--profiles-dir``, ``--target`` and, when given,
    ``--vars '<json>'``. *env* is set in ``os.environ`` for the call only (dbt's
    ``env_var()`` reads it). Raises :class:`DbtRunError` naming the failing nodes
    unless ``expect_failure=True``, in which case the result is returned as is.
    A parsed *manifest* (the result of ``dbt parse``) skips parsing the project.
    *profiles_dir* or *target* None leaves them to dbt (``$DBT_PROFILES_DIR``,
    the profile's ``target:``). *callbacks* receive every event dbt fires (its
    ``log()`` lines too, whatever the log level); *flags* are global options
    put before *args* (e.g. ``--log-level none``).
    """
    from dbt.cli.main import dbtRunner

    command = [*(flags or []), *args, "--project-dir", str(project_dir)]
    if profiles_dir is not None:
        command += ["--profiles-dir", str(profiles_dir)]
    if target is not None:
        command += ["--target", target]
    if vars:
        command += ["--vars", cli_json(vars)]
    logger.info("dbt %s", " ".join(command))
    with _environ(env):
        result = dbtRunner(manifest=manifest, callbacks=callbacks or []).invoke(command)
    if result.success or expect_failure:
        if not result.success:
            logger.info("dbt %s failed as expected", args[0] if args else "")
        return result
    raise DbtRunError(command, failures_of(result), result.exception)


def compiled_sql(project_dir: Path, model_name: str, target_path: str = "target") -> str:
    """The SQL dbt compiled for *model_name* (``target/compiled/**/<model_name>.sql``).

    Run ``dbt compile`` (or ``run``/``build``) first.
    """
    compiled_root = Path(project_dir) / target_path / "compiled"
    matches = sorted(compiled_root.rglob(f"{model_name}.sql"))
    if not matches:
        raise FileNotFoundError(
            f"no compiled SQL for model {model_name!r} under {compiled_root}; "
            f"run `dbt compile --select {model_name}` first"
        )
    if len(matches) > 1:
        listing = "\n  ".join(str(m) for m in matches)
        raise ValueError(f"model name {model_name!r} is ambiguous under {compiled_root}:\n  {listing}")
    return matches[0].read_text()

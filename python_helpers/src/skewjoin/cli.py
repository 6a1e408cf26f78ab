"""The ``skewjoin`` command line.

Subcommands are registered in :data:`SUBCOMMANDS` as ``"name": "module:attribute"``
and imported only when used (or listed by ``--help``), so a heavy module (PySpark)
costs nothing to the others. Adding a subcommand is one line there; the
attribute must be a :class:`click.Command` or :class:`click.Group`.
"""

from __future__ import annotations

import importlib
import logging
import sys
from pathlib import Path
from typing import Any

import click

SUBCOMMANDS: dict[str, str] = {
    "spark-thrift": "skewjoin.cli:spark_thrift",
    "profile": "skewjoin.profiler:profile_command",
    "bench": "skewjoin.bench.command:bench",
}

DEFAULT_THRIFT_DIR = Path(".spark/thrift")


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def __init__(self, *args: Any, lazy_subcommands: dict[str, str] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = dict(lazy_subcommands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy_subcommands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            return self._load(cmd_name)
        return super().get_command(ctx, cmd_name)

    def _load(self, cmd_name: str) -> click.Command:
        module_name, attribute = self.lazy_subcommands[cmd_name].split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.lazy_subcommands[cmd_name]} is not a click command")
        return command


@click.group(
    name="skewjoin",
    cls=LazyGroup,
    lazy_subcommands=SUBCOMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option("-v", "--verbose", count=True, help="Log progress on stderr (-v), or debug details too (-vv).")
@click.version_option(package_name="skewjoin")
def main(verbose: int) -> None:
    """Helpers for the skewjoin dbt package (Hive join optimizations on Spark).

    \b
    Typical first steps:
      skewjoin spark-thrift start      # local Spark Thrift Server for dbt + tests
      skewjoin spark-thrift status
      skewjoin spark-thrift stop

    Run `skewjoin COMMAND --help` for the options of each command.
    """
    # -v: our own progress; -vv: our debug output plus other libraries' info (PyHive, dbt).
    logging.basicConfig(
        level=logging.INFO if verbose >= 2 else logging.WARNING,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("skewjoin").setLevel(
        logging.DEBUG if verbose >= 2 else logging.INFO if verbose else logging.WARNING
    )


# -- spark-thrift -----------------------------------------------------------------------

_dir_option = click.option(
    "--dir",
    "workdir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_THRIFT_DIR,
    show_default=True,
    help="Server directory: holds thrift.json, thrift.log, warehouse/ and metastore_db/.",
)


def _parse_conf(values: tuple[str, ...]) -> dict[str, str]:
    conf: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"expected KEY=VALUE, got {item!r}", param_hint="--conf")
        conf[key.strip()] = value
    return conf


@click.group("spark-thrift", short_help="Start, stop and check a local Spark Thrift Server.")
def spark_thrift() -> None:
    """Run a local Spark Thrift Server (what dbt-spark `method: thrift` connects to).

    The server uses the Spark bundled with the installed PySpark, needs Java 17,
    listens on 127.0.0.1 only, and keeps its warehouse and Derby metastore in
    --dir, so several servers can run side by side from different directories.

    \b
    Example:
      skewjoin spark-thrift start --port 10000
      export SKEWJOIN_THRIFT_PORT=10000
      dbt run --project-dir integration_tests --profiles-dir integration_tests --target thrift
      skewjoin spark-thrift stop
    """


@spark_thrift.command("start", short_help="Start a server and wait until it answers (~30 s).")
@_dir_option
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="Port to listen on. [default: a free port]")
@click.option(
    "--conf",
    "conf",
    multiple=True,
    metavar="KEY=VALUE",
    help="Extra Spark config, repeatable, e.g. --conf spark.sql.shuffle.partitions=8.",
)
@click.option("--timeout", type=float, default=180, show_default=True, help="Seconds to wait for the server to answer.")
def start(workdir: Path, port: int | None, conf: tuple[str, ...], timeout: float) -> None:
    """Start a server in the background and wait until it answers `select 1` (~30 s).

    Prints HOST:PORT and the PID on success. On failure prints the end of
    DIR/thrift.log and exits 1.
    """
    from skewjoin.thrift_server import ThriftServer, ThriftServerError

    server = ThriftServer(workdir, port=port, conf=_parse_conf(conf))
    try:
        server.start(timeout=timeout)
    except ThriftServerError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"{server.host}:{server.port} pid={server.pid}")
    click.echo(f"log: {server.log_file}", err=True)
    click.echo(f"stop with: skewjoin spark-thrift stop --dir {workdir}", err=True)


@spark_thrift.command("stop", short_help="Stop the server recorded in --dir.")
@_dir_option
def stop(workdir: Path) -> None:
    """Stop the server recorded in DIR (SIGTERM, then SIGKILL after 30 s).

    Does nothing, successfully, when no server is running there.
    """
    from skewjoin.thrift_server import ThriftServer, ThriftServerError

    try:
        server = ThriftServer.from_state(workdir)
    except ThriftServerError:
        click.echo(f"no server recorded in {workdir}")
        return
    try:
        signalled = server.stop()
    except ThriftServerError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo(f"stopped pid={server.pid}" if signalled else f"pid={server.pid} was not running")


@spark_thrift.command("status", short_help="Is the server in --dir running? (exit 0 yes, 1 no)")
@_dir_option
def status(workdir: Path) -> None:
    """Show whether the server recorded in DIR runs; exit 0 if running, 1 if not."""
    from skewjoin.thrift_server import ThriftServer

    state = ThriftServer(workdir).status()
    if state["running"]:
        click.echo(f"running {state['host']}:{state['port']} pid={state['pid']}")
        return
    if state["pid"] is not None:
        click.echo(f"not running (stale record: pid={state['pid']} port={state['port']})")
    else:
        click.echo(f"not running (no server recorded in {workdir})")
    raise SystemExit(1)

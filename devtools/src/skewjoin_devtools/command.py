"""The ``skewjoin-dev`` command: the repository's development tools (not shipped with skewjoin).

``skewjoin-dev spark-thrift start|stop|status`` runs the local Spark Thrift
Server that ``make test``, the demo and dbt's ``thrift`` targets use.
"""

from __future__ import annotations

from pathlib import Path

import click

from skewjoin.cli import SkewjoinGroup, spark_conf

DEFAULT_THRIFT_DIR = Path(".spark/thrift")


@click.group(name="skewjoin-dev", cls=SkewjoinGroup, context_settings={"help_option_names": ["-h", "--help"]})
def dev() -> None:
    """Development tools of the skewjoin repository.

    \b
    Typical first steps:
      skewjoin-dev spark-thrift start      # local Spark Thrift Server for dbt + tests
      skewjoin-dev spark-thrift status
      skewjoin-dev spark-thrift stop
    """


# -- spark-thrift -----------------------------------------------------------------------

_dir_option = click.option(
    "--dir",
    "workdir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_THRIFT_DIR,
    show_default=True,
    help="Server directory: holds thrift.json, thrift.log, warehouse/ and metastore_db/.",
)


@dev.group("spark-thrift", short_help="Start, stop and check a local Spark Thrift Server.")
def spark_thrift() -> None:
    """Run a local Spark Thrift Server (what dbt-spark `method: thrift` connects to).

    The server uses the Spark bundled with the installed PySpark, needs Java 17,
    listens on 127.0.0.1 only, and keeps its warehouse and Derby metastore in
    --dir, so several servers can run side by side from different directories.

    \b
    Example:
      skewjoin-dev spark-thrift start --port 10000
      export SKEWJOIN_THRIFT_PORT=10000
      dbt run --project-dir integration_tests --profiles-dir integration_tests --target thrift
      skewjoin-dev spark-thrift stop
    """


@spark_thrift.command("start", short_help="Start a server and wait until it answers (~30 s).")
@_dir_option
@click.option("--port", type=click.IntRange(1, 65535), default=None, help="Port to listen on. [default: a free port]")
@click.option(
    "--conf",
    "conf",
    multiple=True,
    metavar="KEY=VALUE",
    callback=spark_conf,
    help="Extra Spark config, repeatable, e.g. --conf spark.sql.shuffle.partitions=8.",
)
@click.option("--timeout", type=float, default=180, show_default=True, help="Seconds to wait for the server to answer.")
def start(workdir: Path, port: int | None, conf: dict[str, str], timeout: float) -> None:
    """Start a server in the background and wait until it answers `select 1` (~30 s).

    Prints HOST:PORT and the PID on success. On failure prints the end of
    DIR/thrift.log and exits 1.
    """
    from skewjoin_devtools.thrift_server import ThriftServer

    server = ThriftServer(workdir, port=port, conf=conf)
    server.start(timeout=timeout)
    click.echo(f"{server.host}:{server.port} pid={server.pid}")
    click.echo(f"log: {server.log_file}", err=True)
    click.echo(f"stop with: skewjoin-dev spark-thrift stop --dir {workdir}", err=True)


@spark_thrift.command("stop", short_help="Stop the server recorded in --dir.")
@_dir_option
def stop(workdir: Path) -> None:
    """Stop the server recorded in DIR (SIGTERM, then SIGKILL after 30 s).

    Does nothing, successfully, when no server is running there.
    """
    from skewjoin_devtools.thrift_server import ThriftServer, ThriftServerError

    try:
        server = ThriftServer.from_state(workdir)
    except ThriftServerError:
        click.echo(f"no server recorded in {workdir}")
        return
    signalled = server.stop()
    click.echo(f"stopped pid={server.pid}" if signalled else f"pid={server.pid} was not running")


@spark_thrift.command("status", short_help="Is the server in --dir running? (exit 0 yes, 1 no)")
@_dir_option
def status(workdir: Path) -> None:
    """Show whether the server recorded in DIR runs; exit 0 if running, 1 if not."""
    from skewjoin_devtools.thrift_server import ThriftServer

    state = ThriftServer(workdir).status()
    if state["running"]:
        click.echo(f"running {state['host']}:{state['port']} pid={state['pid']}")
        return
    if state["pid"] is not None:
        click.echo(f"not running (stale record: pid={state['pid']} port={state['port']})")
    else:
        click.echo(f"not running (no server recorded in {workdir})")
    raise SystemExit(1)

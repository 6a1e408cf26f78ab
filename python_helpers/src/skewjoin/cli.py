"""The ``skewjoin`` command line: click options wired to the package's functions.

Each command parses its options and calls one function of the module that does
the work (:mod:`skewjoin.profiler`, :mod:`skewjoin.prune_command`); no logic
lives here beyond turning options into arguments. Any
:class:`~skewjoin.errors.SkewjoinError` becomes a clean error message and exit
code 1 (:class:`SkewjoinGroup`); malformed options exit 2, as click does, and so
does a bad ``skewjoin prune`` spec (:class:`~skewjoin.errors.PruneSpecError`).

Heavy modules (PySpark, dbt) are imported inside the commands, so ``--help``
stays fast. The benchmark and the local Spark Thrift Server launcher are not
subcommands: they are the ``skewjoin-bench`` and ``skewjoin-dev`` commands of
the repository's own ``bench/`` and ``devtools/`` projects, which this package
does not ship.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from skewjoin.errors import OptionError, PruneSpecError, SkewjoinError
from skewjoin.options import DEFAULTS, JOIN_TYPES
from skewjoin.sources import FORMATS
from skewjoin.spark_backend import parse_conf

F = TypeVar("F", bound=Callable[..., Any])

logger = logging.getLogger("skewjoin")


class SkewjoinGroup(click.Group):
    """A click group that turns the package's errors into click errors."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SkewjoinError as exc:
            logger.debug("%s", exc, exc_info=True)
            error = BadInputError if isinstance(exc, PruneSpecError) else click.ClickException
            raise error(exc.summary()) from exc


class BadInputError(click.ClickException):
    """A request that is wrong before anything runs (a bad ``skewjoin prune`` spec): exit 2, like a bad option."""

    exit_code = 2


# -- option parsers (click callbacks; public: skewjoin-bench uses them too) -------------


def spark_conf(ctx: click.Context, param: click.Parameter, value: Sequence[str]) -> dict[str, str]:
    """``--conf KEY=VALUE`` (repeatable) as a dict."""
    try:
        return parse_conf(value)
    except OptionError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from exc


def host_port(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[str, int] | None:
    """``HOST:PORT`` as (host, port)."""
    if value is None:
        return None
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise click.BadParameter(f"--thrift expects HOST:PORT, e.g. 127.0.0.1:10000; got {value!r}", ctx, param)
    return host, int(port)


def _columns(ctx: click.Context, param: click.Parameter, value: str | None) -> list[str] | None:
    """Comma-separated column names as a list."""
    if value is None:
        return None
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise click.BadParameter("give at least one column name, e.g. customer_id or k1,k2", ctx, param)
    return names


def _alias(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A plain SQL name."""
    if value is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        raise click.BadParameter(f"an alias is a plain SQL name such as a or orders; got {value!r}", ctx, param)
    return value


# -- skewjoin ---------------------------------------------------------------------------


@click.group(
    name="skewjoin",
    cls=SkewjoinGroup,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.option(
    "-v",
    "--verbose",
    count=True,
    help="More log lines on stderr: -v the package's info lines, -vv also debug details and other libraries' info "
    "(PyHive, dbt). profile and prune print their progress lines without -v (their -q turns them off).",
)
@click.version_option(package_name="skewjoin")
def main(verbose: int) -> None:
    """Helpers for the skewjoin dbt package (Hive join optimizations on Spark).

    \b
    Typical first steps:
      skewjoin profile data/orders.parquet --keys customer_id --thrift 127.0.0.1:10000
      skewjoin prune --spec prune.yml --project-dir . --target dev

    Run `skewjoin COMMAND --help` for the options of each command.
    """
    # -v: our own info lines (profile and prune show theirs unless -q); -vv: our debug output plus other
    # libraries' info (PyHive, dbt).
    logging.basicConfig(
        level=logging.INFO if verbose >= 2 else logging.WARNING,
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logger.setLevel(logging.DEBUG if verbose >= 2 else logging.INFO if verbose else logging.WARNING)


# -- profile ----------------------------------------------------------------------------


def progress_on_stderr(quiet: bool) -> None:
    """Progress lines (INFO) on stderr, with their time, unless `quiet`."""
    if not quiet and logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
    if not logging.getLogger().handlers:
        logging.basicConfig(stream=click.get_text_stream("stderr"), format="%(asctime)s %(message)s")


def spark_location_options(subject: str, thrift_example: str) -> Callable[[F], F]:
    """The options that say where Spark runs (--thrift, or a local session with --warehouse,
    --metastore, --conf, --driver-memory), for a command whose inputs are `subject`."""
    options = [
        click.option(
            "--thrift",
            metavar="HOST:PORT",
            callback=host_port,
            help=f"Run the queries on this Spark Thrift Server (PyHive) instead of a local Spark; {thrift_example}.",
        ),
        click.option(
            "--warehouse",
            type=click.Path(file_okay=False, path_type=Path),
            help=f"Local Spark warehouse directory holding {subject} (spark.sql.warehouse.dir).",
        ),
        click.option(
            "--metastore",
            type=click.Path(file_okay=False, path_type=Path),
            help="The Derby metastore (the metastore_db/ directory, or the directory holding it) that catalogs the "
            "tables of --warehouse, e.g. the one a stopped Spark Thrift Server or a dbt session target "
            f"left; {subject} is then looked up in it. Derby allows one process at a time: stop the server that "
            "uses it first.",
        ),
        click.option(
            "--conf",
            "conf",
            multiple=True,
            metavar="KEY=VALUE",
            callback=spark_conf,
            help="Extra Spark config of the local session, repeatable, e.g. --conf spark.sql.ansi.enabled=false.",
        ),
        click.option(
            "--driver-memory", default="2g", show_default=True, metavar="SIZE", help="Memory of the local Spark driver."
        ),
    ]

    def apply(command: F) -> F:
        for option in reversed(options):
            command = option(command)
        return command

    return apply


@main.command("profile", short_help="Find the hot keys of a join input and plan a skew_join config.")
@click.argument("table")
@click.option(
    "-k",
    "--keys",
    required=True,
    metavar="COLS",
    callback=_columns,
    help="Join key column(s) of TABLE, comma-separated: customer_id, or k1,k2 for a multi-column key.",
)
@click.option(
    "--side",
    callback=_alias,
    default="a",
    show_default=True,
    metavar="ALIAS",
    help="TABLE's alias in skew_join (left_alias a, right_alias b by default); the config names this side.",
)
@click.option(
    "--position",
    type=click.Choice(["left", "right"]),
    default=None,
    help="TABLE's place in skew_join(left, right, ...).  [default: right when --side is b, else left]",
)
@click.option(
    "--other",
    metavar="TABLE",
    help="The other join input (a path or a table, like TABLE). Its rows of each hot key are counted: "
    "few -> broadcast (hot_keys), many -> a skew group.",
)
@click.option(
    "--other-keys",
    metavar="COLS",
    callback=_columns,
    help="Key column(s) of --other, in --keys order.  [default: --keys]",
)
@click.option(
    "--other-side",
    metavar="ALIAS",
    callback=_alias,
    help="Alias of the other input.  [default: b, or a when --side is b]",
)
@click.option(
    "--join-type",
    type=click.Choice(JOIN_TYPES),
    default=DEFAULTS.join_type,
    show_default=True,
    help="The join skew_join will do: outer joins may not copy a preserved side's rows to several slots.",
)
@click.option(
    "--sample",
    type=click.FloatRange(0, 1, min_open=True),
    metavar="FRACTION",
    help="Count a random sample (tablesample) of this fraction of the rows, e.g. 0.1: faster, shares "
    "are estimates with a 95% margin.  [default: every row, exact]",
)
@click.option(
    "--total-slots",
    type=click.IntRange(min=2),
    metavar="N",
    help="Slots (shuffle partitions) the join's groups share, written into the config.  [default: from "
    "--project-dir/--target when given, else left out of the config: the model then uses the session's "
    "spark.sql.shuffle.partitions when it runs]",
)
@click.option(
    "--project-dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="Your dbt project: its var('skewjoin_total_slots') is the slot count, and its `profile:` names "
    "the dbt profile.",
)
@click.option(
    "--profiles-dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="Directory of your profiles.yml: the target's server_side_parameters spark.sql.shuffle.partitions is "
    "the slot count.  [default: as dbt: $DBT_PROFILES_DIR, ./profiles.yml, ~/.dbt]",
)
@click.option("--profile", "dbt_profile", metavar="NAME", help="dbt profile.  [default: the project's `profile:`]")
@click.option(
    "--target", "dbt_target", metavar="NAME", help="dbt target.  [default: $DBT_TARGET, else the profile's target]"
)
@click.option(
    "--min-share",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=DEFAULTS.min_share,
    metavar="FRACTION",
    show_default=True,
    help="A key (or NULL) with at least this fraction of the rows is handled.",
)
@click.option(
    "--max-keys",
    type=click.IntRange(min=1),
    default=DEFAULTS.max_keys,
    show_default=True,
    metavar="N",
    help="Look at the N heaviest keys.",
)
@click.option(
    "--max-broadcast-rows",
    type=click.IntRange(min=0),
    default=DEFAULTS.max_broadcast_rows,
    show_default=True,
    metavar="N",
    help="Budget of other-side rows the hot keys may broadcast in all (with --other).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default=None,
    help="Format of TABLE when it is a path.  [default: from the file names, else parquet]",
)
@click.option(
    "--other-format", "other_fmt", type=click.Choice(FORMATS), default=None, help="Format of --other when it is a path."
)
@spark_location_options("TABLE", "TABLE is then a relation there, e.g. the schema.table dbt built")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (measurements, plan, config) instead.")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines on stderr.")
def profile(
    position: str | None,
    sample: float | None,
    project_dir: Path | None,
    profiles_dir: Path | None,
    dbt_profile: str | None,
    dbt_target: str | None,
    thrift: tuple[str, int] | None,
    warehouse: Path | None,
    metastore: Path | None,
    conf: dict[str, str],
    driver_memory: str,
    as_json: bool,
    quiet: bool,
    **asked: Any,
) -> None:
    """Find the heavy keys of TABLE and print a ready-to-paste skew_join config.

    TABLE is a Parquet/ORC/CSV/JSON path, a table of a local Spark warehouse
    (--warehouse, with its --metastore), or with --thrift a relation on a
    running Spark Thrift Server. One aggregate query counts the rows of every
    key (exact, or a sample with --sample) and returns the heaviest, the total
    and the NULL keys. Each key with at least --min-share of the rows becomes a
    hot key (broadcast join) or, when --other shows the other input has too
    many rows of it, a skew group with its own slots (about share x total
    slots). NULL keys above --min-share become `null` in hot_keys: they bypass
    the join.

    The slots are planned for the Spark that runs your model: --total-slots N,
    or your dbt project and target (--project-dir, --profiles-dir, --profile,
    --target: var('skewjoin_total_slots'), else the target's
    server_side_parameters spark.sql.shuffle.partitions). Without either, the
    config leaves total_slots out, so the model uses its session's
    spark.sql.shuffle.partitions, and the plan says what it assumed. A comment
    line above the config says which.

    \b
    Examples:
      skewjoin profile data/orders.parquet --keys customer_id
      skewjoin profile data/orders.parquet -k customer_id --other data/customers.parquet
      skewjoin profile data/orders.parquet -k customer_id --project-dir . --target prod
      skewjoin profile skewjoin_it.orders -k customer_id --thrift 127.0.0.1:10000 --sample 0.1
      skewjoin profile skewjoin.orders -k region,customer_id --warehouse spark-warehouse --metastore . --json

    The report goes to stdout and ends with the config twice: YAML for a
    model's `config:` in a properties file, and a Jinja line
    {{ config(skew_join={...}) }} for the top of the model. Progress goes to
    stderr (-q to silence).
    """
    from skewjoin.profiler import DbtTarget, ProfileRequest, run_profile
    from skewjoin.sources import SparkLocation

    progress_on_stderr(quiet)
    if asked["other_keys"] is not None and asked["other"] is None:
        raise click.BadParameter("--other-keys needs --other", param_hint="--other-keys")
    dbt_given = any(v is not None for v in (project_dir, profiles_dir, dbt_profile, dbt_target))
    # every other option is a field of the request, by the same name (TABLE, --keys, --min-share, ...)
    request = ProfileRequest(
        **asked,
        position="right" if position == "right" or (position is None and str(asked["side"]).lower() == "b") else "left",
        sample=None if sample is None or sample >= 1 else sample,
        dbt=DbtTarget(project_dir, profiles_dir, dbt_profile, dbt_target) if dbt_given else None,
    )
    location = SparkLocation(thrift, warehouse, metastore, conf, driver_memory)
    result = run_profile(request, location)
    if as_json:
        click.echo(json.dumps(result.json(), indent=2, ensure_ascii=False))
    else:
        click.echo(result.report(), nl=False)


# -- prune ------------------------------------------------------------------------------


@main.command("prune", short_help="Write the prune cache for a run, and show the predicates prune_predicate renders.")
@click.option(
    "--spec",
    "spec_file",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="YAML or JSON: one request or a list of requests (see above).",
)
@click.option(
    "--project-dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Your dbt project, with the skewjoin package installed (dbt deps).",
)
@click.option(
    "--profiles-dir",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help="Directory of your profiles.yml.  [default: as dbt: $DBT_PROFILES_DIR, ./profiles.yml, ~/.dbt]",
)
@click.option(
    "--target", "dbt_target", metavar="NAME", help="dbt target.  [default: $DBT_TARGET, else the profile's target]"
)
@click.option(
    "--cache-run",
    metavar="RUN",
    help="First write each small relation's key set into the prune cache for this run "
    "(skewjoin.prune_key_sets); then `dbt run --vars '{skewjoin_prune_cache: true, skewjoin_prune_cache_run: RUN}'` "
    "renders the literal predicates from it.",
)
@click.option(
    "--cache-table",
    metavar="SCHEMA.TABLE",
    help="The prune cache table (var skewjoin_prune_cache_table).  [default: the project's var, else "
    "<target schema>.skewjoin_prune_cache]",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document (predicates, records, cache).")
@click.option("--full", is_flag=True, help="Do not shorten long lines in the report.")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines on stderr.")
def prune_command(
    spec_file: Path,
    project_dir: Path,
    profiles_dir: Path | None,
    dbt_target: str | None,
    cache_run: str | None,
    cache_table: str | None,
    as_json: bool,
    full: bool,
    quiet: bool,
) -> None:
    """Show what skewjoin.prune_predicate renders for each request of --spec
    FILE, and with --cache-run write the key sets into the prune cache first.

    Everything runs through dbt on your project and target (--project-dir,
    --profiles-dir, --target), so the queries, the key sets and the
    predicates are the macros' own: with --cache-run RUN, `dbt run-operation
    skewjoin.prune_key_sets` computes every small relation's key set into the
    prune cache for RUN; then, per request, `dbt compile --inline` of
    skewjoin.prune_predicate (reading that run from the cache) gives its
    decision record (what each small relation gave, the partitions kept)
    and the predicate a model gets, character for character.

    \b
    A request (YAML; JSON works too), or a list of them:
      name: feb_sales                  # optional, names the request in messages
      big: analytics.sales             # a table name or a SELECT text
      big_alias: f                     # or null: bare column names
      small:
        - relation: analytics.dates    # a table name or a SELECT text
          filter: "year = 2026 and month = 2"
          on: [date_key]               # or [[big_column, small_column], ...]
          alias: d                     # optional: the name the filter uses
          join_type: inner             # optional: inner, right, left semi
      join_type: inner                 # default of the small relations
      max_values: 1000                 # above it: the fallback
      fallback: range                  # range, semi_join or none

    A bad request (or one whose join keeps every big row: left, full, left
    anti) stops with the macro's error, naming the request and the argument,
    and exits 2.

    \b
    Examples:
      skewjoin prune --spec prune.yml
      skewjoin prune --spec prune.yml --project-dir analytics --target prod --json
      skewjoin prune --spec prune.yml --cache-run nightly-2026-11-25
      dbt run --vars '{skewjoin_prune_cache: true, skewjoin_prune_cache_run: nightly-2026-11-25}'
    """
    from skewjoin.prune_command import DbtProjectTarget, load_spec, run_prune

    progress_on_stderr(quiet)
    if cache_table is not None and cache_run is None:
        raise click.BadParameter("--cache-table needs --cache-run", param_hint="--cache-table")
    requests = load_spec(spec_file)
    run = run_prune(requests, DbtProjectTarget(project_dir, profiles_dir, dbt_target), cache_run, cache_table)
    if as_json:
        click.echo(json.dumps(run.json(), indent=2, ensure_ascii=False))
    else:
        click.echo(run.report(full), nl=False)

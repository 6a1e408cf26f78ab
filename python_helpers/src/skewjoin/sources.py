"""The input of ``skewjoin profile``: a local Spark for files and local warehouses, and the relation to read.

- :func:`open_local` starts the local Spark session the profile runs on, with
  a warehouse directory (``--warehouse``) and a Derby metastore
  (``--metastore``) when given;
- :func:`resolve_source` turns what the user typed (a Parquet/ORC/CSV/JSON path,
  ``schema.table``) into the text of a FROM clause: a temporary view over a
  path, a catalog table, or a table directory of the warehouse;
- :func:`describe` and :func:`pick_columns` find the key columns and their types.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from skewjoin.errors import ProfileError
from skewjoin.literals import is_complex_type, quote_option_string, spark_ident
from skewjoin.spark_backend import LocalSession, SparkBackend, ThriftConnection

logger = logging.getLogger(__name__)

FORMATS = ("parquet", "orc", "csv", "json")
_RELATION_NAME = re.compile(
    r"(?:`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_]*)(?:\.(?:`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_]*)){0,2}"
)


def metastore_db(metastore: Path) -> Path:
    """The Derby ``metastore_db/`` directory at or under *metastore*."""
    db_dir = metastore.resolve()
    if db_dir.name != "metastore_db" and (db_dir / "metastore_db").is_dir():
        db_dir = db_dir / "metastore_db"
    if not db_dir.is_dir():
        raise ProfileError(f"--metastore {metastore}: no Derby metastore_db/ there")
    return db_dir


def open_local(
    conf: Mapping[str, str] | None = None,
    warehouse: Path | None = None,
    metastore: Path | None = None,
    driver_memory: str = "2g",
) -> LocalSession:
    """A local Spark session for the profile: tables of *warehouse* (its catalog in *metastore*, a
    Derby ``metastore_db/`` no running server uses), *conf* on top."""
    settings: dict[str, str] = {"spark.driver.memory": driver_memory}
    if warehouse is not None:
        settings["spark.sql.warehouse.dir"] = str(warehouse.resolve())
    if metastore is not None:
        settings["spark.sql.catalogImplementation"] = "hive"
        url = f"jdbc:derby:;databaseName={metastore_db(metastore)};create=false"
        settings["spark.hadoop.javax.jdo.option.ConnectionURL"] = url
    settings.update(conf or {})
    return LocalSession(settings, app_name="skewjoin profile", scratch_prefix="skewjoin-profile-")


@dataclass(frozen=True)
class SparkLocation:
    """Where the profile's SQL runs: a Spark Thrift Server (*thrift* = host, port), or a local
    session with an optional warehouse, metastore, extra settings and driver memory."""

    thrift: tuple[str, int] | None = None
    warehouse: Path | None = None
    metastore: Path | None = None
    conf: Mapping[str, str] = field(default_factory=dict)
    driver_memory: str = "2g"

    def __post_init__(self) -> None:
        if self.thrift is not None and (self.warehouse or self.metastore or self.conf):
            raise ProfileError("--warehouse, --metastore and --conf configure the local Spark; --thrift uses a server")

    def describe(self) -> str:
        if self.thrift is not None:
            return f"the Spark Thrift Server {self.thrift[0]}:{self.thrift[1]}"
        return "a local Spark session"

    def open(self) -> SparkBackend:
        if self.thrift is not None:
            return ThriftConnection(*self.thrift)
        return open_local(self.conf, self.warehouse, self.metastore, self.driver_memory)


def _warehouse_of(backend: SparkBackend) -> Path | None:
    """The warehouse directory the user gave a local session (None for the scratch one or a server)."""
    if not isinstance(backend, LocalSession):
        return None
    directory = Path(backend.settings["spark.sql.warehouse.dir"])
    return None if backend.scratch in directory.parents else directory


def resolve_table(backend: SparkBackend, name: str) -> tuple[str, str] | None:
    """(FROM text, description) of a table: in the catalog, or a table directory in the local
    warehouse (dbt-spark's layout); on a server, Spark says whether it exists."""
    if not isinstance(backend, LocalSession):
        return _quote_relation(name), f"table {name} on {backend.description}"
    if backend.spark.catalog.tableExists(name):
        return _quote_relation(name), f"table {name} on {backend.description}"
    warehouse = _warehouse_of(backend)
    if warehouse is None:
        return None
    parts = [p.strip("`") for p in _split_relation(name)]
    candidates = [warehouse.joinpath(*parts[:-1], parts[-1])]
    if len(parts) >= 2:
        candidates.insert(0, warehouse / f"{parts[-2]}.db" / parts[-1])
    else:
        candidates.append(warehouse / "default.db" / parts[-1])
    for path in candidates:
        if path.is_dir():
            logger.info("table %s not in the catalog; reading its warehouse directory %s", name, path)
            fmt = guess_format(path)
            view = register_path(backend, str(path), fmt, "sj_profile_" + re.sub(r"\W", "_", parts[-1]))
            return view, f"table {name} ({fmt} files in {path})"
    return None


def _split_relation(name: str) -> list[str]:
    return re.findall(r"`(?:[^`]|``)+`|[^.`]+", name)


def _quote_relation(name: str) -> str:
    return ".".join(p if p.startswith("`") else spark_ident(p) for p in _split_relation(name))


def guess_format(path: Path) -> str:
    """parquet | orc | csv | json from the file's or the directory's data files' extension."""
    names = (
        [path.name]
        if path.is_file()
        else sorted(p.name for p in path.rglob("*") if p.is_file() and not p.name.startswith(("_", ".")))
    )
    for name in names:
        for fmt in FORMATS:
            if name.lower().endswith(("." + fmt, "." + fmt + ".gz", "." + fmt + ".snappy")) or (
                fmt == "parquet" and ".parquet" in name.lower()
            ):
                return fmt
            if fmt == "orc" and ".orc" in name.lower():
                return fmt
    return "parquet"


def register_path(backend: SparkBackend, path: str, fmt: str | None, view: str) -> str:
    """A temporary view over the data at *path*; returns its name."""
    local = Path(path)
    if fmt is None:
        fmt = guess_format(local) if local.exists() else "parquet"
    options = {"path": str(local.resolve()) if local.exists() else path}
    if fmt == "csv":
        options.update({"header": "true", "inferSchema": "true"})
    option_sql = ", ".join(f"{k} {quote_option_string(v)}" for k, v in options.items())
    backend.sql(f"create or replace temporary view {view} using {fmt} options ({option_sql})")
    return view


def resolve_source(backend: SparkBackend, table: str, fmt: str | None, view: str) -> tuple[str, str]:
    """(FROM text, description) of a path or a relation name."""
    if fmt is not None or os.path.exists(table) or "/" in table:
        if fmt is None and not os.path.exists(table) and isinstance(backend, LocalSession):
            raise ProfileError(f"{table}: no such file or directory")
        from_sql = register_path(backend, table, fmt, view)
        return from_sql, f"{table} ({fmt or guess_format(Path(table))})"
    if not _RELATION_NAME.fullmatch(table):
        raise ProfileError(
            f"{table!r} is neither an existing path nor a table name (schema.table, `quoted name` allowed)"
        )
    resolved = resolve_table(backend, table)
    if resolved is None:
        hint = " (no --warehouse given)" if isinstance(backend, LocalSession) and _warehouse_of(backend) is None else ""
        raise ProfileError(
            f"table {table} not found in {backend.description}{hint}; give a Parquet/ORC/CSV path, "
            "--warehouse DIR [--metastore DIR] for a local warehouse, or --thrift HOST:PORT for a running server"
        )
    return resolved


def describe(backend: SparkBackend, from_sql: str) -> list[tuple[str, str]]:
    """[(column, type)] of a relation."""
    rows = backend.sql(f"describe query select * from {from_sql}")
    return [(str(r[0]), str(r[1])) for r in rows if r[0] and not str(r[0]).startswith("#")]


def pick_columns(columns: Sequence[tuple[str, str]], wanted: Sequence[str], what: str) -> list[tuple[str, str]]:
    """The (name, type) of each wanted key column, matched case-insensitively."""
    by_lower = {name.lower(): (name, dtype) for name, dtype in columns}
    picked = []
    for name in wanted:
        found = by_lower.get(name.strip("`").lower())
        if found is None:
            raise ProfileError(f"{what} has no column {name!r}; its columns are: {', '.join(c for c, _ in columns)}")
        if is_complex_type(found[1]):
            raise ProfileError(f"key column {found[0]} of {what} has type {found[1]}; join keys must be scalar")
        picked.append(found)
    return picked

"""Python helpers for the skewjoin dbt package.

Modules, one concern each:

- :mod:`skewjoin.thrift_server` -- start/stop a local Spark Thrift Server
- :mod:`skewjoin.sql` -- run SQL through PyHive, compare results as multisets
- :mod:`skewjoin.dbt_runner` -- run dbt in-process, read compiled SQL
- :mod:`skewjoin.pytest_plugin` -- pytest fixtures (``spark_thrift``, ``spark_sql``, ``dbt_project``)
- :mod:`skewjoin.cli` -- the ``skewjoin`` command
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("skewjoin")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = ["__version__"]

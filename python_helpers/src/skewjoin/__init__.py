"""Python helpers for the skewjoin dbt package: what belongs outside ``dbt run``.

(The benchmark and the development tools are not here: they are the repository's own
``bench/`` (``skewjoin-bench``) and ``devtools/`` (``skewjoin-dev``: the local Spark Thrift
Server launcher, the pytest fixtures) projects, which depend on this package and are not
shipped with it.)

Modules, one concern each:

- :mod:`skewjoin.cli` -- the ``skewjoin`` command (click options wired to the functions below)
- :mod:`skewjoin.errors` -- :class:`~skewjoin.errors.SkewjoinError` and its subclasses, every error raised on purpose
- :mod:`skewjoin.spark_backend` -- where Spark SQL runs: a local PySpark session or a Spark Thrift Server (PyHive)
- :mod:`skewjoin.dbt_runner` -- run dbt in-process, read compiled SQL
- :mod:`skewjoin.dbt_target` -- the slot count a dbt project and target run ``skew_join`` with
- :mod:`skewjoin.profiler` -- ``skewjoin profile``: measure the heavy keys of a join input
- :mod:`skewjoin.sources` -- the profile's input: a local Spark, a path or a table
- :mod:`skewjoin.planner` -- the slot planner: measured key counts to hot keys, skew groups and slots
- :mod:`skewjoin.options` -- the planner's options and their defaults, defined once
- :mod:`skewjoin.literals` -- Spark SQL text: types, key values as literals, names, queries (the macros' rules)
- :mod:`skewjoin.config_text` -- the config as YAML and as a Jinja ``config()`` line
- :mod:`skewjoin.report` -- the profile's text report and JSON
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("skewjoin")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = ["__version__"]

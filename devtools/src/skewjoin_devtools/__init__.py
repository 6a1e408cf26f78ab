"""Development tools of the skewjoin repository (not shipped with the ``skewjoin`` package).

- :mod:`skewjoin_devtools.thrift_server` -- start, stop and check a local Spark Thrift Server
- :mod:`skewjoin_devtools.command` -- the ``skewjoin-dev spark-thrift start|stop|status`` command
- :mod:`skewjoin_devtools.pytest_plugin` -- opt-in pytest fixtures (``spark_thrift``, ``spark_sql``,
  ``dbt_project``): load with ``-p skewjoin_devtools.pytest_plugin``
- :mod:`skewjoin_devtools.multisets` -- the oracle of the tests: two results are equal as
  multisets of rows (same rows, same duplicates, same NULLs)
"""

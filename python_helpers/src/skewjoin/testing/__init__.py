"""Testing skewjoin on a real Spark: opt-in pytest fixtures and the multiset oracle.

- :mod:`skewjoin.testing.plugin` -- pytest fixtures (``spark_thrift``,
  ``spark_conn``, ``spark_sql``, ``dbt_project``). Installing the package does
  not load them into anyone's pytest runs; a test tree asks for them with
  ``-p skewjoin.testing.plugin`` (e.g. ``addopts`` in ``pytest.ini``) or
  ``pytest_plugins = ["skewjoin.testing.plugin"]`` in its root ``conftest.py``.
- :mod:`skewjoin.testing.multisets` -- the oracle: two results are equal as
  multisets of rows (same rows, same duplicates, same NULLs).
"""

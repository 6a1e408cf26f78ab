"""Earlier home of the PyHive functions, now in :mod:`skewjoin.spark_backend`
(and of the multiset oracle, now in :mod:`skewjoin.testing.multisets`).

New code imports those modules; these names stay importable from here.
"""

from __future__ import annotations

from skewjoin.errors import SparkSqlError
from skewjoin.spark_backend import Row, connect, run_sql
from skewjoin.testing.multisets import MultisetDiff, assert_same_rows, compare_multisets, normalize_value

__all__ = [
    "MultisetDiff",
    "Row",
    "SparkSqlError",
    "assert_same_rows",
    "compare_multisets",
    "connect",
    "normalize_value",
    "run_sql",
]

"""The oracle of every skewjoin test: two results are equal as multisets of rows.

"Same rows, same duplicates, same NULLs as the plain Spark join" is multiset
equality. :func:`compare_multisets` implements it with
:class:`collections.Counter` over normalized tuples; :func:`assert_same_rows`
runs two queries on a PyHive connection and compares them.
"""

from __future__ import annotations

import datetime as _dt
import logging
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from skewjoin.spark_backend import Row, run_sql

if TYPE_CHECKING:
    from pyhive.hive import Connection

logger = logging.getLogger(__name__)

FLOAT_SIGNIFICANT_DIGITS = 9
MAX_ROWS_SHOWN = 20


class _NaN:
    """Stand-in for float NaN, which is not equal to itself and would never match."""

    _instance: _NaN | None = None

    def __new__(cls) -> _NaN:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "nan"


NAN = _NaN()


def normalize_value(value: Any) -> Any:
    """A hashable, comparison-friendly form of one value.

    - ``Decimal`` stays exact (``Decimal('1.50') == Decimal('1.5')`` already).
    - ``float`` is rounded to 9 significant digits; every NaN becomes one marker.
    - ``datetime``/``date``, strings, ints, bools and ``None`` are kept as-is.
    - lists/tuples become tuples and dicts sorted item tuples (nested types).
    """
    if value is None or isinstance(value, (bool, int, str, bytes, Decimal, _dt.date)):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            return NAN
        if math.isinf(value) or value == 0.0:
            return value + 0.0  # -0.0 -> 0.0
        return float(f"{value:.{FLOAT_SIGNIFICANT_DIGITS - 1}e}")
    if isinstance(value, (list, tuple)):
        return tuple(normalize_value(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted(((normalize_value(k), normalize_value(v)) for k, v in value.items()), key=repr))
    return value


def normalize_row(row: Sequence[Any]) -> Row:
    return tuple(normalize_value(v) for v in row)


@dataclass
class MultisetDiff:
    """Difference between two multisets of rows.

    ``missing``: rows (with counts) the expected side has more often than the actual side.
    ``extra``: rows (with counts) the actual side has more often than the expected side.
    """

    actual_count: int
    expected_count: int
    missing: Counter[Row] = field(default_factory=Counter)
    extra: Counter[Row] = field(default_factory=Counter)

    @property
    def equal(self) -> bool:
        return not self.missing and not self.extra

    def __str__(self) -> str:
        head = f"actual: {self.actual_count} rows, expected: {self.expected_count} rows"
        if self.equal:
            return f"equal multisets ({head})"
        lines = [f"multisets differ ({head})"]
        for label, rows in (
            ("missing (in expected, not in actual)", self.missing),
            ("extra (in actual, not in expected)", self.extra),
        ):
            total = sum(rows.values())
            lines.append(f"{label}: {total} rows, {len(rows)} distinct")
            for row, count in _sorted_rows(rows)[:MAX_ROWS_SHOWN]:
                lines.append(f"  {count} x {row!r}")
            if len(rows) > MAX_ROWS_SHOWN:
                lines.append(f"  ... and {len(rows) - MAX_ROWS_SHOWN} more distinct rows")
        return "\n".join(lines)


def _sorted_rows(rows: Counter[Row]) -> list[tuple[Row, int]]:
    """Rows in natural order (NULLs first) when comparable, else by their repr."""

    def key(row: Row) -> tuple[Any, ...]:
        return tuple((0, 0) if v is None or v is NAN else (1, v) for v in row)

    try:
        return sorted(rows.items(), key=lambda item: key(item[0]))
    except TypeError:
        return sorted(rows.items(), key=lambda item: repr(item[0]))


def compare_multisets(actual_rows: Iterable[Sequence[Any]], expected_rows: Iterable[Sequence[Any]]) -> MultisetDiff:
    """Compare two row collections as multisets (order ignored, duplicates counted)."""
    actual = Counter(normalize_row(r) for r in actual_rows)
    expected = Counter(normalize_row(r) for r in expected_rows)
    return MultisetDiff(
        actual_count=sum(actual.values()),
        expected_count=sum(expected.values()),
        missing=expected - actual,
        extra=actual - expected,
    )


def assert_same_rows(conn: Connection, actual_sql: str, expected_sql: str) -> int:
    """Run both queries; raise AssertionError with the diff unless they return the same multiset.

    Returns the number of rows (with duplicates) when equal.
    """
    actual = run_sql(conn, actual_sql)
    expected = run_sql(conn, expected_sql)
    diff = compare_multisets(actual, expected)
    if not diff.equal:
        raise AssertionError(f"{diff}\n-- actual sql:\n{actual_sql}\n-- expected sql:\n{expected_sql}")
    logger.info("same rows: %d", diff.actual_count)
    return diff.actual_count

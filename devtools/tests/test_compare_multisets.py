"""compare_multisets is the oracle of every skewjoin test: check it can fail."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from decimal import Decimal

from skewjoin_devtools.multisets import MAX_ROWS_SHOWN, compare_multisets, normalize_value


def test_equal_regardless_of_order() -> None:
    diff = compare_multisets([(1, "a"), (2, "b"), (3, "c")], [(3, "c"), (1, "a"), (2, "b")])
    assert diff.equal
    assert not diff.missing and not diff.extra
    assert diff.actual_count == diff.expected_count == 3


def test_duplicates_are_counted() -> None:
    diff = compare_multisets([(1, "a"), (1, "a")], [(1, "a")])
    assert not diff.equal
    assert diff.extra == Counter({(1, "a"): 1})
    assert diff.missing == Counter()

    diff = compare_multisets([(1, "a")], [(1, "a"), (1, "a"), (1, "a")])
    assert diff.missing == Counter({(1, "a"): 2})
    assert diff.extra == Counter()


def test_same_distinct_rows_different_multiplicities_differ() -> None:
    # A set comparison would call these equal; a multiset comparison must not.
    diff = compare_multisets([(1,), (1,), (2,)], [(1,), (2,), (2,)])
    assert not diff.equal
    assert diff.missing == Counter({(2,): 1})
    assert diff.extra == Counter({(1,): 1})


def test_nulls_match_nulls_and_only_nulls() -> None:
    assert compare_multisets([(None, 1), (None, None)], [(None, None), (None, 1)]).equal
    diff = compare_multisets([(None, 1)], [(0, 1)])
    assert diff.missing == Counter({(0, 1): 1})
    assert diff.extra == Counter({(None, 1): 1})
    diff = compare_multisets([(None,)], [("",)])
    assert not diff.equal
    # a NULL row lost by an outer join is reported
    diff = compare_multisets([(1, "x")], [(1, "x"), (None, None)])
    assert diff.missing == Counter({(None, None): 1})


def test_decimal_is_exact() -> None:
    assert compare_multisets([(Decimal("1.50"),)], [(Decimal("1.5"),)]).equal
    diff = compare_multisets([(Decimal("0.1000000001"),)], [(Decimal("0.1"),)])
    assert not diff.equal, "Decimals must not be rounded"
    diff = compare_multisets([(Decimal("12345678901234567890.12"),)], [(Decimal("12345678901234567890.13"),)])
    assert not diff.equal


def test_floats_equal_to_nine_significant_digits() -> None:
    assert compare_multisets([(0.1 + 0.2,)], [(0.3,)]).equal
    assert compare_multisets([(123456.7891,)], [(123456.78910000001,)]).equal
    assert compare_multisets([(1.0e-12 * 3,)], [(3.0e-12,)]).equal
    assert not compare_multisets([(1.00000001,)], [(1.0000001,)]).equal
    assert not compare_multisets([(0.3,)], [(0.31,)]).equal
    assert not compare_multisets([(1e20,)], [(1.000001e20,)]).equal


def test_special_floats() -> None:
    nan = float("nan")
    assert compare_multisets([(nan,)], [(float("nan"),)]).equal
    assert compare_multisets([(-0.0,)], [(0.0,)]).equal
    assert compare_multisets([(float("inf"),)], [(float("inf"),)]).equal
    assert not compare_multisets([(float("inf"),)], [(float("-inf"),)]).equal
    assert not compare_multisets([(nan,)], [(None,)]).equal


def test_datetimes_kept_as_is() -> None:
    t = dt.datetime(2024, 1, 1, 10, 0, 0, 123456)
    assert compare_multisets([(t,)], [(dt.datetime(2024, 1, 1, 10, 0, 0, 123456),)]).equal
    assert not compare_multisets([(t,)], [(t.replace(microsecond=123457),)]).equal
    assert not compare_multisets([(dt.date(2024, 1, 1),)], [(dt.date(2024, 1, 2),)]).equal


def test_nested_values_are_hashable() -> None:
    assert normalize_value([1, [2.0000000001, None]]) == (1, (2.0, None))
    assert compare_multisets([([1, 2], {"b": 1, "a": 2})], [((1, 2), {"a": 2, "b": 1})]).equal


def test_row_width_matters() -> None:
    assert not compare_multisets([(1, None)], [(1,)]).equal


def test_str_is_readable_and_bounded() -> None:
    actual = [(i, "x") for i in range(30)]
    expected = [(i, "x") for i in range(5, 60)] + [(7, "x")]
    diff = compare_multisets(actual, expected)
    text = str(diff)
    assert "actual: 30 rows, expected: 56 rows" in text
    assert "missing (in expected, not in actual): 31 rows, 31 distinct" in text
    assert "extra (in actual, not in expected): 5 rows, 5 distinct" in text
    assert "1 x (7, 'x')" in text
    shown = [line for line in text.splitlines() if line.startswith("  ") and " x (" in line]
    assert len(shown) == MAX_ROWS_SHOWN + 5
    assert "... and 11 more distinct rows" in text
    assert "equal multisets" in str(compare_multisets([], []))

"""What the measuring cost, on a real run: the decision record's last line
counts the compile-time queries and their wall time (query_ledger.sql). The
render tier pins the line's text with the seconds written <elapsed>; here the
seconds are real and must be plausible: more than nothing, at least what the
record's own per-query times say for the 'auto' counts, and at most the dbt
command's wall time."""

from __future__ import annotations

import re
import time

import pytest
from support import inline_compiled_sql

from skewjoin_devtools.pytest_plugin import DbtProject

pytestmark = pytest.mark.spark

_COST = re.compile(
    r"measuring cost: (?P<n>\d+) compile-time queries \((?P<data>\d+) reading data\), "
    r"(?P<seconds>\d+\.\d\d) s of wall time; by kind: (?P<kinds>.*)"
)
_KIND = re.compile(r"(?P<kind>[^;]+?) (?P<n>\d+), (?P<seconds>\d+\.\d\d) s")


def test_auto_record_says_what_its_measuring_cost(inputs_built: DbtProject) -> None:
    model = (
        "{{ config(skew_join={'auto': {'max_broadcast_rows': 1, 'total_slots': 40}}) }}\n"
        "{{ skewjoin.skew_join(ref('spread_left'), ref('spread_right'), on=['k'], "
        "columns=['a.id', 'a.k', 'b.label']) }}"
    )
    started = time.monotonic()
    sql = inline_compiled_sql(inputs_built.run(["compile", "--inline", model]))
    wall = time.monotonic() - started
    record = sql.split("*/")[0]
    (cost,) = [m for m in (_COST.search(line) for line in record.splitlines()) if m]
    kinds = {m["kind"].strip(): (int(m["n"]), float(m["seconds"])) for m in _KIND.finditer(cost["kinds"])}
    # the two 'auto' reads (one a side: the sketch), the column lists of both sides, the settings read, the
    # placement of the group's 32 slots, how far the group's salt reaches; the aggregates and the reach read data
    assert kinds["'auto' counts"][0] == 2 and kinds["salt reach"][0] == 1, cost.group(0)
    assert int(cost["data"]) == 3, cost.group(0)
    assert kinds["column lists"][0] == 2 and kinds["slot placement"][0] == 1, cost.group(0)
    assert sum(n for n, _ in kinds.values()) == int(cost["n"])
    total = float(cost["seconds"])
    measured = [float(s) for s in re.findall(r"skew measured on .*?[,;] (\d+\.\d+) s\): ", record)]
    assert len(measured) == 2, record
    # each 'auto' count is timed twice (its own line, and the ledger around the same run_query); the
    # lines print tenths of a second, the ledger hundredths: each line may be up to 0.05 s above its count
    assert kinds["'auto' counts"][1] >= sum(measured) - 0.05 * len(measured) - 0.01, (kinds, measured)
    assert 0 < total <= wall, (total, wall)
    assert abs(sum(s for _, s in kinds.values()) - total) <= 0.01 * len(kinds) + 0.01

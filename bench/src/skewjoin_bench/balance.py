"""The join's balance of a finished run, in time and in rows, read again from its event log.

``python -m skewjoin_bench.balance bench-results/<run>`` prints, per scenario,
the medians over its runs of the join stage's longest task over its median
task (the balance target's measure), of the most shuffle rows a join task
read over the median task's, and of the rows the longest task read over the
median's. A longest task that read about the median's rows is long for a
reason other than its data (on a few shared cores: another task's work, the
collector, the JIT); one that read several times the median's rows is a data
straggler, which a plan can remove. Runs made before the report carried the
balance in rows are read the same way.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from skewjoin_bench.eventlog import EventLog, EventLogError, RunMetrics, find_event_log
from skewjoin_bench.scenarios import median_of

#: (column, the RunMetrics property it is the median of)
COLUMNS = (
    ("join max/median (time)", "join_max_over_median"),
    ("join rows max/median", "join_rows_max_over_median"),
    ("longest task's rows / median", "join_longest_rows_over_median"),
)


def balance(data: dict[str, Any], log: EventLog) -> dict[str, dict[str, float | None]]:
    """scenario key -> column -> the median over the scenario's successful runs."""
    metrics: dict[str, list[RunMetrics]] = {}
    for run in data["runs"]:
        if run.get("error"):
            continue
        try:
            measured = log.run(run["marker"])
        except EventLogError:
            continue
        metrics.setdefault(run["scenario"], []).append(measured)
    return {
        key: {name: median_of([getattr(m, prop) for m in runs]) for name, prop in COLUMNS}
        for key, runs in metrics.items()
    }


def markdown(table: dict[str, dict[str, float | None]]) -> str:
    def fmt(value: float | None) -> str:
        return "" if value is None else f"{value:.2f}"

    lines = [
        "| scenario | " + " | ".join(name for name, _ in COLUMNS) + " |",
        "|---|" + "---:|" * len(COLUMNS),
    ]
    lines += [f"| {key} | " + " | ".join(fmt(row[name]) for name, _ in COLUMNS) + " |" for key, row in table.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a run's directory (with bench.json and its event log)")
    args = parser.parse_args(argv)
    data = json.loads((args.run / "bench.json").read_text())
    path = Path(data["event_log"]) if data.get("event_log") else find_event_log(args.run / "eventlog")
    print(markdown(balance(data, EventLog.read(path))))


if __name__ == "__main__":
    main()

"""The scaling curve: makespan ratios of several ``skewjoin-bench`` runs at growing sizes.

``python -m skewjoin_bench.curve --out DIR run1/bench.json run2/bench.json ...``
reads the "where Spark gives up" rows of each run (see
:func:`skewjoin_bench.report.gives_up`) and writes ``bench-curve.md`` (one
row per scenario and strategy, one column per size: the projected makespan at
P=64 as a fraction of Spark's best plain-join setting) and
``bench-curve.png`` (the same, log-log against the fact rows).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def load(paths: list[Path]) -> list[tuple[int, dict[str, Any]]]:
    runs = []
    for path in paths:
        data = json.loads(path.read_text())
        runs.append((int(data["config"]["data"]["rows"]), data))
    return sorted(runs, key=lambda r: r[0])


def series(runs: list[tuple[int, dict[str, Any]]]) -> dict[str, dict[int, float | None]]:
    """(scenario letter + dataset + strategy) -> rows -> makespan ratio against Spark's best."""
    out: dict[str, dict[int, float | None]] = {}
    for rows, data in runs:
        for r in data.get("where_spark_gives_up", []):
            name = f"{r['letter']}. {r['dataset']}: {r['strategy']}"
            out.setdefault(name, {})[rows] = r.get("vs_best")
    return out


def write(runs: list[tuple[int, dict[str, Any]]], out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    curves = series(runs)
    sizes = [rows for rows, _ in runs]
    lines = [
        "# skewjoin-bench: scaling curve",
        "",
        "Projected makespan at P=64 of each skewjoin strategy as a fraction of the best plain-join Spark setting "
        "(medians of each run; lower is better; target for a-d: <= 0.33).",
        "",
        "Runs: " + "; ".join(f"{rows:,} rows: `{data['command']}` ({data['started']})" for rows, data in runs),
        "",
        "| scenario: strategy | " + " | ".join(f"{n:,} rows" for n in sizes) + " |",
        "|---|" + "---:|" * len(sizes),
    ]
    for name, values in curves.items():
        cells = [f"{values[n]:.2f}" if values.get(n) is not None else "–" for n in sizes]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    md = out / "bench-curve.md"
    md.write_text("\n".join(lines) + "\n")
    paths = [md]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 6))
    for name, values in curves.items():
        xs = [n for n in sizes if values.get(n) is not None]
        if xs:
            ax.plot(xs, [values[n] for n in xs], marker="o", label=name)
    ax.axhline(1 / 3, color="black", linestyle=":", label="target 1/3")
    ax.axhline(1.0, color="grey", linestyle="--", label="parity with Spark's best")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("fact rows")
    ax.set_ylabel("makespan at P=64 / Spark's best plain join")
    ax.set_title("skewjoin vs Spark's best setting, by size")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    png = out / "bench-curve.png"
    fig.savefig(png, dpi=110)
    plt.close(fig)
    paths.append(png)
    return paths


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("runs", type=Path, nargs="+", help="bench.json files of runs at different sizes")
    args = parser.parse_args(argv)
    for path in write(load(args.runs), args.out):
        print(path)


if __name__ == "__main__":
    main()

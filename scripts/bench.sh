#!/usr/bin/env bash
# Run the benchmark (`skewjoin-bench`, the bench/ project) at its default size in one local Spark
# application: generated skewed data, the dbt-compiled bench models of
# integration_tests/models/bench, every scenario repeated in rotating order,
# metrics from Spark's event log. Results go to bench-results/<date-time>/
# (bench.md, bench.json, bench.png; gitignored). Extra arguments go to the
# command, e.g. `bash scripts/bench.sh --smoke` or `--rows 5000000`;
# `skewjoin-bench --help` lists them.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
cd "$ROOT"
# every Spark these commands start listens on this machine only
export SPARK_LOCAL_IP=127.0.0.1
export PYSPARK_PYTHON="$BIN/python"
export SKEWJOIN_REPO="$ROOT"
started=$(date +%s)
echo "==> skewjoin-bench (progress on stderr; outputs under $ROOT/bench-results/)"
rc=0
outputs=$("$BIN/skewjoin-bench" --out "$ROOT/bench-results" "$@") || rc=$?
echo "$outputs"
report=$(echo "$outputs" | grep 'bench.md$' || true)
echo "==> done in $(( $(date +%s) - started )) s"
if [ -n "$report" ]; then
    echo "    report: $report"
    echo "    chart:  $(dirname "$report")/bench.png"
fi
exit "$rc"

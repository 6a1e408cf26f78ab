#!/usr/bin/env bash
# The scaling curve: `skewjoin-bench` at three sizes, each 4x the last (the
# skew scenarios, one Spark application per size), then the makespan ratio at
# P=64 of every skewjoin strategy against Spark's best plain-join setting per
# size, as bench-curve.md and bench-curve.png under bench-results/curve-<date-time>/.
# SIZES overrides the sizes (fact rows), e.g. SIZES="250000 1000000 4000000";
# REPS the repetitions of each scenario (default 1: one run a size).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
cd "$ROOT"
# every Spark these commands start listens on this machine only
export SPARK_LOCAL_IP=127.0.0.1
export PYSPARK_PYTHON="$BIN/python"
export SKEWJOIN_REPO="$ROOT"
SIZES=${SIZES:-"625000 2500000 10000000"}
REPS=${REPS:-1}
out="$ROOT/bench-results/curve-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out"
started=$(date +%s)
reports=()
for rows in $SIZES; do
    keys=$(( rows / 10 ))
    echo "==> skewjoin-bench --rows $rows --distinct-keys $keys"
    report=$("$BIN/skewjoin-bench" --out "$out" --rows "$rows" --distinct-keys "$keys" \
        --repetitions "$REPS" --datasets left,right,full,wide,aggregated,skewed "$@" | grep 'bench.md$' || true)
    [ -n "$report" ] && reports+=("$(dirname "$report")/bench.json")
done
"$BIN/python" -m skewjoin_bench.curve --out "$out" "${reports[@]}"
echo "==> done in $(( $(date +%s) - started )) s: $out/bench-curve.md"

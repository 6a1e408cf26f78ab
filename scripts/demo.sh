#!/usr/bin/env bash
# Build the demo pipeline (models/demo) with `dbt build` on embedded Spark
# (dbt-spark method: session), then print what was built and where the skew was.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
RUN_DIR="$ROOT/.spark/demo"
mkdir -p "$RUN_DIR"
# The session method writes metastore_db/ and the warehouse into the working
# directory: keep them in .spark/demo, out of git and out of the tests' way.
cd "$RUN_DIR"
export SKEWJOIN_SPARK_DIR="$RUN_DIR"
export SKEWJOIN_TARGET=session
export PYSPARK_PYTHON="$BIN/python"
started=$(date +%s)
"$BIN/dbt" build --project-dir "$ROOT" --profiles-dir "$ROOT" --target-path "$RUN_DIR/target" --log-path "$RUN_DIR/logs" \
    2> >(grep -v -e 'WARN SparkSession' -e 'log4j' -e 'setLogLevel' -e 'NativeCodeLoader' >&2)
echo
echo "Demo summary (table skewjoin_demo.demo_summary):"
"$BIN/dbt" show --project-dir "$ROOT" --profiles-dir "$ROOT" --target-path "$RUN_DIR/target" --log-path "$RUN_DIR/logs" \
    --select demo_summary --limit 20 --quiet 2>/dev/null
echo
echo "Decision records of the join models:"
grep -ho 'skewjoin.skew_join decision record.*' "$RUN_DIR/logs/dbt.log" | tail -n 2 | sed 's/ | /\n    /g'
echo
echo "Compiled SQL: $RUN_DIR/target/compiled/skewjoin/models/demo/"
echo "Demo finished in $(( $(date +%s) - started )) s."

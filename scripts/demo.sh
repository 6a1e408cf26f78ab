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
# every Spark these commands start listens on this machine only
export SPARK_LOCAL_IP=127.0.0.1
export SKEWJOIN_SPARK_DIR="$RUN_DIR"
export SKEWJOIN_TARGET=session
export PYSPARK_PYTHON="$BIN/python"
started=$(date +%s)
"$BIN/dbt" build --project-dir "$ROOT" --profiles-dir "$ROOT" --target-path "$RUN_DIR/target" --log-path "$RUN_DIR/logs" \
    2> >(grep -v -e 'WARN SparkSession' -e 'log4j' -e 'setLogLevel' -e 'NativeCodeLoader' >&2)
# Spark's own start-up chatter goes to stdout; keep the summary readable.
quiet() { grep -v -E '^(WARNING: Using incubator|[0-9]{2}/[0-9]{2}/[0-9]{2} [0-9:]{8} (WARN|INFO)|Setting default log level|To adjust logging level|\[Stage )' || true; }
"$BIN/dbt" --no-use-colors run-operation skewjoin._sj_demo_summary --project-dir "$ROOT" --profiles-dir "$ROOT" \
    --target-path "$RUN_DIR/target" --log-path "$RUN_DIR/logs" 2>/dev/null | quiet \
    | sed -E 's/^[0-9]{2}:[0-9]{2}:[0-9]{2}  //' \
    | grep -v -E '^(Running with dbt|Registered adapter|Found [0-9]+ |Unable to do partial parsing|Performance info)'
echo
echo "Decision records of the join models (also atop their compiled SQL):"
for model in demo_orders_by_group demo_orders_by_hot_key demo_orders_auto; do
    sed -n '/^\/\* skewjoin/,/^\*\//p' "$RUN_DIR/target/compiled/skewjoin/models/demo/$model.sql"
done
echo
echo "Compiled SQL: $RUN_DIR/target/compiled/skewjoin/models/demo/"
echo "Demo finished in $(( $(date +%s) - started )) s."

#!/usr/bin/env bash
# Run every test: start a local Spark Thrift Server (loopback, free port, its
# own warehouse and Derby directories) and, while it starts, the tests that
# need no Spark (the unit tier of the macros, the Python helpers' and the
# benchmark's unit tests); then the tests that need Spark (marker `spark`:
# dbt integration tests of integration_tests/ against the server, the
# profiler and benchmark on local Spark); lint the integration models with
# sqlfluff; and stop the server by its PID, also when tests fail.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
cd "$ROOT"
export PYSPARK_PYTHON="$BIN/python"
SERVER_DIR="$ROOT/.spark/test-thrift-$$"
START_LOG="$ROOT/.spark/test-thrift-$$.start.log"
rm -rf "$SERVER_DIR"
mkdir -p "$ROOT/.spark"
TESTS=(integration_tests/unit python_helpers/tests bench/tests integration_tests/pytests)
start_pid=""

stop_server() {
    # a start still under way records its PID when it ends: wait for it, then stop
    if [ -n "$start_pid" ]; then wait "$start_pid" 2>/dev/null; fi
    "$BIN/skewjoin" spark-thrift stop --dir "$SERVER_DIR" || true
}
trap stop_server EXIT

# pytest exit 5 means it collected nothing: a failure here
run_pytest() {
    "$BIN/pytest" "${TESTS[@]}" -p no:cacheprovider -ra "$@" ${PYTEST_ARGS:-}
    local rc=$?
    if [ "$rc" = 5 ]; then echo "pytest collected no tests: that is a failure here" >&2; fi
    return "$rc"
}

started=$(date +%s)
echo "==> starting the Spark Thrift Server in the background (log: $START_LOG)"
"$BIN/skewjoin" spark-thrift start --dir "$SERVER_DIR" >"$START_LOG" 2>&1 &
start_pid=$!

echo "==> pytest, the tests that need no Spark (unit tier of the macros, python_helpers, bench), while it starts"
run_pytest -m "not spark"
unit_rc=$?

if ! wait "$start_pid"; then
    start_pid=""
    cat "$START_LOG" >&2
    echo "the Spark Thrift Server did not start; see $SERVER_DIR/thrift.log" >&2
    exit 1
fi
start_pid=""
cat "$START_LOG"
PORT=$("$BIN/python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$SERVER_DIR/thrift.json")
export SKEWJOIN_THRIFT_PORT="$PORT" SKEWJOIN_THRIFT_HOST=127.0.0.1

echo "==> pytest, the tests that need Spark (the integration tests on 127.0.0.1:$PORT, local Spark)"
run_pytest -m spark
spark_rc=$?

echo "==> sqlfluff lint (sparksql dialect, dbt templater) of integration_tests/models"
"$BIN/sqlfluff" lint integration_tests/models --processes 1 --disable-progress-bar
lint_rc=$?

echo "==> done in $(( $(date +%s) - started )) s: pytest exit $unit_rc (no Spark) and $spark_rc (Spark), sqlfluff exit $lint_rc"
if [ "$unit_rc" != 0 ] || [ "$spark_rc" != 0 ] || [ "$lint_rc" != 0 ]; then
    exit 1
fi

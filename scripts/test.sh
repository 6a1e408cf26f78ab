#!/usr/bin/env bash
# Run every test: start a local Spark Thrift Server (loopback, free port, its
# own warehouse and Derby directories) and, while it starts, the tests that
# need no Spark (the render tier (the macros without Spark), the Python helpers' and the
# benchmark's unit tests). Then the tests that need Spark (marker `spark`) in
# two lanes side by side, since neither keeps both cores busy on its own (a
# test spends much of its time in dbt's Python, the server's JVM the rest):
# the first runs the dbt integration tests on the server (marker `thrift`);
# the second the property-based suite on the same server, then the tests
# that start their own local Spark (the profiler, the benchmark, the
# server's command line), then the sqlfluff lint of the integration models.
# Stop the server by its PID, also when tests fail.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
cd "$ROOT"
# every Spark these commands start listens on this machine only
export SPARK_LOCAL_IP=127.0.0.1
export PYSPARK_PYTHON="$BIN/python"
SERVER_DIR="$ROOT/.spark/test-thrift-$$"
START_LOG="$ROOT/.spark/test-thrift-$$.start.log"
SECOND_LOG="$ROOT/.spark/test-second-$$.log"
SECOND_RC="$ROOT/.spark/test-second-$$.rc"
rm -rf "$SERVER_DIR"
mkdir -p "$ROOT/.spark"
TESTS=(tests/render python_helpers/tests devtools/tests bench/tests integration_tests/pytests)
start_pid=""
second_pid=""

stop_server() {
    # a start still under way records its PID when it ends: wait for it, then stop;
    # the second lane uses the server too: wait for it
    if [ -n "$start_pid" ]; then wait "$start_pid" 2>/dev/null; fi
    if [ -n "$second_pid" ]; then wait "$second_pid" 2>/dev/null; fi
    "$BIN/skewjoin-dev" spark-thrift stop --dir "$SERVER_DIR" || true
}
trap stop_server EXIT

# run_pytest PATH... [OPTION...]; pytest exit 5 means it collected nothing: a failure here
run_pytest() {
    "$BIN/pytest" "$@" -p no:cacheprovider -ra ${PYTEST_ARGS:-}
    local rc=$?
    if [ "$rc" = 5 ]; then echo "pytest collected no tests: that is a failure here" >&2; fi
    return "$rc"
}

started=$(date +%s)
echo "==> starting the Spark Thrift Server in the background (log: $START_LOG)"
"$BIN/skewjoin-dev" spark-thrift start --dir "$SERVER_DIR" >"$START_LOG" 2>&1 &
start_pid=$!

# the integration project's package link, made once (no Spark needed): both lanes below read it
"$BIN/dbt" deps --project-dir integration_tests --profiles-dir integration_tests --quiet || exit 1

echo "==> ruff check (every Python tree) and ruff format --check (python_helpers, devtools, bench)"
"$BIN/ruff" check . && "$BIN/ruff" format --check python_helpers devtools bench
ruff_rc=$?

echo "==> pytest, the tests that need no Spark (render tier of the macros, python_helpers, devtools, bench), while it starts"
run_pytest "${TESTS[@]}" -m "not spark"
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

# Two lanes, each pytest with its own temp dir; the property-based suite and the
# lint have dbt write their own target and log paths, as both lanes run dbt in
# the one project at once.
PROPERTIES=integration_tests/pytests/test_properties.py
echo "==> pytest, the tests that need Spark, in two lanes side by side"
echo "    second lane (log: $SECOND_LOG): the property-based suite on the server, then the tests that"
echo "    start their own local Spark"
(
    DBT_TARGET_PATH="$ROOT/.spark/props-target-$$" DBT_LOG_PATH="$ROOT/.spark/props-logs-$$" \
        run_pytest "$PROPERTIES" -m spark --basetemp "$ROOT/.spark/pytest-props-$$"
    echo "$?" >"$SECOND_RC"
    run_pytest "${TESTS[@]}" -m "spark and not thrift" --basetemp "$ROOT/.spark/pytest-local-$$"
    echo "$?" >>"$SECOND_RC"
    echo "==> sqlfluff lint (sparksql dialect, dbt templater) of integration_tests/models"
    DBT_TARGET_PATH="$ROOT/.spark/lint-target-$$" DBT_LOG_PATH="$ROOT/.spark/lint-logs-$$" \
        "$BIN/sqlfluff" lint integration_tests/models --processes 1 --disable-progress-bar
    echo "$?" >>"$SECOND_RC"
) >"$SECOND_LOG" 2>&1 &
second_pid=$!

echo "==> first lane: the other tests on the server (marker thrift), at 127.0.0.1:$PORT"
run_pytest "${TESTS[@]}" -m "spark and thrift" --ignore "$PROPERTIES"
thrift_rc=$?

wait "$second_pid"
second_pid=""
echo "==> second lane (the property-based suite, then local Spark, then the lint), as logged in $SECOND_LOG:"
cat "$SECOND_LOG"
props_rc=$(sed -n 1p "$SECOND_RC" 2>/dev/null)
local_rc=$(sed -n 2p "$SECOND_RC" 2>/dev/null)
lint_rc=$(sed -n 3p "$SECOND_RC" 2>/dev/null)

echo "==> done in $(( $(date +%s) - started )) s: ruff exit $ruff_rc, pytest exit $unit_rc (no Spark)," \
    "$thrift_rc (first lane), ${props_rc:-none} (property-based suite), ${local_rc:-none} (local Spark)," \
    "sqlfluff exit ${lint_rc:-none}"
for rc in "$ruff_rc" "$unit_rc" "$thrift_rc" "$props_rc" "$local_rc" "$lint_rc"; do
    if [ "$rc" != 0 ]; then exit 1; fi
done

#!/usr/bin/env bash
# Run every test: start a local Spark Thrift Server (loopback, free port, its
# own warehouse and Derby directories) and, while it starts, the tests that
# need no Spark (the render tier (the macros without Spark), the Python
# helpers' and the benchmark's unit tests) and, in the background, the tests
# that start their own local Spark (the profiler, the benchmark, the server's
# command line: the third lane, which then lints the integration models with
# sqlfluff once the server answers and the inputs are built, and runs the
# server tests listed in THIRD_LANE). Once it answers, the tests that need it
# (marker `thrift`) in two lanes side by side, since one does not keep both
# cores busy (a test spends much of its time in dbt's Python, the server's JVM
# the rest): the first builds the integration inputs once for every lane, then
# runs the integration tests that build models; the second runs the
# property-based suite, then the tests that only read the inputs (listed in
# SECOND_LANE below).
# Stop the server by its PID, also when tests fail.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
cd "$ROOT"
# every Spark these commands start listens on this machine only
export SPARK_LOCAL_IP=127.0.0.1
export PYSPARK_PYTHON="$BIN/python"
# dbt writes no manifest.json, semantic_manifest.json or run_results.json after each
# command (no test reads them; the 2 MB manifest was half the client's CPU of an inline
# compile): the dbt commands of the tests, the `skewjoin prune` command, the benchmark's
# smoke run and the lint
export DBT_WRITE_JSON=false
# dbt's log files at info, not debug (every statement's SQL, dbt's own events: about 7% of a
# compile's client CPU here, 11.0 s against 10.2 s for the integration models); the tests read
# no log file, and DBT_LOG_LEVEL_FILE=debug make test brings the statements back
export DBT_LOG_LEVEL_FILE="${DBT_LOG_LEVEL_FILE:-info}"
# the project's own modules and the rewritten test files kept compiled between the test runs
# (__pycache__, ignored by git): where the environment sets PYTHONDONTWRITEBYTECODE, as this
# machine's does, each pytest run compiled them again (collecting every test: 4.8 s of CPU
# against 2.8-3.1 s with the compiled files); the installed packages are compiled by pip
unset PYTHONDONTWRITEBYTECODE
SERVER_DIR="$ROOT/.spark/test-thrift-$$"
START_LOG="$ROOT/.spark/test-thrift-$$.start.log"
SECOND_LOG="$ROOT/.spark/test-second-$$.log"
SECOND_RC="$ROOT/.spark/test-second-$$.rc"
LOCAL_LOG="$ROOT/.spark/test-local-$$.log"
LOCAL_RC="$ROOT/.spark/test-local-$$.rc"
# the first lane touches INPUTS.ok (or INPUTS.failed) once the inputs are built;
# SERVER holds the server's port once it answers
INPUTS="$ROOT/.spark/test-inputs-$$"
SERVER="$ROOT/.spark/test-port-$$"
rm -rf "$SERVER_DIR"
mkdir -p "$ROOT/.spark"
TESTS=(tests/render python_helpers/tests devtools/tests bench/tests integration_tests/pytests)
PROPERTIES=integration_tests/pytests/test_properties.py
# The test files whose Spark tests build no model of the integration schema (they read
# the inputs, compile, run dbt unit tests, or write to a schema, table or view of their
# own), so that they can run beside the first lane, which builds the models. A new file
# runs in the first lane unless it is listed here.
# (In the order of TESTS: the integration tests' conftest.py is then the last one
# imported, the `conftest` their `from conftest import ...` reads.)
# (The property suite's batched comparisons left this lane the time for the last two.)
SECOND_LANE=(
    python_helpers/tests/test_profiler.py
    integration_tests/pytests/test_dbt_habits.py
    integration_tests/pytests/test_regressions.py
    integration_tests/pytests/test_star_prune_usability.py
    integration_tests/pytests/test_aqe_handback.py
    integration_tests/pytests/test_identical_hot_rows.py
)
# More such files, run by the third lane after the lint (it has the time to spare: it
# ended 2-3 minutes before the other two, which alone do not keep both cores busy). The two lists
# balance the lanes' ends: at e186be8 the second lane ended 51 s after the first and 80 s after the
# third; with test_key_readings.py moved here the third ended 52 s after the first and 109 s after the
# second; with test_aqe_handback.py moved to the second, 35 s after the first and 82 s after the second
# (10 min 8 s), and test_identical_hot_rows.py moved to the second too.
THIRD_LANE=(
    integration_tests/pytests/test_measuring_cost.py
    integration_tests/pytests/test_prune_helper.py
    integration_tests/pytests/test_key_readings.py
)
start_pid=""
second_pid=""
local_pid=""

stop_server() {
    # a start still under way records its PID when it ends: wait for it, then stop;
    # the second lane uses the server too: wait for it (and let it stop waiting for the inputs)
    if [ -n "$start_pid" ]; then wait "$start_pid" 2>/dev/null; fi
    if [ ! -e "$INPUTS.ok" ]; then touch "$INPUTS.failed"; fi
    if [ -n "$second_pid" ]; then wait "$second_pid" 2>/dev/null; fi
    if [ -n "$local_pid" ]; then wait "$local_pid" 2>/dev/null; fi
    "$BIN/skewjoin-dev" spark-thrift stop --dir "$SERVER_DIR" || true
    rm -f "$INPUTS.ok" "$INPUTS.failed" "$SERVER"
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
# the server's port, chosen here so that the project can be parsed before the server answers
PORT=$("$BIN/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "==> starting the Spark Thrift Server in the background on port $PORT (log: $START_LOG)"
"$BIN/skewjoin-dev" spark-thrift start --dir "$SERVER_DIR" --port "$PORT" >"$START_LOG" 2>&1 &
start_pid=$!

# the integration project's package link, made once (no Spark needed): every lane below reads it
"$BIN/dbt" deps --project-dir integration_tests --profiles-dir integration_tests --quiet || exit 1
# One full parse of the integration project (no Spark needed), copied into the target path of
# every lane: dbt keeps its partial parse per target path and reuses it only for the same
# profile (the port included), vars and --target (the tests' commands name the target), so
# each lane parsed the whole project once more (8-10 s of dbt's Python each), and the first
# lane twice (the inputs' build named no target). A command with other vars still parses
# in full once.
SKEWJOIN_THRIFT_PORT="$PORT" SKEWJOIN_THRIFT_HOST=127.0.0.1 \
    "$BIN/dbt" parse --project-dir integration_tests --profiles-dir integration_tests --target thrift --quiet || exit 1
for lane in props third; do
    mkdir -p "$ROOT/.spark/$lane-target-$$"
    cp integration_tests/target/partial_parse.msgpack "$ROOT/.spark/$lane-target-$$/"
done

echo "==> third lane (log: $LOCAL_LOG): the tests that start their own local Spark, then the lint, in the background"
(
    # their JVMs live a minute or two each: the test server's JIT settings (JIT_OPTIONS:
    # C1 alone compiles what they run hot; C2's compile threads were half of the smoke
    # benchmark's JVM CPU: 104 s -> 71 s, 78 s -> 70 s alone; decision 0003), in the code
    # cache tiered compilation has (240 MB): the JVM's default without it, 48 MB, filled
    # up in the smoke benchmark, and the JVM then stopped compiling ("CodeCache is full.
    # Compiler has been disabled"; these tests alone: 91 s against 103 s)
    JDK_JAVA_OPTIONS="$("$BIN/python" -c 'from skewjoin_devtools.thrift_server import JIT_OPTIONS; print(JIT_OPTIONS)')" \
        run_pytest "${TESTS[@]}" -m "spark and not thrift" --basetemp "$ROOT/.spark/pytest-local-$$"
    echo "$?" >"$LOCAL_RC"
    # the lint compiles the models through dbt, which connects to the server and
    # describes the inputs: wait until the first lane has built them
    while [ ! -e "$INPUTS.ok" ] && [ ! -e "$INPUTS.failed" ]; do sleep 1; done
    if [ -e "$INPUTS.ok" ]; then
        echo "==> sqlfluff lint (sparksql dialect, dbt templater) of integration_tests/models"
        SKEWJOIN_THRIFT_PORT="$(cat "$SERVER")" SKEWJOIN_THRIFT_HOST=127.0.0.1 \
            DBT_TARGET_PATH="$ROOT/.spark/lint-target-$$" DBT_LOG_PATH="$ROOT/.spark/lint-logs-$$" \
            "$BIN/sqlfluff" lint integration_tests/models --processes 1 --disable-progress-bar
        echo "$?" >>"$LOCAL_RC"
        echo "==> ${THIRD_LANE[*]} on the server"
        SKEWJOIN_THRIFT_PORT="$(cat "$SERVER")" SKEWJOIN_THRIFT_HOST=127.0.0.1 SKEWJOIN_INPUTS_BUILT=1 \
            DBT_TARGET_PATH="$ROOT/.spark/third-target-$$" DBT_LOG_PATH="$ROOT/.spark/third-logs-$$" \
            run_pytest "${THIRD_LANE[@]}" -m "spark and thrift" --basetemp "$ROOT/.spark/pytest-third-$$"
        echo "$?" >>"$LOCAL_RC"
    else
        echo "the server did not start or the inputs were not built: no lint, ${THIRD_LANE[*]} not run" >&2
        echo 1 >>"$LOCAL_RC"
        echo 1 >>"$LOCAL_RC"
    fi
    echo "==> third lane done at $(( $(date +%s) - started )) s"
) >"$LOCAL_LOG" 2>&1 &
local_pid=$!

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
export SKEWJOIN_THRIFT_PORT="$PORT" SKEWJOIN_THRIFT_HOST=127.0.0.1
echo "$PORT" >"$SERVER.tmp" && mv "$SERVER.tmp" "$SERVER"
echo "==> server ready at $(( $(date +%s) - started )) s"

# The second lane runs dbt in the one project beside the first: its dbt writes its
# own target and log paths; each pytest has its own temp dir.
echo "==> the tests on the server, in two lanes side by side"
echo "    second lane (log: $SECOND_LOG): the property-based suite, then ${SECOND_LANE[*]}"
echo "    (once the first lane has built the inputs)"
(
    export DBT_TARGET_PATH="$ROOT/.spark/props-target-$$" DBT_LOG_PATH="$ROOT/.spark/props-logs-$$"
    run_pytest "$PROPERTIES" -m spark --basetemp "$ROOT/.spark/pytest-props-$$"
    echo "$?" >"$SECOND_RC"
    while [ ! -e "$INPUTS.ok" ] && [ ! -e "$INPUTS.failed" ]; do sleep 1; done
    if [ -e "$INPUTS.ok" ]; then
        SKEWJOIN_INPUTS_BUILT=1 run_pytest "${SECOND_LANE[@]}" -m "spark and thrift" \
            --basetemp "$ROOT/.spark/pytest-second-$$"
        echo "$?" >>"$SECOND_RC"
    else
        echo "the first lane did not build the inputs: ${SECOND_LANE[*]} not run" >&2
        echo 1 >>"$SECOND_RC"
    fi
    echo "==> second lane done at $(( $(date +%s) - started )) s"
) >"$SECOND_LOG" 2>&1 &
second_pid=$!

echo "==> first lane: the input tables (tag:inputs, once for every lane), at 127.0.0.1:$PORT"
if "$BIN/dbt" build --threads 4 --select tag:inputs --indirect-selection cautious \
    --project-dir integration_tests --profiles-dir integration_tests --target thrift; then
    inputs_rc=0
    touch "$INPUTS.ok"
else
    inputs_rc=1
    touch "$INPUTS.failed"
fi
echo "==> first lane: the other tests on the server (marker thrift) but the second lane's"
ignored=(--ignore "$PROPERTIES")
for file in "${SECOND_LANE[@]}" "${THIRD_LANE[@]}"; do ignored+=(--ignore "$file"); done
if [ "$inputs_rc" = 0 ]; then export SKEWJOIN_INPUTS_BUILT=1; fi
run_pytest "${TESTS[@]}" -m "spark and thrift" "${ignored[@]}"
thrift_rc=$?
echo "==> first lane done at $(( $(date +%s) - started )) s"

wait "$second_pid"
second_pid=""
echo "==> second lane (the property-based suite, the tests that read the inputs), as logged in $SECOND_LOG:"
cat "$SECOND_LOG"
props_rc=$(sed -n 1p "$SECOND_RC" 2>/dev/null)
reader_rc=$(sed -n 2p "$SECOND_RC" 2>/dev/null)
wait "$local_pid"
local_pid=""
echo "==> third lane (the tests that start their own local Spark, the lint, then the THIRD_LANE files), as logged in $LOCAL_LOG:"
cat "$LOCAL_LOG"
local_rc=$(sed -n 1p "$LOCAL_RC" 2>/dev/null)
lint_rc=$(sed -n 2p "$LOCAL_RC" 2>/dev/null)
third_rc=$(sed -n 3p "$LOCAL_RC" 2>/dev/null)

echo "==> done in $(( $(date +%s) - started )) s: ruff exit $ruff_rc, pytest exit $unit_rc (no Spark)," \
    "dbt build of the inputs exit $inputs_rc, pytest exit $thrift_rc (first lane)," \
    "${props_rc:-none} (property-based suite), ${reader_rc:-none} (second lane's files)," \
    "${local_rc:-none} (local Spark), sqlfluff exit ${lint_rc:-none}, ${third_rc:-none} (third lane's files)"
for rc in "$ruff_rc" "$unit_rc" "$inputs_rc" "$thrift_rc" "$props_rc" "$reader_rc" "$local_rc" "$lint_rc" "$third_rc"; do
    if [ "$rc" != 0 ]; then exit 1; fi
done

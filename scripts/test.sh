#!/usr/bin/env bash
# Run every test: start a local Spark Thrift Server (loopback, free port, its
# own warehouse and Derby directories), run pytest (unit tests of
# python_helpers and of the benchmark in bench/, dbt integration tests of
# integration_tests/ against the server), lint the integration models' compiled SQL with sqlfluff, and stop
# the server by its PID, also when tests fail.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BIN="$ROOT/.venv/bin"
cd "$ROOT"
export PYSPARK_PYTHON="$BIN/python"
SERVER_DIR="$ROOT/.spark/test-thrift-$$"
rm -rf "$SERVER_DIR"

stop_server() {
    "$BIN/skewjoin" spark-thrift stop --dir "$SERVER_DIR" || true
}
trap stop_server EXIT

started=$(date +%s)
echo "==> starting the Spark Thrift Server"
if ! "$BIN/skewjoin" spark-thrift start --dir "$SERVER_DIR"; then
    echo "the Spark Thrift Server did not start; see $SERVER_DIR/thrift.log" >&2
    exit 1
fi
PORT=$("$BIN/python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["port"])' "$SERVER_DIR/thrift.json")
export SKEWJOIN_THRIFT_PORT="$PORT" SKEWJOIN_THRIFT_HOST=127.0.0.1

echo "==> pytest (unit tier without Spark, then python_helpers, bench and the integration tests on 127.0.0.1:$PORT)"
"$BIN/pytest" integration_tests/unit python_helpers/tests bench/tests integration_tests/pytests -p no:cacheprovider -ra ${PYTEST_ARGS:-}
pytest_rc=$?
if [ "$pytest_rc" = 5 ]; then
    echo "pytest collected no tests: that is a failure here" >&2
fi

echo "==> sqlfluff lint (sparksql dialect, dbt templater) of integration_tests/models"
"$BIN/sqlfluff" lint integration_tests/models --processes 1 --disable-progress-bar
lint_rc=$?

echo "==> done in $(( $(date +%s) - started )) s: pytest exit $pytest_rc, sqlfluff exit $lint_rc"
if [ "$pytest_rc" != 0 ] || [ "$lint_rc" != 0 ]; then
    exit 1
fi

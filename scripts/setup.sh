#!/usr/bin/env bash
# Create the project's virtual environment with the pinned dependencies.
# Usage: scripts/setup.sh PYTHON VENV
set -euo pipefail
PYTHON="${1:-python3}"
VENV="${2:-.venv}"
cd "$(dirname "$0")/.."

bash scripts/check_java.sh

if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
    echo "skewjoin needs Python 3.10 or later (3.11 recommended); '$PYTHON' is $("$PYTHON" --version 2>&1 || echo missing)." >&2
    exit 1
fi

if [ ! -x "$VENV/bin/python" ]; then
    echo "==> creating $VENV"
    "$PYTHON" -m venv "$VENV"
fi
echo "==> installing pinned dependencies (requirements.lock)"
"$VENV/bin/python" -m pip install --quiet --upgrade "pip==26.3"
"$VENV/bin/python" -m pip install --quiet -r requirements.lock
"$VENV/bin/python" -m pip install --quiet --no-deps -e python_helpers
# the development tools (skewjoin-dev: the local Spark Thrift Server, the pytest fixtures) and the
# benchmark (skewjoin-bench): projects of this repository only, not shipped with the helpers
"$VENV/bin/python" -m pip install --quiet --no-deps -e devtools
"$VENV/bin/python" -m pip install --quiet --no-deps -e bench
"$VENV/bin/python" -c 'import dbt.version, pyspark; print("==> ready: dbt-core", dbt.version.__version__, "| pyspark", pyspark.__version__)'

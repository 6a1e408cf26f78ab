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

# pip and setuptools first (setuptools builds the three editable projects below, in this
# environment: no isolated build environment to create for each)
BOOTSTRAP=("pip==26.3" "setuptools==80.9.0")
if [ ! -x "$VENV/bin/python" ]; then
    echo "==> creating $VENV"
    # without the bundled pip, installed then replaced (4 s); the interpreter's own pip
    # installs the pinned one into it, or, if that pip cannot (older than 22.3), the usual way
    if ! { "$PYTHON" -m venv --without-pip "$VENV" &&
        "$PYTHON" -m pip --python "$VENV/bin/python" install --quiet "${BOOTSTRAP[@]}"; }; then
        "$PYTHON" -m venv --clear "$VENV"
        "$VENV/bin/python" -m pip install --quiet --upgrade "${BOOTSTRAP[@]}"
    fi
else
    "$VENV/bin/python" -m pip install --quiet --upgrade "${BOOTSTRAP[@]}"
fi
# requirements.lock pins every dependency, transitive ones included: it installs without
# resolving (--no-deps), in two pip commands side by side with the editable projects (pip
# is one core's work, mostly unpacking and compiling; 33 s one after the other, 16 s so),
# then `pip check` fails the setup if anything a package needs is missing or conflicts
echo "==> installing pinned dependencies (requirements.lock) and the editable projects"
PARTS="$(mktemp -d)"
trap 'rm -rf "$PARTS"' EXIT
HEAVY='^(pyspark|py4j|numpy|matplotlib|contourpy|fonttools|kiwisolver|pillow|cycler|pyparsing|hypothesis|ruff|pytest|pluggy|iniconfig|pygments|sortedcontainers)=='
grep -v '^\s*\(#\|$\)' requirements.lock >"$PARTS/lock.txt"
grep -iE "$HEAVY" "$PARTS/lock.txt" >"$PARTS/a.txt" || true
grep -viE "$HEAVY" "$PARTS/lock.txt" >"$PARTS/b.txt" || true
PIP=("$VENV/bin/python" -m pip install --quiet --no-deps)
"${PIP[@]}" -r "$PARTS/a.txt" &
part_a=$!
"${PIP[@]}" -r "$PARTS/b.txt" &
part_b=$!
# the development tools (skewjoin-dev: the local Spark Thrift Server, the pytest fixtures) and the
# benchmark (skewjoin-bench): projects of this repository only, not shipped with the helpers
"${PIP[@]}" --no-build-isolation -e python_helpers -e devtools -e bench &
editable=$!
failed=0
for job in "$part_a" "$part_b" "$editable"; do
    wait "$job" || failed=1
done
if [ "$failed" != 0 ]; then
    echo "pip could not install requirements.lock or the editable projects (above)" >&2
    exit 1
fi
"$VENV/bin/python" -m pip check
"$VENV/bin/python" -c 'import dbt.version, pyspark; print("==> ready: dbt-core", dbt.version.__version__, "| pyspark", pyspark.__version__)'

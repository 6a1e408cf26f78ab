# skewjoin: two commands on a fresh machine (Python 3.11, Java 17, make).
#   make demo   build the demo pipeline on embedded Spark and print a summary
#   make test   run every test against a local Spark Thrift Server, then lint
#   make bench  run the benchmark (see README, Performance)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench setup clean lint

$(STAMP): requirements.lock python_helpers/pyproject.toml bench/pyproject.toml scripts/setup.sh
	bash scripts/setup.sh "$(PYTHON)" "$(VENV)"
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	bash scripts/demo.sh

test: $(STAMP)
	bash scripts/test.sh

bench: $(STAMP)
	bash scripts/bench.sh

clean:
	rm -rf .spark target dbt_packages logs integration_tests/target integration_tests/dbt_packages integration_tests/logs

# skewjoin: two commands on a fresh machine (Python 3.11, Java 17, make).
#   make demo   build the demo pipeline on embedded Spark and print a summary
#   make test   run every test against a local Spark Thrift Server, then lint
#   make bench  run the benchmark at its default size: the skew scenarios a-h (see docs/performance.md; a-f alone took ~9 min here)
#   make bench-g   scenario g at issue 29's size (4M fact rows, 2400 partitions), twice: Spark's defaults, then
#                  spark.shuffle.accurateBlockSkewedFactor=5 set at the application's start (one repetition each: 40 min on the shared machine)
#   make bench-large   the same at a size where the plain join's straggler takes seconds (10M fact rows, 15M for scenario d), and the uniform data (3 repetitions: ~35 min here)
#   make bench-curve   the makespan ratio at 3 sizes, each 4x the last, and its chart
#   make bench-local   the small-machine case: input read as local Spark reads it
#   make expected   rewrite the no-Spark tier's expected-output files after an intended change (then review the diff)

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench bench-g bench-large bench-curve bench-local setup clean lint expected

$(STAMP): requirements.lock python_helpers/pyproject.toml devtools/pyproject.toml bench/pyproject.toml scripts/setup.sh
	bash scripts/setup.sh "$(PYTHON)" "$(VENV)"
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	bash scripts/demo.sh

test: $(STAMP)
	bash scripts/test.sh

bench: $(STAMP)
	bash scripts/bench.sh --datasets left,right,full,wide,aggregated,skewed,chain,many_inner,many_left,ident_inner,ident_left

bench-g: $(STAMP)
	bash scripts/bench_g.sh

bench-large: $(STAMP)
	bash scripts/bench.sh --rows 10000000 --aggregated-rows 15000000 --distinct-keys 1000000 --datasets left,right,full,wide,aggregated,skewed,chain,uniform

bench-curve: $(STAMP)
	bash scripts/bench_curve.sh

bench-local: $(STAMP)
	bash scripts/bench.sh --read local --datasets left,right,full,wide,aggregated,skewed,chain,uniform

expected: $(STAMP)
	$(BIN)/pytest tests/render -m "not spark" -q -p no:cacheprovider --rewrite-expected

clean:
	rm -rf .spark target dbt_packages logs integration_tests/target integration_tests/dbt_packages integration_tests/logs

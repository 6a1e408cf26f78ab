#!/usr/bin/env bash
# Scenario g (issue 29): e's inner join and a's left join with more than 2000 shuffle partitions, at the
# size of the issue's first measurement (4,000,000 fact rows, 70% on one key, the
# input in 64 splits, 2400 partitions), in two Spark applications:
#   1. Spark's defaults (spark.shuffle.accurateBlockSkewedFactor = -1, off up to Spark 4.3);
#   2. spark.shuffle.accurateBlockSkewedFactor = 5 (AQE's skewedPartitionFactor), as a tuned user sets it.
# The factor is a core setting (SparkConf) that HighlyCompressedMapStatus reads when a map task writes its
# output: it is given when the application starts (--conf), a session cannot change it.
# Extra arguments go to both runs, e.g. `bash scripts/bench_g.sh --repetitions 1`.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
size=(--rows 4000000 --fact-files 64 --many-partitions 2400 --datasets many_inner,many_left)
bash "$ROOT/scripts/bench.sh" "${size[@]}" "$@"
bash "$ROOT/scripts/bench.sh" "${size[@]}" --conf spark.shuffle.accurateBlockSkewedFactor=5 "$@"

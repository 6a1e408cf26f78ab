"""``skewjoin-bench``: measure skewjoin's strategies against Spark's own joins.

Modules: :mod:`~skewjoin_bench.generator` (the data, as Spark SQL),
:mod:`~skewjoin_bench.spark` (local session or Thrift server),
:mod:`~skewjoin_bench.scenarios` (what runs, in which order, checked how),
:mod:`~skewjoin_bench.eventlog` (Spark's event log -> per-run metrics),
:mod:`~skewjoin_bench.schedule` (makespan on P slots by list scheduling),
:mod:`~skewjoin_bench.report` (targets, JSON, Markdown, PNG) and
:mod:`~skewjoin_bench.command` (the CLI and :func:`run_bench`).
"""

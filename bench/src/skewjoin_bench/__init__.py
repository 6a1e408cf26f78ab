"""``skewjoin bench``: measure skewjoin's strategies against Spark's own joins.

Modules: :mod:`~skewjoin.bench.generator` (the data, as Spark SQL),
:mod:`~skewjoin.bench.spark` (local session or Thrift server),
:mod:`~skewjoin.bench.scenarios` (what runs, in which order, checked how),
:mod:`~skewjoin.bench.eventlog` (Spark's event log -> per-run metrics),
:mod:`~skewjoin.bench.schedule` (makespan on P slots by list scheduling),
:mod:`~skewjoin.bench.report` (targets, JSON, Markdown, PNG) and
:mod:`~skewjoin.bench.command` (the CLI and :func:`run_bench`).
"""

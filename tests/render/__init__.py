"""The render tier: skewjoin's macros rendered without Spark, in seconds.

harness.py   loads every macros/**/*.sql (dbt's block extractor), renders with
             dbt's Jinja environment (sandboxed, jinja2.ext.do, dbt's return()
             through MacroReturn and BaseMacroGenerator.call_macro) over a
             strict context: adapter.dispatch/type, config, var, log,
             exceptions, modules, tojson, ref() as dbt-spark SparkRelation,
             and run_query answered by FakeSpark from the test's tables.
tables.py    the integration project's inputs (columns and types; sizes,
             rows and partitions where a test needs them).
cases.py     ErrorCase: one row per bad input.
model_cases.py  ModelCase: one row per model compile whose whole output is
             kept under expected/ (golden.py renders and compares them;
             test_expected_output.py is the one test over every row).
expected/    the compiled SQL and record (<id>.sql), log lines, warnings and
             queries (<id>.log) of each model case, and each error case's
             full message (errors/<macro>/<id>.txt). After an intended
             change: ``make expected``, then review the diff (expected/README.md).
test_*.py    error cases per public macro, planning rules, literals, the
             shape of the compiled SQL, and the harness's own strictness.

Add a model case: a row in model_cases.CASES, then ``make expected``.
Add an error case: a row in the CASES table of test_<macro>_errors.py,
``ErrorCase(id, args, argument, expected)`` (and ``config=``/``vars=``).
Add a table: an entry in tables.INPUTS, or ``renderer(extra_tables={...})``
keyed by the text after FROM (a table name, a path, or a query's text).
A query FakeSpark does not know fails the test; give it an answer with
``r.spark.answer(regex, Result(...))``.

Run it alone: ``.venv/bin/pytest tests/render`` (no Java needed).
"""

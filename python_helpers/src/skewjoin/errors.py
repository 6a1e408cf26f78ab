"""The errors of the skewjoin package: one base class, one subclass per kind of failure.

Every module raises a :class:`SkewjoinError` subclass with a message that says
what went wrong and what to do. The ``skewjoin`` command turns any of them into
a one-paragraph error and exit code 1 (:meth:`SkewjoinError.summary`); library
callers catch the class they care about, or :class:`SkewjoinError` for all.
"""

from __future__ import annotations


def first_lines(message: str, n: int = 3) -> str:
    """The first *n* non-blank lines of an error message (Spark's run to pages)."""
    lines = [line for line in str(message).strip().splitlines() if line.strip()]
    return "\n".join(lines[:n])


class SkewjoinError(Exception):
    """Base class of every error the package raises on purpose."""

    def summary(self) -> str:
        """The message for a terminal: short, with the way out."""
        return str(self)


class OptionError(SkewjoinError, ValueError):
    """An option's value is malformed (e.g. a setting that is not ``KEY=VALUE``)."""


class SparkStartError(SkewjoinError):
    """A local Spark session could not start (usually: no Java 17)."""


class SparkSqlError(SkewjoinError):
    """Spark rejected a statement; the message is Spark's, followed by the SQL."""

    def __init__(self, message: str, sql: str) -> None:
        super().__init__(f"{message}\n-- sql:\n{sql}")
        self.spark_message = message
        self.sql = sql

    def summary(self) -> str:
        return f"Spark refused a query: {first_lines(self.spark_message)}"


class SparkConnectError(SkewjoinError):
    """A Spark Thrift Server could not be reached."""


class PlanError(SkewjoinError, ValueError):
    """The measurements or options cannot give a valid slot plan (the message says why)."""


class ProfileError(SkewjoinError):
    """``skewjoin profile`` cannot measure its input (bad input or options); the message says what to do."""


class PruneSpecError(SkewjoinError, ValueError):
    """A ``skewjoin prune`` request is malformed or does not fit its tables (the message names the
    request, the argument, what is wrong and the right form); the command exits 2."""


class DbtTargetError(ProfileError):
    """The dbt project, profile or target named on the command line cannot be read."""


class DbtRunError(SkewjoinError):
    """A dbt invocation failed; ``failures`` lists ``(node name, message)`` pairs."""

    def __init__(self, command: list[str], failures: list[tuple[str, str]], exception: BaseException | None) -> None:
        self.command = command
        self.failures = failures
        self.exception = exception
        lines = [f"dbt {' '.join(command)} failed"]
        for name, message in failures:
            lines.append(f"  {name}: {message}")
        if exception is not None:
            lines.append(f"  {type(exception).__name__}: {exception}")
        if not failures and exception is None:
            lines.append("  (no failing node reported; see logs/dbt.log in the project)")
        super().__init__("\n".join(lines))

"""Earlier names of :mod:`skewjoin.spark_backend`'s local-session functions.

New code imports :mod:`skewjoin.spark_backend`. Here :func:`start_session`
keeps its earlier signature: the caller names the exception class to raise.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from skewjoin import spark_backend
from skewjoin.errors import SparkStartError, first_lines
from skewjoin.spark_backend import JAVA_HINT, driver_java_options

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["JAVA_HINT", "driver_java_options", "first_lines", "start_session"]


def start_session(settings: Mapping[str, str], error: type[Exception], app_name: str | None = None) -> SparkSession:
    """:func:`skewjoin.spark_backend.start_session`, raising *error* when Spark does not start."""
    try:
        return spark_backend.start_session(settings, app_name=app_name)
    except SparkStartError as exc:
        raise error(str(exc)) from exc

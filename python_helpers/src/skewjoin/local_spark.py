"""Starting an in-process Spark (PySpark) for the command-line tools.

`skewjoin profile` and `skewjoin bench` both start a local Spark of their own:
Derby and the log4j configuration in a scratch directory, Spark's own log at
ERROR (WARN with -vv) because the tools report their progress themselves, and
a plain message when the JVM does not start.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

JAVA_HINT = "(Java 17 is required: apt-get install -y openjdk-17-jre-headless)"


def first_lines(message: str, n: int = 3) -> str:
    """The first `n` non-blank lines of an error message (Spark's run to pages)."""
    lines = [line for line in str(message).strip().splitlines() if line.strip()]
    return "\n".join(lines[:n])


def driver_java_options(scratch: Path) -> str:
    """JVM options that keep Derby's files and Spark's log configuration in `scratch`."""
    level = "warn" if logging.getLogger("skewjoin").getEffectiveLevel() <= logging.DEBUG else "error"
    config = scratch / "log4j2.properties"
    config.write_text(
        f"rootLogger.level = {level}\n"
        "rootLogger.appenderRef.stderr.ref = console\n"
        "appender.console.type = Console\n"
        "appender.console.name = console\n"
        "appender.console.target = SYSTEM_ERR\n"
        "appender.console.layout.type = PatternLayout\n"
        "appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex\n"
    )
    return f"-Dderby.system.home={scratch} -Dlog4j2.configurationFile={config}"


def start_session(settings: dict[str, str], error: type[Exception], app_name: str | None = None) -> SparkSession:
    """A SparkSession with `settings`; `error` (with the JVM's first lines and
    the Java hint) when it does not start."""
    from pyspark.sql import SparkSession

    builder = SparkSession.builder
    if app_name:
        builder = builder.appName(app_name)
    for key, value in settings.items():
        builder = builder.config(key, value)
    try:
        spark = builder.getOrCreate()
    except Exception as exc:  # PySpark raises several kinds when the JVM does not start
        raise error(f"could not start a local Spark: {first_lines(str(exc), 2)} {JAVA_HINT}") from exc
    spark.sparkContext.setLogLevel("ERROR")
    return spark

"""ThriftServer pieces that need no Spark: command line, Java check, state handling."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from skewjoin_devtools.thrift_server import (
    JAVA_REQUIRED_MESSAGE,
    JIT_OPTIONS,
    VERIFY_OPTIONS,
    JavaNotFoundError,
    ThriftServer,
    ThriftServerError,
    check_java,
    free_port,
    pid_alive,
    spark_home,
    tail,
)


def test_command_line(tmp_path: Path) -> None:
    server = ThriftServer(tmp_path, port=12345, conf={"spark.sql.shuffle.partitions": "4"})
    cmd = server.command()
    assert cmd[0] == str(spark_home() / "bin" / "spark-submit")
    assert Path(cmd[0]).is_file()
    joined = " ".join(cmd)
    assert "--class org.apache.spark.sql.hive.thriftserver.HiveThriftServer2" in joined
    assert "--master local[2]" in joined
    assert "--driver-memory 4g" in joined
    assert f"--conf spark.sql.warehouse.dir={tmp_path.resolve()}/warehouse" in joined
    assert f"--conf spark.driver.extraJavaOptions=-Dderby.system.home={tmp_path.resolve()}" in joined
    assert "--conf spark.ui.enabled=false" in joined
    assert "--conf spark.shuffle.sort.bypassMergeThreshold=0" in joined
    assert "-XX:+UseParallelGC" in joined
    assert "-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=240m" in joined
    assert "--conf spark.sql.shuffle.partitions=4" in joined
    assert "--hiveconf hive.server2.thrift.port=12345" in joined
    assert "--hiveconf hive.server2.thrift.bind.host=127.0.0.1" in joined
    assert "--conf spark.log.level=WARN" in joined
    assert "--conf spark.sql.codegen.cache.maxEntries=2000" in joined
    assert "--hiveconf hive.server2.async.exec.threads=8" in joined
    assert "--hiveconf hive.server2.async.exec.keepalive.time=86400" in joined
    assert "--hiveconf hive.server2.logging.operation.enabled=false" in joined
    assert "--hiveconf hive.server2.enable.doAs=false" in joined
    assert cmd[-1] == "spark-internal"


def test_the_log_level_can_be_raised(tmp_path: Path) -> None:
    joined = " ".join(ThriftServer(tmp_path, port=1, conf={"spark.log.level": "INFO"}).command())
    assert "--conf spark.log.level=INFO" in joined and "spark.log.level=WARN" not in joined


def test_extra_java_options_are_appended_not_replaced(tmp_path: Path) -> None:
    server = ThriftServer(tmp_path, port=1, conf={"spark.driver.extraJavaOptions": "-Dfoo=bar"})
    home = f"-Dderby.system.home={tmp_path.resolve()}"
    options = f"{home} -XX:+UseParallelGC {JIT_OPTIONS} {VERIFY_OPTIONS} -Dfoo=bar"
    assert f"spark.driver.extraJavaOptions={options}" in server.command()


def test_a_collector_chosen_in_the_java_options_replaces_the_default_one(tmp_path: Path) -> None:
    server = ThriftServer(tmp_path, port=1, conf={"spark.driver.extraJavaOptions": "-XX:+UseG1GC -Dfoo=bar"})
    home = f"-Dderby.system.home={tmp_path.resolve()}"
    options = f"{home} {JIT_OPTIONS} {VERIFY_OPTIONS} -XX:+UseG1GC -Dfoo=bar"
    assert f"spark.driver.extraJavaOptions={options}" in server.command()


def test_missing_java_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty directory: no java
    with pytest.raises(JavaNotFoundError, match=r"Java 17 is required \(apt-get install -y openjdk-17-jre-headless\)"):
        check_java()
    with pytest.raises(JavaNotFoundError) as info:
        ThriftServer(tmp_path / "srv").start(timeout=1)
    assert JAVA_REQUIRED_MESSAGE in str(info.value)
    assert not (tmp_path / "srv" / "thrift.json").exists()


def test_broken_java_home_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "nowhere"))
    with pytest.raises(JavaNotFoundError, match="Java 17 is required"):
        check_java()


def test_from_state_without_record(tmp_path: Path) -> None:
    with pytest.raises(ThriftServerError, match="no Spark Thrift Server recorded"):
        ThriftServer.from_state(tmp_path)
    assert ThriftServer(tmp_path).status() == {"running": False, "pid": None, "port": None, "host": None}


def test_status_ignores_unrelated_live_pid(tmp_path: Path) -> None:
    # A recorded pid reused by another process must not count as our server,
    # and stop() must not signal it.
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (tmp_path / "thrift.json").write_text(f'{{"pid": {other.pid}, "port": 1, "host": "127.0.0.1"}}')
        assert ThriftServer(tmp_path).status()["running"] is False
        ThriftServer.from_state(tmp_path).stop()
        assert other.poll() is None, "stop() signalled a process that is not a Thrift server"
        assert not (tmp_path / "thrift.json").exists()
    finally:
        other.kill()
        other.wait()


def test_pid_alive_reaps_own_children() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    for _ in range(100):
        if not pid_alive(child.pid):
            break
        import time

        time.sleep(0.05)
    assert not pid_alive(child.pid)
    assert pid_alive(os.getpid())


def test_free_port_and_tail(tmp_path: Path) -> None:
    port = free_port()
    assert 0 < port < 65536
    log = tmp_path / "x.log"
    log.write_text("".join(f"line {i}\n" for i in range(100)))
    lines = tail(log).splitlines()
    assert lines[0] == "line 60" and lines[-1] == "line 99" and len(lines) == 40
    assert tail(tmp_path / "missing.log") == ""

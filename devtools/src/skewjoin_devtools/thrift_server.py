"""Lifecycle of a local Spark Thrift Server (HiveServer2 protocol) for tests and demos.

pip's PySpark ships the Thrift server classes but not ``start-thriftserver.sh``,
so the server is started with ``spark-submit --class
org.apache.spark.sql.hive.thriftserver.HiveThriftServer2 ... spark-internal``.

Everything a server writes lives in its *workdir*::

    workdir/
      thrift.json      # {pid, port, host, log}: lets another process reattach
      thrift.log       # stdout + stderr of spark-submit
      warehouse/       # spark.sql.warehouse.dir
      metastore_db/    # Derby metastore (one process at a time: one server per workdir)

The server listens on 127.0.0.1 only and runs in its own process group, so
:meth:`ThriftServer.stop` can terminate the JVM and anything it spawned.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections import deque
from pathlib import Path
from typing import Any

from skewjoin.errors import SkewjoinError

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
STATE_FILE = "thrift.json"
LOG_FILE = "thrift.log"
THRIFT_SERVER_CLASS = "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2"
#: The JIT of the test server and of the short-lived test JVMs (scripts/test.sh): C1 alone, in
#: the code cache tiered compilation has (see ThriftServer.command).
JIT_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=240m"
#: No bytecode verification of the application's classes (the pinned jars of the pyspark
#: wheel). Statements run as the server's user (hive.server2.enable.doAs=false, below), and
#: then closing a session can initialise Hive's function registry, whose classes name LLAP
#: classes that Spark does not ship: the verifier loads those to check the registry, fails
#: with NoClassDefFoundError, and the Thrift handler thread dies with the client's socket.
#: Unverified, classes are resolved when code first runs, and that code never runs here.
VERIFY_OPTIONS = "-XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote"
# a garbage collector chosen on the JVM's command line (-XX:+UseG1GC, -XX:+UseParallelGC, ...)
_GC_CHOICE = re.compile(r"-XX:\+Use\w+GC\b")
_DEFAULT_GC = "-XX:+UseParallelGC"
JAVA_REQUIRED_MESSAGE = "Java 17 is required (apt-get install -y openjdk-17-jre-headless)"
_LOG_TAIL_LINES = 40


class ThriftServerError(SkewjoinError):
    """The local Spark Thrift Server could not be started, reached or stopped."""


class JavaNotFoundError(ThriftServerError):
    """No usable Java runtime was found."""


__all__ = ["JavaNotFoundError", "ThriftServerError", "ThriftServer", "check_java", "free_port", "port_open"]


def spark_home() -> Path:
    """The Spark distribution bundled in the installed ``pyspark`` package."""
    import pyspark

    return Path(os.path.dirname(pyspark.__file__))


def free_port(host: str = HOST) -> int:
    """A TCP port on *host* that nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_open(host: str, port: int, timeout: float = 1.0) -> bool:
    """True when something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def java_version() -> tuple[str, int | None]:
    """The ``java -version`` banner and its major version; raise JavaNotFoundError if absent.

    Honours ``JAVA_HOME`` as ``spark-class`` does.
    """
    java_home = os.environ.get("JAVA_HOME")
    java = str(Path(java_home) / "bin" / "java") if java_home else shutil.which("java")
    if not java:
        raise JavaNotFoundError(f"{JAVA_REQUIRED_MESSAGE}: no `java` on PATH and JAVA_HOME is unset")
    try:
        proc = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise JavaNotFoundError(f"{JAVA_REQUIRED_MESSAGE}: `{java} -version` failed: {exc}") from exc
    banner = (proc.stderr or proc.stdout).strip()
    if proc.returncode != 0:
        raise JavaNotFoundError(f"{JAVA_REQUIRED_MESSAGE}: `{java} -version` exited {proc.returncode}: {banner}")
    match = re.search(r'version "(\d+)(?:\.(\d+))?', banner)
    major: int | None = None
    if match:
        major = int(match.group(1))
        if major == 1 and match.group(2):  # "1.8.0_292" means Java 8
            major = int(match.group(2))
    return banner.splitlines()[0] if banner else "", major


def check_java() -> None:
    """Fail early, with the fix in the message, when Java cannot run this PySpark."""
    banner, major = java_version()
    import pyspark

    spark_major = int(pyspark.__version__.split(".")[0])
    if spark_major >= 4 and major is not None and major < 17:
        raise JavaNotFoundError(
            f"{JAVA_REQUIRED_MESSAGE}: PySpark {pyspark.__version__} needs Java 17+, found {banner!r}"
        )
    logger.debug("java: %s", banner)


def tail(path: Path, lines: int = _LOG_TAIL_LINES) -> str:
    """The last *lines* lines of a text file ('' when it does not exist)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return "".join(deque(handle, maxlen=lines))
    except FileNotFoundError:
        return ""


def pid_alive(pid: int) -> bool:
    """True when *pid* is a live (not zombie) process.

    Reaps the process first if it is our own child, so a server started and
    stopped in the same Python process is not mistaken for alive.
    """
    try:
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return False
    except ChildProcessError:
        pass  # not our child: fine
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        state = stat.rsplit(")", 1)[1].split()[0]
        return state not in ("Z", "X")
    except (OSError, IndexError):
        return True


def _is_thrift_server(pid: int) -> bool:
    """Guard against PID reuse: does *pid* look like our spark-submit/JVM?"""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc (macOS): trust the state file
    return THRIFT_SERVER_CLASS.encode() in cmdline


class ThriftServer:
    """A Spark Thrift Server running from ``$SPARK_HOME/bin/spark-submit`` in *workdir*.

    >>> server = ThriftServer(Path(".spark/thrift"))
    >>> server.start()            # ~20-30 s; returns once `select 1` succeeds
    >>> server.port, server.pid
    >>> server.stop()

    Another process can reattach with :meth:`from_state` (this is what
    ``skewjoin-dev spark-thrift stop`` does).
    """

    def __init__(
        self,
        workdir: Path,
        port: int | None = None,
        master: str = "local[2]",
        conf: dict[str, str] | None = None,
        *,
        driver_memory: str = "4g",
    ) -> None:
        self.workdir = Path(workdir).resolve()
        self.port = port
        self.host = HOST
        self.master = master
        self.conf = dict(conf or {})
        self.driver_memory = driver_memory
        self.pid: int | None = None
        self._proc: subprocess.Popen[bytes] | None = None

    # -- paths -------------------------------------------------------------------------

    @property
    def state_file(self) -> Path:
        return self.workdir / STATE_FILE

    @property
    def log_file(self) -> Path:
        return self.workdir / LOG_FILE

    @property
    def warehouse_dir(self) -> Path:
        return self.workdir / "warehouse"

    # -- reattach ----------------------------------------------------------------------

    @classmethod
    def from_state(cls, workdir: Path) -> ThriftServer:
        """A handle on the server recorded in ``workdir/thrift.json`` (raises if none)."""
        workdir = Path(workdir).resolve()
        state = _read_state(workdir / STATE_FILE)
        if state is None:
            raise ThriftServerError(f"no Spark Thrift Server recorded in {workdir / STATE_FILE}")
        server = cls(workdir, port=int(state["port"]))
        server.host = str(state.get("host", HOST))
        server.pid = int(state["pid"])
        return server

    # -- lifecycle ---------------------------------------------------------------------

    def command(self) -> list[str]:
        """The spark-submit command line :meth:`start` runs (port must be known)."""
        if self.port is None:
            raise ThriftServerError("port is not set; call start() or pass port=")
        extra_java = self.conf.get("spark.driver.extraJavaOptions")
        java_options = [f"-Dderby.system.home={self.workdir}", _DEFAULT_GC, JIT_OPTIONS, VERIFY_OPTIONS]
        if extra_java is not None and _GC_CHOICE.search(extra_java):  # the JVM refuses two collectors
            java_options.remove(_DEFAULT_GC)
        conf = {
            "spark.sql.warehouse.dir": str(self.warehouse_dir),
            # The throughput collector: a server of many short queries on a few cores
            # spent 15% of its CPU in G1's concurrent work; builds ran 13% faster here.
            # C1, the quick JIT, alone: a test server lives minutes, and C2 (the optimizing
            # JIT) compiling Spark's code base for it was a third of the server's CPU (107 s
            # of 309 s in a 200 s workload), still a sixth with C2's thresholds raised 10x.
            # C1 alone needs the code cache tiered compilation has (240 MB): the JVM's
            # default without tiers, 48 MB, fills, and the JVM then stops compiling.
            # test_hot_keys.py and test_star_join.py: 132 s of server CPU against 176-199 s.
            "spark.driver.extraJavaOptions": " ".join(java_options),
            "spark.ui.enabled": "false",
            # One shuffle file per map task (the sort-based writer) instead of one
            # per reduce partition: with the default 200 partitions the bypass
            # writer opens 200 files per map task, which on small local data is
            # most of a query's CPU (a build of 93 dbt nodes: 100 s -> 64 s here).
            # Partitioning, and so every result and plan, is unchanged.
            "spark.shuffle.sort.bypassMergeThreshold": "0",
            # Loopback only: keep the driver's RPC/block-manager ports off the network.
            "spark.driver.host": HOST,
            "spark.driver.bindAddress": HOST,
            # Warnings and errors only: at INFO the server logs every statement, task and
            # metastore call (8.6 MB in a 200 s test workload). --conf spark.log.level=INFO
            # brings them back.
            "spark.log.level": "WARN",
            # Generated classes kept for 2,000 distinct plans instead of 100: a dbt build
            # runs the same describe, count and test queries many times.
            "spark.sql.codegen.cache.maxEntries": "2000",
        }
        for key, value in self.conf.items():
            if key == "spark.driver.extraJavaOptions":
                conf[key] = f"{conf[key]} {value}"
            else:
                conf[key] = value
        cmd = [
            str(spark_home() / "bin" / "spark-submit"),
            "--class", THRIFT_SERVER_CLASS,
            "--master", self.master,
            "--driver-memory", self.driver_memory,
        ]  # fmt: skip
        for key, value in conf.items():
            cmd += ["--conf", f"{key}={value}"]
        cmd += [
            "--hiveconf", f"hive.server2.thrift.port={self.port}",
            "--hiveconf", f"hive.server2.thrift.bind.host={HOST}",
            # Statements run on 8 long-lived threads: with the default 100 threads and a
            # 10 s keep-alive nearly every statement started a new thread (810 in 400 s).
            "--hiveconf", "hive.server2.async.exec.threads=8",
            "--hiveconf", "hive.server2.async.exec.keepalive.time=86400",
            # No operation log directory per session (created and removed with a forked
            # `rm -rf` for every connection dbt opens; dbt does not read them).
            "--hiveconf", "hive.server2.logging.operation.enabled=false",
            # Statements run as the server's own user, not as each session's: with
            # impersonation (Hive's default) every Thrift session has a user of its own,
            # and the metastore client Spark keeps per statement thread was rebuilt (a new
            # HiveConf and metastore store) whenever a thread ran a statement of another
            # session than its last; dbt opens a session per node. One local user either
            # way. Needs VERIFY_OPTIONS (above).
            "--hiveconf", "hive.server2.enable.doAs=false",
            "spark-internal",
        ]  # fmt: skip
        return cmd

    def start(self, timeout: float = 180) -> ThriftServer:
        """Start the server and wait until it answers ``select 1``.

        Raises ThriftServerError (with the last 40 lines of ``thrift.log``) if the
        process exits or *timeout* seconds pass; the process is stopped first.
        """
        existing = self.status()
        if existing["running"]:
            raise ThriftServerError(
                f"a Spark Thrift Server is already running from {self.workdir} "
                f"(pid {existing['pid']}, port {existing['port']}); stop it first"
            )
        check_java()
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.warehouse_dir.mkdir(parents=True, exist_ok=True)
        if self.port is None:
            self.port = free_port(HOST)
        elif port_open(HOST, self.port):
            raise ThriftServerError(f"port {self.port} on {HOST} is already in use")

        cmd = self.command()
        env = dict(os.environ, SPARK_HOME=str(spark_home()))
        env.setdefault("SPARK_LOCAL_IP", HOST)  # loopback only, and no hostname lookup
        logger.info("starting Spark Thrift Server on %s:%s (log: %s)", HOST, self.port, self.log_file)
        logger.debug("command: %s", " ".join(cmd))
        with open(self.log_file, "wb") as log:
            self._proc = subprocess.Popen(
                cmd,
                cwd=self.workdir,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        self.pid = self._proc.pid
        _write_state(
            self.state_file,
            {"pid": self.pid, "port": self.port, "host": HOST, "log": str(self.log_file)},
        )
        try:
            self._wait_ready(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ready(self, timeout: float) -> None:
        assert self.port is not None and self.pid is not None
        started = time.monotonic()
        deadline = started + timeout
        last_error: Exception | None = None
        listening = False
        while True:
            if not self._alive():
                raise ThriftServerError(
                    f"Spark Thrift Server (pid {self.pid}) exited during startup; "
                    f"last lines of {self.log_file}:\n{tail(self.log_file)}"
                )
            if not listening:
                listening = port_open(HOST, self.port)
                if listening:
                    logger.info("port %s open after %.1f s", self.port, time.monotonic() - started)
            if listening:
                try:
                    self._ping()
                    logger.info(
                        "Spark Thrift Server ready on %s:%s (pid %s) after %.1f s",
                        HOST, self.port, self.pid, time.monotonic() - started,
                    )  # fmt: skip
                    return
                except Exception as exc:  # noqa: BLE001 - retried until the deadline
                    last_error = exc
                    logger.debug("select 1 not yet possible: %s", exc)
            if time.monotonic() >= deadline:
                detail = f" (last error: {last_error})" if last_error else ""
                raise ThriftServerError(
                    f"Spark Thrift Server did not answer `select 1` on {HOST}:{self.port} "
                    f"within {timeout:.0f} s{detail}; last lines of {self.log_file}:\n"
                    f"{tail(self.log_file)}"
                )
            time.sleep(1.0)

    def _ping(self) -> None:
        from skewjoin.spark_backend import connect, run_sql

        assert self.port is not None
        conn = connect(self.host, self.port)
        try:
            rows = run_sql(conn, "select 1")
        finally:
            conn.close()
        if rows != [(1,)]:
            raise ThriftServerError(f"unexpected answer to `select 1`: {rows!r}")

    def _alive(self) -> bool:
        if self._proc is not None:
            return self._proc.poll() is None
        return self.pid is not None and pid_alive(self.pid)

    def stop(self, timeout: float = 30) -> bool:
        """Stop the server: SIGTERM to its process group, SIGKILL after *timeout* s.

        Returns True if a process was signalled. Safe to call twice, and on a
        handle whose server already exited.
        """
        if self.pid is None:
            state = _read_state(self.state_file)
            if state is not None:
                self.pid = int(state["pid"])
        pid = self.pid
        signalled = False
        if pid is not None and self._alive() and (self._proc is not None or _is_thrift_server(pid)):
            logger.info("stopping Spark Thrift Server (pid %s)", pid)
            signalled = _signal_group(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while self._alive() and time.monotonic() < deadline:
                time.sleep(0.2)
            if self._alive():
                logger.warning("pid %s ignored SIGTERM for %.0f s; sending SIGKILL", pid, timeout)
                _signal_group(pid, signal.SIGKILL)
                kill_deadline = time.monotonic() + 10
                while self._alive() and time.monotonic() < kill_deadline:
                    time.sleep(0.2)
        elif pid is not None:
            logger.info("Spark Thrift Server (pid %s) is not running", pid)
        if self._proc is not None:
            try:
                self._proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                pass
        if signalled and pid is not None:
            # Children the JVM left behind in its group (rare): clean them up too.
            _signal_group(pid, signal.SIGKILL, quiet=True)
        self.state_file.unlink(missing_ok=True)
        return signalled

    def status(self) -> dict[str, Any]:
        """``{"running", "pid", "port", "host"}`` from thrift.json (pid checked alive)."""
        state = _read_state(self.state_file)
        if state is None:
            return {"running": False, "pid": None, "port": None, "host": None}
        pid = int(state["pid"])
        running = pid_alive(pid) and _is_thrift_server(pid)
        return {"running": running, "pid": pid, "port": int(state["port"]), "host": state.get("host", HOST)}

    def __enter__(self) -> ThriftServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"ThriftServer(workdir={str(self.workdir)!r}, host={self.host!r}, port={self.port}, pid={self.pid})"


def _signal_group(pid: int, sig: signal.Signals, quiet: bool = False) -> bool:
    """Signal the process group led by *pid* (the server runs in its own session)."""
    try:
        os.killpg(pid, sig)
        return True
    except ProcessLookupError:
        return False
    except PermissionError as exc:
        if not quiet:
            raise ThriftServerError(f"not allowed to signal process group {pid}: {exc}") from exc
        return False


def _read_state(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        logger.warning("ignoring unreadable %s: %s", path, exc)
        return None
    if not isinstance(data, dict) or "pid" not in data or "port" not in data:
        logger.warning("ignoring malformed %s: %r", path, data)
        return None
    return data


def _write_state(path: Path, state: dict[str, Any]) -> None:
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(state, indent=2) + "\n")
    tmp.replace(path)

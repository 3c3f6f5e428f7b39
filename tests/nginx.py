"""Start Debian's nginx with the repository's configuration (``deploy/nginx.conf``, rendered by
:mod:`gotweb.nginx`) in front of server processes, for the tests and benchmarks that need a real
load balancer (no pytest here)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from gotweb.nginx import render

#: the Debian package that provides nginx (``make test`` installs it)
PACKAGE = "nginx-light"
#: names the process that answered, in every answer (the upgrade of a websocket included)
UPSTREAM_HEADER = "X-Upstream"


def binary() -> str | None:
    """The nginx executable, or None when it is not installed."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    return found


def start(folder: Path, port: int, servers: list[str], *, fail_timeout: int = 10, timeout: float = 15) -> subprocess.Popen:
    """Run nginx in the foreground with its prefix (config, pid, logs, temporary files) in
    ``folder``, listening on 127.0.0.1:``port`` in front of ``servers`` (``host:port`` each),
    each answer naming its process in :data:`UPSTREAM_HEADER`; wait until it accepts
    connections. Raises RuntimeError with its error log if it does not start."""
    exe = binary()
    if exe is None:
        raise RuntimeError(f"nginx is not installed (Debian package: {PACKAGE})")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "temp").mkdir(exist_ok=True)
    conf = folder / "nginx.conf"
    conf.write_text(render(f"127.0.0.1:{port}", servers, fail_timeout=fail_timeout,
                           extra=f"add_header {UPSTREAM_HEADER} $upstream_addr always;"))
    # as root nginx's workers would run as nobody, who may not enter a private temporary folder
    globals_ = "daemon off;" + (" user root;" if os.geteuid() == 0 else "")
    log = folder / "error.log"
    proc = subprocess.Popen([exe, "-p", f"{folder}/", "-c", str(conf), "-e", str(log), "-g", globals_],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                proc.wait(5)
                text = log.read_text(errors="replace") if log.exists() else ""
                raise RuntimeError("nginx did not start:\n" + text) from None
            time.sleep(0.05)


def stop(proc: subprocess.Popen) -> None:
    """Stop nginx (SIGTERM: its fast shutdown), killing it if it lingers."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def pids(proc: subprocess.Popen) -> list[int]:
    """nginx's master and its workers (for their CPU)."""
    out = [proc.pid]
    try:
        for tid in os.listdir(f"/proc/{proc.pid}/task"):
            with open(f"/proc/{proc.pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out

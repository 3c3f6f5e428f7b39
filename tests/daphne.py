"""Start a real daphne process for the tests and benchmarks that need one (no pytest here)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_module(cwd: Path = ROOT) -> str:
    """The module that serves the site with daphne's options: ``gotweb.server`` (daphne with
    sliced sweeps and immediate writes), or ``daphne`` itself in an older source tree a
    benchmark serves as baseline."""
    return "gotweb.server" if (cwd / "gotweb" / "server.py").exists() else "daphne"


def launch(env: dict[str, str], port: int, log_path: Path, command: list[str] | None = None, timeout: float = 30, cwd: Path = ROOT):
    """Migrate the database ``env`` names, start the site's server (:func:`server_module`) on
    ``port`` (or ``command``, which must serve that port) with its output in ``log_path``, and
    wait until it accepts connections.
    ``cwd``: the source tree to serve (default this one; a benchmark may serve an older one).
    Returns ``(url, process)``. Raises RuntimeError with the server's log if it does not start."""
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=cwd, env=env, check=True)
    command = command or [sys.executable, "-m", server_module(cwd or ROOT), "-b", "127.0.0.1", "-p", str(port), "gotweb.asgi:application"]
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return f"http://127.0.0.1:{port}", proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("daphne did not start:\n" + log_path.read_text(errors="replace")) from None
            time.sleep(0.1)

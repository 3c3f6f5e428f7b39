"""Render ``deploy/nginx.conf``, the nginx configuration that puts several server processes
behind one address and routes each game to one of them (README.md, "Running at scale").

``python -m gotweb.nginx --listen 80 --server 127.0.0.1:8001 --server 127.0.0.1:8002 >
/srv/gotweb/nginx/nginx.conf``, then ``mkdir -p /srv/gotweb/nginx/temp && nginx -p
/srv/gotweb/nginx/ -c /srv/gotweb/nginx/nginx.conf``. The tests and ``tests.bench.capacity
--spread lb`` render it the same way with ports of their own.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf"

_ADDRESS = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}$")
_LISTEN = re.compile(r"^((\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):)?[0-9]{1,5}$")


def render(listen: str, servers: list[str], *, fail_timeout: int = 10, extra: str = "") -> str:
    """The text of ``deploy/nginx.conf`` for nginx listening on ``listen`` (``"80"`` or
    ``"127.0.0.1:8080"``) in front of ``servers`` (``["127.0.0.1:8001", ...]``, ``host:port``
    each, at least one). A server that fails once is left out for ``fail_timeout`` seconds.
    ``extra``: directives added to the ``server`` block as they are (e.g. ``add_header X-Upstream
    $upstream_addr always;``). Raises ValueError on an address that is not ``host:port``, no
    servers, or a ``fail_timeout`` below 1."""
    if not _LISTEN.match(str(listen)):
        raise ValueError(f"listen: not [host:]port: {listen!r}")
    if not servers:
        raise ValueError("at least one server")
    for server in servers:
        if not _ADDRESS.match(server):
            raise ValueError(f"server: not host:port: {server!r}")
    if int(fail_timeout) < 1:
        raise ValueError("fail_timeout: at least 1 second")
    lines = "\n        ".join(f"server {s} max_fails=1 fail_timeout={int(fail_timeout)}s;" for s in servers)
    out = []
    for line in TEMPLATE.read_text().splitlines(keepends=True):
        if not line.lstrip().startswith("#"):  # the comments name the placeholders
            line = line.replace("@SERVERS@", lines).replace("@LISTEN@", str(listen)).replace("@EXTRA@", extra)
        out.append(line)
    return "".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gotweb.nginx", description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", default="80", help="what nginx listens on: port or host:port (default 80)")
    parser.add_argument("--server", action="append", required=True, help="a server process's host:port (repeat for each)")
    parser.add_argument("--fail-timeout", type=int, default=10, help="seconds a failed process is left out (default 10)")
    args = parser.parse_args(argv)
    try:
        print(render(args.listen, args.server, fail_timeout=args.fail_timeout), end="")
    except ValueError as exc:
        parser.error(str(exc))


if __name__ == "__main__":
    main()

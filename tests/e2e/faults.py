"""Helpers for the fault tests against real daphne processes (``test_live_group_expiry.py``,
``test_live_redis_restart.py``, ``test_live_db_outage.py``): a throwaway PostgreSQL database, a
private redis-server the test may stop and start, a TCP proxy on loopback the test may cut, and a
websocket peer that records what it receives. Everything started here is stopped by the context
managers, also when the test fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.conftest import port_open
from tests.daphne import free_port
from tests.wsclient import WS, Closed

ROOT = Path(__file__).resolve().parents[2]


# --- PostgreSQL ------------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def migrated_template(postgres_url):
    """The name of a PostgreSQL database migrated once per test session, the template of the
    fault tests' databases (a copy is made in a fraction of a second; migrating costs seconds);
    dropped at the end of the session (made a fixture of tests/e2e by its conftest)."""
    import psycopg

    name = f"gotweb_fault_tpl_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        env = {**os.environ, "DATABASE_URL": urlunsplit(urlsplit(postgres_url)._replace(path=f"/{name}"))}
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        yield name
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def throwaway_database(postgres_url: str, template: str | None = None):
    """The URL of a new PostgreSQL database (empty, or a copy of ``template``), dropped afterwards
    (with its connections)."""
    import psycopg

    name = f"gotweb_fault_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    try:
        yield urlunsplit(urlsplit(postgres_url)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(postgres_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def via(url: str, port: int) -> str:
    """``url`` with its host and port replaced by ``127.0.0.1:port`` (user and password kept)."""
    parts = urlsplit(url)
    auth = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
    return urlunsplit(parts._replace(netloc=f"{auth}127.0.0.1:{port}"))


def action_count(db_url: str, game_id: int) -> int:
    """How many actions the game's log holds (read directly, not through a proxy)."""
    import psycopg

    with psycopg.connect(db_url) as con:
        return con.execute("SELECT count(*) FROM game_action WHERE game_id = %s", (game_id,)).fetchone()[0]


@contextlib.contextmanager
def two_servers(tmp: Path, env_a: dict[str, str], env_b: dict[str, str], setup=None):
    """Daphne A, daphne B and ``setup()`` (e.g. a game's set-up in a child process) started at
    the same time on an already migrated database (:func:`migrated_template`); yields
    ``((url_a, url_b), setup's result)`` and stops both processes afterwards, also when the test
    or one of the starts fails."""
    from concurrent.futures import ThreadPoolExecutor

    from .conftest import start_server, stop_server

    procs, failure, urls = [], None, []
    try:
        with ThreadPoolExecutor(max_workers=3) as pool:
            starts = [pool.submit(start_server, tmp, env, name) for env, name in ((env_a, "daphne-a"), (env_b, "daphne-b"))]
            future = pool.submit(setup) if setup is not None else None
            for start in starts:
                try:
                    url, proc = start.result()
                    procs.append(proc)
                    urls.append(url)
                except BaseException as exc:  # noqa: BLE001 (pytest.fail's Failed included) raised below
                    failure = failure or exc
            result = None
            if future is not None:
                try:
                    result = future.result()
                except BaseException as exc:  # noqa: BLE001
                    failure = failure or exc
        if failure is not None:
            raise failure
        yield (urls[0], urls[1]), result
    finally:
        for proc in procs:
            stop_server(proc)


# --- Redis -----------------------------------------------------------------------------------------
class RedisServer:
    """A redis-server of the test's own on a free loopback port, with no persistence: a restart
    forgets every key (groups included), as a Redis without ``save``/AOF does."""

    def __init__(self, folder: Path) -> None:
        if not shutil.which("redis-server"):
            pytest.skip("needs redis-server (Debian package: redis-server)")
        self.folder, self.port, self.proc = folder, free_port(), None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with open(self.folder / f"redis-{self.port}.log", "ab") as log:
            self.proc = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                 "--dir", str(self.folder)],
                stdout=log, stderr=subprocess.STDOUT,
            )
        end = time.monotonic() + 20
        while not port_open(self.port):
            if self.proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: connections break at once and nothing is saved."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None


@contextlib.contextmanager
def redis_server(folder: Path):
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.kill()


# --- a TCP proxy that can be cut -------------------------------------------------------------------
class TcpProxy:
    """Forwards ``127.0.0.1:port`` to ``127.0.0.1:target`` in a thread of its own. :meth:`cut`
    breaks every open connection (both ends) and stops listening, so new connections are
    refused, as when the server behind it is gone; :meth:`restore` listens again."""

    def __init__(self, target: int) -> None:
        self.target, self.port = target, free_port()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = None
        self.transports: set = set()
        self.restore()

    def _run(self, coro, timeout: float = 10):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _pipe(self, reader, writer) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.transport.abort()

    async def _handle(self, reader, writer) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.transport.abort()
            return
        pair = {writer.transport, up_writer.transport}
        self.transports |= pair
        try:
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
        finally:
            self.transports -= pair

    async def _listen(self) -> None:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", self.port, reuse_address=True)

    async def _cut(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None
        for t in list(self.transports):
            t.abort()
        self.transports.clear()

    def restore(self) -> None:
        if self.server is None:
            self._run(self._listen())

    def cut(self) -> None:
        self._run(self._cut())

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@contextlib.contextmanager
def tcp_proxy(target: int):
    proxy = TcpProxy(target)
    try:
        yield proxy
    finally:
        proxy.close()


# --- websocket peers -------------------------------------------------------------------------------
class Peer:
    """One websocket and everything it received (read by a background task); ``closed`` is the
    close code (or ``"broken"``) once the server closed it."""

    def __init__(self, name: str, ws: WS) -> None:
        self.name, self.ws = name, ws
        self.msgs: list[dict] = []
        self.closed: int | str | None = None
        self.cond = asyncio.Condition()
        self.task = asyncio.create_task(self._pump())

    @classmethod
    async def open(cls, name: str, base: str, path: str, cookie: str = "") -> "Peer":
        port = urlsplit(base).port
        return cls(name, await WS.connect(f"ws://127.0.0.1:{port}{path}", base, cookie))

    async def _pump(self) -> None:
        try:
            while True:
                msg = await self.ws.recv_json(timeout=3600)
                async with self.cond:
                    self.msgs.append(msg)
                    self.cond.notify_all()
        except Closed as exc:
            self.closed = exc.code if exc.code is not None else "broken"
        async with self.cond:
            self.cond.notify_all()

    async def wait(self, pred, timeout: float = 20) -> dict:
        """The first message so far or to come that satisfies ``pred``; fails (naming the peer)
        when the socket closes or ``timeout`` seconds pass first."""
        async with self.cond:
            try:
                await asyncio.wait_for(
                    self.cond.wait_for(lambda: self.closed is not None or any(pred(m) for m in self.msgs)), timeout
                )
            except TimeoutError:
                raise AssertionError(f"{self.name}: nothing of the kind within {timeout} s") from None
            found = next((m for m in self.msgs if pred(m)), None)
            assert found is not None, f"{self.name}: socket closed ({self.closed})"
            return found

    def version(self) -> int:
        """The newest ``state`` version received (-1: none)."""
        return max((m["version"] for m in self.msgs if m["type"] == "state"), default=-1)

    def versions(self) -> list[int]:
        return [m["version"] for m in self.msgs if m["type"] == "state"]

    async def request(self, message: dict, timeout: float = 20) -> dict:
        """Send ``message`` (with a fresh ``id``) and return its ``result`` (or ``error``/``pong``)."""
        rid = uuid.uuid4().hex[:8]
        await self.ws.send_json({**message, "id": rid})
        return await self.wait(lambda m: m.get("id") == rid and m["type"] in ("result", "error", "pong"), timeout)

    async def close(self) -> None:
        await self.ws.close()
        self.task.cancel()

"""The site's server (``gotweb.server``): daphne whose sweeps over every connection run a slice at a
time, each connection still checked once per sweep by daphne's rules, and the next sweep scheduled
after the last slice; and a real server process that pings every idle websocket."""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time

import pytest

from gotweb.server import Server
from tests.daphne import free_port, launch
from tests.wsclient import run_sync


class Stepped(Server):
    """The server with the reactor's ``callLater`` recorded instead of run: :meth:`run_slices`
    runs what was scheduled at 0 s and returns the callbacks it ran, until a delayed one."""

    def __init__(self) -> None:
        super().__init__(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"], application_close_timeout=10)
        self.connections = {}
        self.scheduled: list[tuple[float, object]] = []
        self.stopped = False

    def _later(self, delay, callback) -> None:
        self.scheduled.append((delay, callback))

    def stop(self) -> None:
        self.stopped = True

    def run_slices(self, first) -> int:
        first()
        ran = 1
        while self.scheduled and self.scheduled[-1][0] == 0:
            _, callback = self.scheduled.pop()
            callback()
            ran += 1
        return ran


class Protocol:
    def __init__(self, fail: bool = False) -> None:
        self.checks, self.fail, self.answered = 0, fail, []

    def check_timeouts(self) -> None:
        self.checks += 1
        if self.fail:
            raise RuntimeError("broken protocol")

    def handle_exception(self, exc) -> None:
        self.answered.append(exc)


def test_the_timeout_sweep_checks_each_connection_once_a_slice_per_callback():
    server = Stepped()
    protocols = [Protocol() for _ in range(1001)]
    server.connections = {p: {"connected": time.time()} for p in protocols}
    callbacks = server.run_slices(server.timeout_checker)
    assert callbacks == 5  # 250 + 250 + 250 + 250 + 1
    assert [p.checks for p in protocols] == [1] * 1001
    assert [d for d, _ in server.scheduled] == [Server.TIMEOUT_PERIOD]  # then the next sweep, 2 s later
    assert server.scheduled[0][1] == server.timeout_checker


def test_a_connection_that_closed_meanwhile_is_skipped_and_one_that_raises_does_not_stop_the_sweep(caplog):
    server = Stepped()
    protocols = [Protocol(fail=(i == 600)) for i in range(700)]
    server.connections = {p: {"connected": time.time()} for p in protocols}
    server.timeout_checker()  # the first slice (the last 250 connections)
    del server.connections[protocols[0]]  # gone before its slice
    with caplog.at_level(logging.ERROR, logger="daphne.server"):
        while server.scheduled[-1][0] == 0:
            server.scheduled.pop()[1]()
    assert protocols[0].checks == 0 and [p.checks for p in protocols[1:]] == [1] * 699
    assert "broken protocol" in caplog.text
    assert [d for d, _ in server.scheduled] == [Server.TIMEOUT_PERIOD]


def test_the_application_sweep_reaps_as_daphne_does(caplog):
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        server = Stepped()
        now = time.time()

        def future(result=None, exc=None, done=True):
            f = loop.create_future()
            if done and exc:
                f.set_exception(exc)
            elif done:
                f.set_result(result)
            return f

        running_open, closed_done, closed_slow, closed_recent = Protocol(), Protocol(), Protocol(), Protocol()
        failed_open, failed_closed, cancelled, gone = Protocol(), Protocol(), Protocol(), Protocol()
        slow_app, recent_app = loop.create_task(asyncio.sleep(60)), loop.create_task(asyncio.sleep(60))  # as daphne's
        await asyncio.sleep(0)  # both started: cancelling one takes a turn of the loop
        cancelled_app = future(done=False)
        cancelled_app.cancel()
        boom = ValueError("boom")
        server.connections = {
            running_open: {"application_instance": future(done=False)},
            closed_done: {"application_instance": future(), "disconnected": now - 1},
            closed_slow: {"application_instance": slow_app, "disconnected": now - 11},
            closed_recent: {"application_instance": recent_app, "disconnected": now - 1},
            failed_open: {"application_instance": future(exc=boom)},
            failed_closed: {"application_instance": future(exc=ValueError("late")), "disconnected": now - 1},
            cancelled: {"application_instance": cancelled_app},
            gone: {"disconnected": now - 1},
        }
        assert server.run_slices(server.application_checker) == 1
        assert set(server.connections) == {running_open, closed_slow, closed_recent, failed_open, cancelled}
        assert slow_app.cancelling() and "took too long to shut down and was killed" in caplog.text
        assert not recent_app.cancelling()
        assert "application_instance" not in server.connections[failed_open] and failed_open.answered == [boom]
        assert failed_closed.answered == [] and "Exception inside application: late" in caplog.text
        assert "application_instance" not in server.connections[cancelled]
        assert [d for d, _ in server.scheduled] == [Server.APPLICATION_PERIOD]
        # the next sweep forgets the slow one once its cancellation has run
        await asyncio.sleep(0)
        assert slow_app.cancelled()
        server.scheduled.clear()
        server.run_slices(server.application_checker)
        assert closed_slow not in server.connections and running_open in server.connections
        recent_app.cancel()
        await asyncio.sleep(0)

    with caplog.at_level(logging.WARNING, logger="daphne.server"):
        run_sync(scenario())  # a loop of its own: Playwright's may be running in this thread


def test_an_application_that_asks_the_server_to_exit_stops_it():
    async def scenario() -> bool:
        server = Stepped()
        f = asyncio.get_running_loop().create_future()
        f.set_exception(KeyboardInterrupt())
        server.connections = {Protocol(): {"application_instance": f}}
        server.run_slices(server.application_checker)
        return server.stopped

    assert run_sync(scenario())


def test_the_server_process_pings_every_idle_websocket(tmp_path):
    """``python -m gotweb.server`` takes daphne's options; with ``--ping-interval 1`` each of 30
    idle sockets (the lobby list's) is pinged within a few seconds."""
    from tests.wsclient import WS, Closed

    port = free_port()
    env = {**os.environ, "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1", "SECRET_KEY": "sweeps-" + "x" * 40,
           "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "STATIC_ROOT": str(tmp_path / "static"),
           "LIVE_CONNECT_RATE": "none"}  # 30 sockets from one address at once, as no browser opens them
    env.pop("REDIS_URL", None)
    env.pop("DJANGO_SETTINGS_MODULE", None)
    command = [sys.executable, "-m", "gotweb.server", "--ping-interval", "1", "-b", "127.0.0.1", "-p", str(port),
               "gotweb.asgi:application"]
    url, proc = launch(env, port, tmp_path / "server.log", command)

    async def idle_sockets() -> list[int]:
        sockets = [await WS.connect(f"ws://127.0.0.1:{port}/ws/lobbies/", url) for _ in range(30)]

        async def listen(ws: WS) -> None:
            try:
                while True:
                    await ws.recv(10)
            except (asyncio.TimeoutError, Closed):
                pass

        readers = [asyncio.ensure_future(listen(ws)) for ws in sockets]
        await asyncio.sleep(4.5)  # sweeps every 2 s; a socket is due 1 s after its last ping
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        for ws in sockets:
            await ws.close()
        return [ws.pings for ws in sockets]

    try:
        pings = run_sync(idle_sockets())  # a loop of its own: Playwright's may be running in this thread
    finally:
        proc.terminate()
        proc.wait(10)
    assert all(n >= 1 for n in pings), pings


@pytest.mark.parametrize("argv, runs", [
    (["/srv/gotweb/gotweb/server.py", "-b", "127.0.0.1", "-p", "8001", "gotweb.asgi:application"], True),  # python -m gotweb.server
    (["/srv/gotweb/.venv/bin/daphne", "gotweb.asgi:application"], True),
    (["/srv/gotweb/.venv/lib/python3.11/site-packages/daphne/__main__.py", "gotweb.asgi:application"], True),
    (["/srv/gotweb/.venv/bin/uvicorn", "gotweb.asgi:application"], True),
    (["manage.py", "migrate"], False),
    (["/srv/gotweb/gotweb/settings.py"], False),
    (["/srv/other/server.py"], False),
])
def test_the_scheduler_runs_in_every_server_process_by_default(settings, argv, runs):
    """``GAME_SCHEDULER=auto``: the site's server (``python -m gotweb.server``) fires clocks and
    deadlines as daphne's own command does; other commands do not."""
    from game.live import scheduler

    settings.GAME_SCHEDULER = "auto"
    assert scheduler.wanted(argv) is runs

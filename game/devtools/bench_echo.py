"""A bench-only websocket: the raw fan-out baseline of ``python -m tests.bench.live``.

``/ws/bench/echo/<name>/`` exists only with the setting ``BENCH_ECHO`` (environment
``GOTWEB_BENCH=1``; never in production, see :mod:`gotweb.routing`). Every socket joins the
channel-layer group ``bench-echo-<name>``; a text message received on any socket is handed
unchanged to the whole group with one ``group_send`` and each member sends it to its browser.
That is the least work a push to N sockets through the same channel layer, served by the same
daphne, can cost: no database, no session, no per-viewer payload (and, like the game's consumer,
no idle hop to the database thread per message: :class:`~game.live.transport.NoIdleDbHop`). The
live benchmark compares the game's action-to-every-socket latency with it.

``/ws/bench/hub-echo/<name>/`` is the same through the project's own fan-out (:mod:`game.live.hub`,
as the game's sockets use it): one relay per process in the group, the publishing process's
sockets served at once.

``/ws/bench/write-echo/<name>/`` is the hub's echo after the least I/O an act does before its
push, on the event loop as an act does it (:mod:`game.live.loopwrite`): one count of a budget in
the cache (:meth:`game.live.ratelimit.SharedLimit.take_async`: Redis in the benchmark) and one
transaction that commits a write on PostgreSQL (``SELECT txid_current()`` in autocommit: the
transaction takes an id, so its commit is flushed to the write-ahead log, as an act's is), then
the publish. No row changes, no state, no payload: the floor of an act's path through the same
services.

``/ws/bench/hub-count/`` answers every text message with ``{"members": n}``, the number of
consumers in this process's hub (:meth:`game.live.hub.Hub.member_count`): tests against a real
daphne process (the fuzz, ``tests/e2e/test_live_fuzz_daphne.py``) check with it that sockets
which closed, however their messages went, left no consumer behind. The text ``mem`` is answered
with the process's memory after a full garbage collection (``python -m tests.bench.capacity``;
``mem-detail`` adds ``"grew"``, the source lines that allocated most since the last ``mem-detail``):
``{"members", "rss_kb", "blocks"`` (``sys.getallocatedblocks()``), ``"traced"`` (bytes that
``tracemalloc`` traces, when the process runs with ``PYTHONTRACEMALLOC``, else None) and
``"held"`` (:func:`held_games`)``}``. The text ``lag`` is answered with ``{"members", "lag"}``:
how late this process's event loop ran a timer due every 10 ms since the last ``lag``
(:class:`LoopLag`; the first ``lag`` starts it).
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import tracemalloc

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path

from game.live import loopwrite, ratelimit
from game.live.hub import hub
from game.live.transport import NoIdleDbHop


class EchoConsumer(NoIdleDbHop, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = "bench-echo-" + self.scope["url_route"]["kwargs"]["name"]
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if text_data is not None:
            await self.channel_layer.group_send(self.group, {"type": "bench.echo", "text": text_data[:1000]})

    async def bench_echo(self, event) -> None:
        await self.send(text_data=event["text"])


class HubEchoConsumer(NoIdleDbHop, AsyncWebsocketConsumer):
    group_prefix = "bench-hub-echo-"

    async def connect(self) -> None:
        self.group = self.group_prefix + self.scope["url_route"]["kwargs"]["name"]
        await hub().join(self.group, self)
        await self.accept()

    async def disconnect(self, code) -> None:
        if hasattr(self, "group"):
            await hub().leave(self.group, self)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if text_data is not None:
            await hub().publish(self.group, {"type": "bench.echo", "text": text_data[:1000]})

    async def bench_echo(self, event) -> None:
        await self.send(text_data=event["text"])

    async def hub_resync(self, event) -> None:  # after a channel-layer failure: echoes keep no state
        pass


class WriteEchoConsumer(HubEchoConsumer):
    """The hub's echo after a budget's count and a commit (see the module's docstring)."""

    group_prefix = "bench-write-echo-"

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if text_data is not None:
            await ratelimit.SharedLimit("bench", self.group, 1e3, 1e9).take_async()
            await loopwrite.execute("SELECT txid_current()", [])
            await hub().publish(self.group, {"type": "bench.echo", "text": text_data[:1000]})


class HubCountConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None) -> None:
        out = {"members": hub().member_count()}
        if text_data == "lag":
            out["lag"] = LOOP_LAG.read()
        if text_data in ("mem", "mem-detail"):
            gc.collect()
            out.update(rss_kb=_rss_kb(), blocks=sys.getallocatedblocks(), held=held_games(),
                       traced=tracemalloc.get_traced_memory()[0] if tracemalloc.is_tracing() else None)
            if text_data == "mem-detail" and tracemalloc.is_tracing():  # where it grew since the last "mem-detail"
                global _last_snapshot
                snap = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
                if _last_snapshot is not None:
                    out["grew"] = [[str(st.traceback), st.size_diff, st.count_diff]
                                   for st in snap.compare_to(_last_snapshot, "lineno")[:25]]
                _last_snapshot = snap
        await self.send(text_data=json.dumps(out))


_last_snapshot = None


class LoopLag:
    """How late the event loop runs a timer due every :attr:`PERIOD` seconds: the stalls every
    socket of the process waits through (a long callback, a garbage collection, the process
    waiting for a core). :meth:`read` returns, since the last read, ``{"ticks", "over"`` (ticks
    later than each of :attr:`BOUNDS` ms), ``"max_ms", "late_ms"`` (the sum of every tick's
    lateness over 1 ms)``}`` and starts the probe on its first call (one task, ~100 wakeups/s)."""

    PERIOD = 0.010  # seconds
    BOUNDS = (5, 10, 25, 50)  # ms

    def __init__(self) -> None:
        self.task: asyncio.Task | None = None
        self._reset()

    def _reset(self) -> None:
        self.ticks, self.over, self.max_ms, self.late_ms = 0, [0] * len(self.BOUNDS), 0.0, 0.0

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.PERIOD
            await asyncio.sleep(self.PERIOD)
            late = (loop.time() - due) * 1000.0
            self.ticks += 1
            self.max_ms = max(self.max_ms, late)
            if late > 1.0:
                self.late_ms += late
            for i, bound in enumerate(self.BOUNDS):
                if late > bound:
                    self.over[i] += 1

    def read(self) -> dict:
        out = {"ticks": self.ticks, "over": dict(zip(map(str, self.BOUNDS), self.over)),
               "max_ms": round(self.max_ms, 1), "late_ms": round(self.late_ms, 1)}
        self._reset()
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())
        return out


LOOP_LAG = LoopLag()


def _rss_kb() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def held_games() -> dict[str, int]:
    """How many games each of this process's memories of games holds now
    (:func:`game.live.memory.held_games`, the site's followers and the hub's groups)."""
    from game.live.memory import held_games as live_held
    from game.site.notifications import hints

    return {**live_held(), "awaited": len(hints._LAST_AWAITED), "hub_groups": len(hub().groups)}


websocket_urlpatterns = [
    path("ws/bench/echo/<slug:name>/", EchoConsumer.as_asgi()),
    path("ws/bench/hub-echo/<slug:name>/", HubEchoConsumer.as_asgi()),
    path("ws/bench/write-echo/<slug:name>/", WriteEchoConsumer.as_asgi()),
    path("ws/bench/hub-count/", HubCountConsumer.as_asgi()),
]

"""A bench-only websocket: the raw fan-out baseline of ``python -m tests.bench.live``.

``/ws/bench/echo/<name>/`` exists only with the setting ``BENCH_ECHO`` (environment
``GOTWEB_BENCH=1``; never in production, see :mod:`gotweb.routing`). Every socket joins the
channel-layer group ``bench-echo-<name>``; a text message received on any socket is handed
unchanged to the whole group with one ``group_send`` and each member sends it to its browser.
That is the least work a push to N sockets through the same channel layer, served by the same
daphne, can cost: no database, no session, no per-viewer payload (and, like the game's consumer,
no idle hop to the database thread per message: :class:`~game.live.consumer.NoIdleDbHop`). The
live benchmark compares the game's action-to-every-socket latency with it.

``/ws/bench/hub-echo/<name>/`` is the same through the project's own fan-out (:mod:`game.live.hub`,
as the game's sockets use it): one relay per process in the group, the publishing process's
sockets served at once.

``/ws/bench/hub-count/`` answers every text message with ``{"members": n}``, the number of
consumers in this process's hub (:meth:`game.live.hub.Hub.member_count`): tests against a real
daphne process (the fuzz, ``tests/e2e/test_live_fuzz_daphne.py``) check with it that sockets
which closed, however their messages went, left no consumer behind. The text ``mem`` is answered
with the process's memory after a full garbage collection (``python -m tests.bench.capacity``;
``mem-detail`` adds ``"grew"``, the source lines that allocated most since the last ``mem-detail``):
``{"members", "rss_kb", "blocks"`` (``sys.getallocatedblocks()``), ``"traced"`` (bytes that
``tracemalloc`` traces, when the process runs with ``PYTHONTRACEMALLOC``, else None) and
``"held"`` (:func:`held_games`)``}``.
"""

from __future__ import annotations

import gc
import json
import sys
import tracemalloc

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path

from game.live.consumer import NoIdleDbHop
from game.live.hub import hub


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
    async def connect(self) -> None:
        self.group = "bench-hub-echo-" + self.scope["url_route"]["kwargs"]["name"]
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


class HubCountConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        await self.accept()

    async def receive(self, text_data=None, bytes_data=None) -> None:
        out = {"members": hub().member_count()}
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
    from game.site import notifications

    return {**live_held(), "awaited": len(notifications._LAST_AWAITED), "hub_groups": len(hub().groups)}


websocket_urlpatterns = [
    path("ws/bench/echo/<slug:name>/", EchoConsumer.as_asgi()),
    path("ws/bench/hub-echo/<slug:name>/", HubEchoConsumer.as_asgi()),
    path("ws/bench/hub-count/", HubCountConsumer.as_asgi()),
]

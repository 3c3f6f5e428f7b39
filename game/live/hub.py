"""The hub: one process's fan-out of channel-layer group messages to its own sockets.

Channels' own way gives each socket a channel of its own in a group, so one change to a game
watched by 26 sockets of one process is 26 deliveries by the channel layer (with
``channels_redis``: 26 Redis round trips, read one after another by the process's single receive
loop). With the hub, a process joins a group once, with one channel of its own (the group's
*relay*), and hands each message to its members in this process itself: one delivery per process
and group, however many sockets watch.

A process that makes a change itself (an act on one of its sockets) need not wait for that
delivery: :func:`publish` hands the message to the local members at once, then sends it to the
group marked with the hub's id, and this hub's relay skips it; the other processes' relays
deliver it to their members. A message sent by plain ``group_send`` (a bot's thread, an HTTP
view, another process) reaches every process's members through the relays.

Members are consumers. Each gets its messages through its ``dispatch`` (the handler named by the
message's ``type``), one at a time and in the order the hub received them, in a task of its own,
as Channels would deliver them: one slow member does not hold up the others. There is one hub per
event loop (daphne runs one; each async test has its own) and per channel layer.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from typing import Any

from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

#: the key of a published message that names the hub which already delivered it locally
ORIGIN = "hub_origin"


class _Member:
    """One consumer's queue of messages and the task that dispatches them in order."""

    def __init__(self, consumer: Any) -> None:
        self.consumer = consumer
        self.queue: asyncio.Queue[dict] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            message = await self.queue.get()
            try:
                await self.consumer.dispatch(message)
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad message must not end this member's deliveries
                log.exception("hub: %s failed on %s", type(self.consumer).__name__, message.get("type"))


class _Group:
    def __init__(self) -> None:
        self.members: dict[int, _Member] = {}
        self.channel: str | None = None
        self.relay: asyncio.Task | None = None


class Hub:
    """The fan-out of one event loop and channel layer (use :func:`hub`)."""

    def __init__(self, layer) -> None:
        self.layer = layer
        self.id = uuid.uuid4().hex
        self.groups: dict[str, _Group] = {}
        self.lock = asyncio.Lock()  # joins and leaves that change a relay, one at a time

    async def join(self, group: str, consumer: Any) -> None:
        """Deliver ``group``'s messages to ``consumer`` from now on (its relay joins the group
        first if it is the process's first member)."""
        async with self.lock:
            g = self.groups.setdefault(group, _Group())
            if g.relay is None:
                g.channel = await self.layer.new_channel()
                await self.layer.group_add(group, g.channel)
                g.relay = asyncio.get_running_loop().create_task(self._relay(group, g.channel))
            if id(consumer) not in g.members:
                g.members[id(consumer)] = _Member(consumer)

    async def leave(self, group: str, consumer: Any) -> None:
        """Stop delivering to ``consumer``; the last member's leave takes the relay out."""
        async with self.lock:
            g = self.groups.get(group)
            if g is None:
                return
            member = g.members.pop(id(consumer), None)
            if member is not None:
                member.task.cancel()
            if g.members:
                return
            del self.groups[group]
            if g.relay is not None:
                g.relay.cancel()
                try:
                    await self.layer.group_discard(group, g.channel)
                except Exception:  # the layer is down: the membership expires by itself
                    log.exception("hub: could not leave group %s", group)

    def deliver(self, group: str, message: dict) -> None:
        """Queue ``message`` for every local member of ``group`` (no await: the members' tasks
        run it in order). The members are woken together: waking them one turn of the event loop
        apart would write the first sockets' data sooner, but the last socket's later (about
        0.15 ms more per socket on 2 cores)."""
        g = self.groups.get(group)
        if g is not None:
            for member in list(g.members.values()):
                member.queue.put_nowait(message)

    async def publish(self, group: str, message: dict) -> None:
        """Hand ``message`` to the local members at once, then to the group's other processes.
        A channel layer that is down is logged, not raised: the change is committed, and other
        processes' sockets catch up when they resync."""
        self.deliver(group, message)
        try:
            await self.layer.group_send(group, {**message, ORIGIN: self.id})
        except Exception:
            log.exception("hub: could not send to group %s", group)

    async def _relay(self, group: str, channel: str) -> None:
        while True:
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # a broken connection to the layer: wait, then read again
                log.exception("hub: relay of %s could not receive", group)
                await asyncio.sleep(1)
                continue
            if message.pop(ORIGIN, None) != self.id:
                self.deliver(group, message)

    def members(self, group: str) -> int:
        """How many local consumers ``group`` has (for tests and diagnostics)."""
        g = self.groups.get(group)
        return 0 if g is None else len(g.members)

    def member_count(self) -> int:
        """How many local consumers all groups have together (for tests and diagnostics: once
        every socket has closed it is back where it was, whatever the sockets sent)."""
        return sum(len(g.members) for g in self.groups.values())


_HUBS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, Hub]] = weakref.WeakKeyDictionary()


def hub(layer=None) -> Hub:
    """The running event loop's hub for ``layer`` (default: the default channel layer). Call it
    from a coroutine."""
    layer = layer if layer is not None else get_channel_layer()
    per_loop = _HUBS.setdefault(asyncio.get_running_loop(), {})
    h = per_loop.get(id(layer))
    if h is None or h.layer is not layer:
        h = per_loop[id(layer)] = Hub(layer)
    return h

"""The hub: one process's fan-out of channel-layer group messages to its own sockets.

Channels' own way gives each socket a channel of its own in a group, so one change to a game
watched by 26 sockets of one process is 26 deliveries by the channel layer (with
``channels_redis``: 26 Redis round trips, read one after another by the process's single receive
loop). With the hub, a process joins a group once, with one channel of its own (the group's
*relay*), and hands each message to its members in this process itself: one delivery per process
and group, however many sockets watch.

A process that makes a change itself (an act on one of its sockets) need not wait for that
delivery: :func:`publish` hands the message to the local members at once. Then, only if another
process's relay is in the group (one read of the group's members, :mod:`game.live.members`), it
sends the message to those relays' channels alone (:func:`members.send_to`: one round trip to
Redis), not to the group: a ``group_send`` would come back to this hub's own relay too, and each
message a relay reads costs its process's one receive loop four Redis round trips in a row
(channels_redis reads a process's channels one message at a time), for a copy it would only drop.
A game watched from one process only (and a person's group that nobody follows) costs the channel
layer one read per change. When the members cannot be read (another channel layer), the message
goes to the group marked with the hub's id, and this hub's relay skips it. A message sent by
plain ``group_send`` (a bot's thread, an HTTP view, another process) reaches every process's
members through the relays.

Members are consumers. Each gets its messages through its ``dispatch`` (the handler named by the
message's ``type``), one at a time and in the order the hub received them, in a task of its own,
as Channels would deliver them: one slow member does not hold up the others. There is one hub per
event loop (daphne runs one; each async test has its own) and per channel layer.

**Memberships are kept alive.** A channel layer forgets a group member ``group_expiry`` seconds
after its ``group_add`` (channels_redis and the in-memory layer: 86,400 s unless configured; here
the setting ``CHANNEL_GROUP_EXPIRY``). While the hub has groups, its keeper task adds every relay
to its group again every ``group_expiry / 3`` seconds (:attr:`Hub.refresh_every`, read from the
layer's own ``group_expiry``), so a game or lobby open for days keeps its pushes; the keeper stops
with the last group.

**A channel layer that fails is recovered from.** When a relay cannot receive, or a ``group_add``
fails (Redis stopped or restarted: a restarted Redis has forgotten every group), the hub counts
the layer as broken: its relays wait, and the keeper adds every relay to its group again, retrying
after 0.25, 0.5, 1, 2, then every 4 s (:data:`RETRY_DELAYS`) until that works. Then the relays
read again, and every member is handed ``{"type": "hub.resync"}`` (:data:`RESYNC`): the messages
sent while the layer was away are lost, so each consumer sends its viewer the current state from
the database (its ``hub_resync`` handler). A socket stays open throughout; its process's own
changes still reach it at once (:meth:`Hub.publish` delivers locally first). Every join, leave
and send is bounded by :data:`LAYER_TIMEOUT` seconds, so a Redis that hangs cannot hold up a
socket's connect or act (a relay's blocking read is the layer's own: channels_redis reads with a
5 s server-side timeout).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from typing import Any

from channels.layers import get_channel_layer

from . import members

log = logging.getLogger(__name__)

#: the key of a published message that names the hub which already delivered it locally
ORIGIN = "hub_origin"
#: the type of the message handed to every member after the hub recovered from a layer failure
#: (its handler: ``hub_resync``): group messages may have been lost meanwhile
RESYNC = "hub.resync"
#: seconds one call to the channel layer (``group_add``, ``group_discard``, ``group_send``) may take
LAYER_TIMEOUT = 5.0
#: seconds between the keeper's attempts to join the groups again while the layer is broken (the
#: last one repeats)
RETRY_DELAYS = (0.25, 0.5, 1.0, 2.0, 4.0)
#: a layer that states no ``group_expiry`` is taken to keep members this long (channels' default)
DEFAULT_GROUP_EXPIRY = 86400


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
        self.lock = asyncio.Lock()  # joins, leaves and re-joins that change a relay, one at a time
        #: seconds between two re-joins of every relay: a third of the layer's ``group_expiry``
        self.refresh_every = float(getattr(layer, "group_expiry", None) or DEFAULT_GROUP_EXPIRY) / 3
        self.keeper: asyncio.Task | None = None  # refreshes and recovers the memberships
        self.broken = asyncio.Event()  # set by a layer failure; the keeper recovers
        self.healthy = asyncio.Event()  # relays read while it is set
        self.healthy.set()
        #: how many times the hub recovered from a broken layer (for tests and diagnostics)
        self.recoveries = 0

    async def join(self, group: str, consumer: Any) -> None:
        """Deliver ``group``'s messages to ``consumer`` from now on (its relay joins the group
        first if it is the process's first member)."""
        async with self.lock:
            g = self.groups.setdefault(group, _Group())
            if g.relay is None:
                g.channel = await self.layer.new_channel()
                g.relay = asyncio.get_running_loop().create_task(self._relay(group, g.channel))
                try:
                    await self._layer_call(self.layer.group_add(group, g.channel))
                except Exception as exc:  # the layer is down: the keeper joins when it is back
                    self._failed(f"could not join group {group}", exc)
            if id(consumer) not in g.members:
                g.members[id(consumer)] = _Member(consumer)
            if self.keeper is None or self.keeper.done():
                self.keeper = asyncio.get_running_loop().create_task(self._keep())

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
            if not self.groups and self.keeper is not None:
                self.keeper.cancel()
                self.keeper = None
            if g.relay is not None:
                g.relay.cancel()
                try:
                    await self._layer_call(self.layer.group_discard(group, g.channel))
                except Exception as exc:  # the layer is down: the membership expires by itself
                    log.warning("hub: could not leave group %s: %r", group, exc)

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
        """Hand ``message`` to the local members at once, then to the group's other processes,
        if it has any (:meth:`elsewhere`). A channel layer that is down is logged, not raised:
        the change is committed, and other processes' sockets catch up when their hub recovers
        (:data:`RESYNC`)."""
        self.deliver(group, message)
        try:
            others = await self._layer_call(self.others(group))
            if others is None:
                await self._layer_call(self.layer.group_send(group, {**message, ORIGIN: self.id}))
            elif others:
                full = await self._layer_call(members.send_to(self.layer, others, message))
                if full:  # a relay far behind: as group_send does, its copy is dropped
                    log.warning("hub: %d channel(s) of group %s full; message dropped there", full, group)
        except Exception as exc:  # an outage is noticed (and recovered from) by the relays' reads
            log.warning("hub: could not send to group %s: %r", group, exc)

    async def others(self, group: str) -> set[str] | None:
        """The channels of ``group`` other than this hub's own relay (other processes' relays,
        plain channels), or None when the layer cannot tell (:mod:`game.live.members`).
        A process that joins just after this read has joined before it reads the game's state,
        which then already holds the change (join, then read)."""
        channels = await members.group_channels(self.layer, group)
        if channels is None:
            return None
        g = self.groups.get(group)
        return channels - {g.channel} if g is not None else channels

    async def elsewhere(self, group: str) -> bool:
        """Whether ``group`` has a member other than this hub's own relay; True when the layer
        cannot tell."""
        others = await self.others(group)
        return others is None or bool(others)

    async def _relay(self, group: str, channel: str) -> None:
        while True:
            await self.healthy.wait()
            try:
                message = await self.layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a broken connection to the layer: the keeper recovers
                self._failed(f"relay of {group} could not receive", exc)
                await asyncio.sleep(RETRY_DELAYS[0])  # never a busy loop, whatever fails
                continue
            if message.pop(ORIGIN, None) != self.id:
                self.deliver(group, message)

    async def _layer_call(self, call):
        """Await ``call`` (a coroutine of the channel layer) for at most :data:`LAYER_TIMEOUT`
        seconds; raises what it raises, or TimeoutError."""
        return await asyncio.wait_for(call, LAYER_TIMEOUT)

    def _failed(self, what: str, exc: BaseException) -> None:
        """A call to the layer failed: logged once per outage, relays paused, keeper told."""
        if self.healthy.is_set():  # the first failure of an outage
            log.warning("hub: %s (%r); joining the groups again once the channel layer answers", what, exc)
        self.healthy.clear()
        self.broken.set()

    async def _keep(self) -> None:
        """While the hub has groups: every :attr:`refresh_every` seconds, and at once after a
        failure (then again after each of :data:`RETRY_DELAYS` until it works), add every relay
        to its group again; after a failure, hand every member a :data:`RESYNC` message."""
        loop = asyncio.get_running_loop()
        attempt = 0
        while True:
            if not self.broken.is_set() and self.healthy.is_set():
                try:
                    await asyncio.wait_for(self.broken.wait(), self.refresh_every)
                except TimeoutError:
                    pass  # time for the periodic refresh
            recovering = self.broken.is_set()
            self.broken.clear()
            started = loop.time()
            if await self._join_all():
                attempt = 0
                if recovering or not self.healthy.is_set():
                    self.recoveries += 1
                    log.warning("hub: channel layer back; groups joined again (%d)", len(self.groups))
                    self.healthy.set()
                    for name in list(self.groups):
                        self.deliver(name, {"type": RESYNC})
            else:
                self.broken.set()
                delay = RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)]
                attempt += 1
                await asyncio.sleep(max(0.0, delay - (loop.time() - started)))

    async def _join_all(self) -> bool:
        """Add every relay to its group again (one at a time, under the lock, so a relay that
        left meanwhile is not added back). False at the first failure."""
        for name in list(self.groups):
            async with self.lock:
                g = self.groups.get(name)
                if g is None or g.channel is None:
                    continue
                try:
                    await self._layer_call(self.layer.group_add(name, g.channel))
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self._failed(f"could not join group {name} again", exc)
                    return False
        return True

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

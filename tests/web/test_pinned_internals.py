"""The library internals the site relies on, and the exact pins that hold them still.

Where the site reaches inside a library (daphne's sweeps, Twisted's writes, channels_redis'
groups, Channels' dispatch and origin check, Django's Redis cache and connection parameters), that
library is pinned with ``==`` in pyproject.toml. Each test here checks one internal: that it
exists with the kind or signature our code expects, that it behaves as our code assumes, or, for
code of ours that re-implements a library function, that the library's function is still the one
it was copied from (a fingerprint: the first 16 hex digits of the SHA-256 of
``inspect.getsource``). Each docstring names the code of ours that relies on it; a failure after an
upgrade says what to re-read before the pin moves (and, for a fingerprint, the new value to record
once it has been re-read).
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.metadata
import inspect
import re
import socket
import tomllib
from pathlib import Path

import pytest
from daphne import cli as daphne_cli  # daphne first: it installs Twisted's asyncio reactor
from daphne import http_protocol, ws_protocol
from daphne import server as daphne_server
from twisted.internet import abstract, protocol, reactor, tcp

ROOT = Path(__file__).resolve().parents[2]

#: the libraries the site reaches inside: each must be pinned exactly
REACHED_INSIDE = {"django", "channels", "daphne", "twisted", "channels-redis"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins() -> dict[str, str]:
    """``{normalised distribution name: version}`` of the ``==`` pins in pyproject.toml."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = {}
    for dep in deps:
        m = re.fullmatch(r"\s*([A-Za-z0-9_.\-]+)\s*(?:\[[^\]]*\])?\s*==\s*([^\s;,]+)\s*", dep)
        if m:
            pins[_norm(m.group(1))] = m.group(2)
    return pins


def fingerprint(fn) -> str:
    return hashlib.sha256(inspect.getsource(fn).encode()).hexdigest()[:16]


def assert_unchanged(fn, recorded: str, ours: str) -> None:
    """``fn``'s source is still the one ``ours`` was written against."""
    got = fingerprint(fn)
    assert got == recorded, (
        f"{fn.__module__}.{fn.__qualname__} changed upstream (fingerprint {got}, recorded {recorded}): "
        f"re-read {ours}, which relies on it, then record the new fingerprint in {Path(__file__).name}"
    )


def shape(fn) -> str:
    """``fn``'s signature without annotations: its parameters' names, kinds and defaults."""
    sig = inspect.signature(fn)
    bare = [p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()]
    return str(sig.replace(parameters=bare, return_annotation=inspect.Signature.empty))


# --- the pins -----------------------------------------------------------------------------------
def test_every_library_reached_inside_is_pinned_exactly():
    """pyproject.toml: Django, channels, daphne, Twisted and channels-redis are pinned with ``==``
    (the code that reaches inside each: the tests below)."""
    missing = REACHED_INSIDE - set(_pins())
    assert not missing, f"not pinned with == in pyproject.toml: {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(REACHED_INSIDE))
def test_the_installed_version_is_the_pin(name):
    """The version installed is the one pinned in pyproject.toml, the one the internals below were
    checked against (all of gotweb/server.py, game/live/members.py, game/live/ratelimit.py,
    game/live/loopwrite.py, game/live/transport.py's NoIdleDbHop and gotweb/asgi.py's
    SiteOriginValidator rely on one of them)."""
    pinned = _pins().get(name)
    installed = importlib.metadata.version(name)
    assert installed == pinned, f"{name} {installed} is installed, pyproject.toml pins {pinned}: run this file against the pin"


# --- Twisted: gotweb/server.py ImmediateWriteConnection and Server.run --------------------------
class _Port:
    _realPortNumber = 0  # what tcp.Server's repr reads of its listening port


@pytest.fixture
def connection():
    """Twisted's own ``tcp.Server`` on one end of a socket pair (the reactor not running)."""
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    peer.setblocking(False)
    conn = tcp.Server(ours, protocol.Protocol(), ("127.0.0.1", 1), _Port(), 1, reactor)
    yield conn, peer
    conn.stopReading()
    conn.stopWriting()
    ours.close()
    peer.close()


def test_twisted_port_builds_its_connections_from_its_transport_attribute():
    """gotweb/server.py ``Server.run`` sets ``tcp.Port.transport = ImmediateWriteConnection``: a
    listening port must build each accepted connection by calling its ``transport`` class
    attribute with ``tcp.Server``'s arguments."""
    assert issubclass(tcp.Port.__dict__["transport"], tcp.Server)
    assert shape(tcp.Server.__init__) == "(self, sock, protocol, client, server, sessionno, reactor)"
    assert "self.transport(" in inspect.getsource(tcp.Port.doRead)
    assert_unchanged(tcp.Port.doRead, "d240fc123090ee23", "gotweb/server.py Server.run (tcp.Port.transport)")


@pytest.mark.parametrize(
    "name, kinds, fresh",
    [
        ("_tempDataLen", (int,), 0),
        ("dataBuffer", (bytes,), b""),
        ("offset", (int,), 0),
        ("_writeDisconnecting", (bool,), False),
        ("_writeDisconnected", (bool,), False),
        ("connected", (int, bool), 1),
        ("disconnecting", (int, bool), 0),
    ],
)
def test_twisted_connection_write_state(connection, name, kinds, fresh):
    """gotweb/server.py ``ImmediateWriteConnection.write`` reads these attributes of Twisted's
    ``FileDescriptor``/``tcp.Connection`` to decide that nothing is buffered and the connection
    is open for writing."""
    conn, _ = connection
    assert hasattr(conn, name), f"Twisted's tcp.Server has no {name}: re-read gotweb/server.py ImmediateWriteConnection.write"
    value = getattr(conn, name)
    assert type(value) in kinds and value == fresh, (name, value)


def test_twisted_buffers_a_write_until_dowrite_sends_it(connection):
    """gotweb/server.py ``ImmediateWriteConnection.write`` takes ``not _tempDataLen and offset ==
    len(dataBuffer)`` for "no bytes wait": Twisted's ``write`` puts bytes in ``_tempDataBuffer``
    (counted by ``_tempDataLen``) and ``doWrite`` moves them to ``dataBuffer``, advancing
    ``offset`` as they leave."""
    conn, peer = connection
    abstract.FileDescriptor.write(conn, b"abc")
    assert conn._tempDataLen == 3 and conn._tempDataBuffer == [b"abc"]
    assert conn in reactor.getWriters()
    conn.doWrite()
    assert peer.recv(16) == b"abc"
    assert conn._tempDataLen == 0 and conn.offset == len(conn.dataBuffer)
    assert conn not in reactor.getWriters()
    assert_unchanged(abstract.FileDescriptor.write, "3e46c97fc173bc7e", "gotweb/server.py ImmediateWriteConnection.write")
    assert_unchanged(abstract.FileDescriptor.doWrite, "a986d7b1b1054e43", "gotweb/server.py ImmediateWriteConnection.write")


def test_twisted_closing_a_connection_sets_the_flags_the_immediate_write_reads(connection):
    """gotweb/server.py ``ImmediateWriteConnection.write`` leaves a closing connection to Twisted's
    buffered path, recognising it by ``disconnecting`` (``loseConnection``) and
    ``_writeDisconnecting`` (``loseWriteConnection``)."""
    conn, _ = connection
    conn.loseWriteConnection()
    assert conn._writeDisconnecting is True
    conn.loseConnection()
    assert conn.disconnecting


def test_twisted_write_some_data_sends_and_returns_a_count(connection):
    """gotweb/server.py ``ImmediateWriteConnection.write`` calls ``writeSomeData(data)`` and takes
    an ``int`` for the bytes the kernel took (anything else: left to the buffered path)."""
    conn, peer = connection
    assert shape(tcp.Server.writeSomeData) == "(self, data)"
    assert conn.writeSomeData(b"hello") == 5 and peer.recv(16) == b"hello"
    assert_unchanged(tcp.Connection.writeSomeData, "2dd0d4209260b94e", "gotweb/server.py ImmediateWriteConnection.write")


# --- daphne: gotweb/server.py Server --------------------------------------------------------------
@pytest.mark.parametrize(
    "method, recorded, ours",
    [
        ("application_checker", "ccb688341a7d0bc1",
         "gotweb/server.py Server.application_checker, _check_application and _report (daphne's reaping, a slice at a time)"),
        ("timeout_checker", "6b70373a3a77cb2b",
         "gotweb/server.py Server.timeout_checker and _check_timeouts (daphne's timeouts and pings, a slice at a time)"),
    ],
)
def test_daphne_sweeps_are_the_ones_we_re_implement(method, recorded, ours):
    """gotweb/server.py ``Server`` re-implements daphne 4.2's two sweeps over every connection,
    visiting them a slice at a time: what a connection is checked for must stay daphne's."""
    assert shape(getattr(daphne_server.Server, method)) == "(self)"
    assert_unchanged(getattr(daphne_server.Server, method), recorded, ours)


def test_daphne_run_makes_connections_and_schedules_the_sweeps_by_name():
    """gotweb/server.py ``Server.run`` (sets ``tcp.Port.transport``, then daphne's ``run``) and
    ``Server.application_checker``/``timeout_checker``: daphne's ``run`` must create
    ``self.connections`` and start both sweeps through ``self``, so our overrides are the ones
    that run."""
    source = inspect.getsource(daphne_server.Server.run)
    assert "self.connections = {}" in source
    assert "self.application_checker" in source and "self.timeout_checker" in source
    assert_unchanged(daphne_server.Server.run, "447c6bd42c62e98c", "gotweb/server.py Server.run")


def test_daphne_connections_hold_what_the_sweeps_read():
    """gotweb/server.py ``Server._sweep`` and ``_check_application`` read ``self.connections``:
    ``{protocol: {"connected": time, "application_instance": future, "disconnected": time}}``."""
    from tests.wsclient import run_sync

    run_sync(_daphne_connections())  # a loop of its own: Playwright's may be running in this thread


async def _daphne_connections():
    async def app(scope, receive, send):
        await asyncio.sleep(10)

    server = daphne_server.Server(app, endpoints=["tcp:port=0:interface=127.0.0.1"])
    server.connections = {}  # what run() starts with
    proto = object()
    server.protocol_connected(proto)
    assert isinstance(server.connections[proto]["connected"], float)
    server.create_application(proto, {"type": "http"})
    future = server.connections[proto]["application_instance"]
    try:
        assert isinstance(future, asyncio.Future) and not future.done()
        server.protocol_disconnected(proto)
        assert isinstance(server.connections[proto]["disconnected"], float)
    finally:
        future.cancel()


def test_daphne_application_close_timeout():
    """gotweb/server.py ``Server._check_application`` cancels an application still running
    ``self.application_close_timeout`` seconds after its connection closed."""
    assert inspect.signature(daphne_server.Server.__init__).parameters["application_close_timeout"].default == 10
    assert daphne_server.Server(None, endpoints=["tcp:port=0"], application_close_timeout=3).application_close_timeout == 3


@pytest.mark.parametrize("cls", [http_protocol.WebRequest, ws_protocol.WebSocketProtocol])
def test_daphne_protocols_check_timeouts_and_handle_exceptions(cls):
    """gotweb/server.py ``Server._check_timeouts`` calls each connection's ``check_timeouts()``,
    and ``Server._report`` its ``handle_exception(exception)``, as daphne's sweeps do."""
    assert shape(cls.check_timeouts) == "(self)"
    assert shape(cls.handle_exception) == "(self, exception)"


def test_daphne_server_stop():
    """gotweb/server.py ``Server._report`` calls ``self.stop()`` when an application raised
    KeyboardInterrupt, as daphne's ``application_checker`` does."""
    assert shape(daphne_server.Server.stop) == "(self)"


def test_daphne_command_line_builds_its_server_class():
    """gotweb/server.py ``CommandLineInterface`` (``python -m gotweb.server``) only sets
    ``server_class``: daphne's command line must build its server from it."""
    assert daphne_cli.CommandLineInterface.server_class is daphne_server.Server
    assert "self.server_class(" in inspect.getsource(daphne_cli.CommandLineInterface.run)
    assert isinstance(inspect.getattr_static(daphne_cli.CommandLineInterface, "entrypoint"), classmethod)


# --- channels_redis: game/live/members.py group_channels -----------------------------------------
def test_channels_redis_group_key():
    """game/live/members.py ``group_channels`` reads the group's sorted set at
    ``layer._group_key(group)``."""
    from channels_redis.core import RedisChannelLayer

    assert shape(RedisChannelLayer._group_key) == "(self, group)"
    assert isinstance(RedisChannelLayer(prefix="p")._group_key("g"), bytes)
    assert_unchanged(RedisChannelLayer._group_key, "7e89938e1cb20f26", "game/live/members.py group_channels")


def test_channels_redis_shard_of_a_group():
    """game/live/members.py ``group_channels`` reads on ``layer.connection(layer.consistent_hash(group))``
    and counts members joined less than ``layer.group_expiry`` seconds ago."""
    from channels_redis.core import RedisChannelLayer

    layer = RedisChannelLayer(hosts=["redis://127.0.0.1:1/0", "redis://127.0.0.1:2/0"], group_expiry=77)
    assert shape(RedisChannelLayer.consistent_hash) == "(self, value)"
    assert shape(RedisChannelLayer.connection) == "(self, index)"
    assert layer.consistent_hash("g") in range(layer.ring_size) and layer.group_expiry == 77


def test_channels_redis_stores_a_group_as_members_reads_it():
    """game/live/members.py ``group_channels`` reads a group's members as channels_redis stores
    them (``group_add``: a sorted set, scored by the time of the latest add) and counts them as
    its ``group_send`` does (younger than ``group_expiry``)."""
    from channels_redis.core import RedisChannelLayer

    assert_unchanged(RedisChannelLayer.group_add, "85ed67999d94bb85", "game/live/members.py group_channels")
    assert_unchanged(RedisChannelLayer.group_send, "c9623ea6ccfa7308", "game/live/members.py group_channels")


def test_channels_redis_sends_as_members_send_to_does():
    """game/live/members.py ``send_to`` stores a message in channels' keys as channels_redis's own
    ``send`` does (a sorted set scored by the time, trimmed to ``expiry``, at most the channel's
    capacity, expiring after ``expiry``), with its ``_map_channel_keys_to_connection`` (one
    serialized copy per Redis key, naming the channels it is for) and ``connection(index)``; its
    ``receive_single`` reads such a copy."""
    from channels_redis.core import RedisChannelLayer

    assert shape(RedisChannelLayer._map_channel_keys_to_connection) == "(self, channel_names, message)"
    assert_unchanged(RedisChannelLayer._map_channel_keys_to_connection, "789f9193b4536625", "game/live/members.py send_to")
    assert_unchanged(RedisChannelLayer.send, "1b2ad54990702acb", "game/live/members.py send_to")
    assert_unchanged(RedisChannelLayer.receive_single, "5a498bb3a2545bf1", "game/live/members.py send_to")
    assert isinstance(RedisChannelLayer(prefix="p").expiry, int)


# --- channels: game/live/members.py, game/live/transport.py, gotweb/asgi.py -----------------------
def test_channels_in_memory_layer_groups():
    """game/live/members.py ``group_channels`` reads ``InMemoryChannelLayer.groups``
    (``{group: {channel: time of joining}}``) and its ``group_expiry``, counting as the layer's
    own expiry does."""
    from tests.wsclient import run_sync

    run_sync(_in_memory_groups())  # a loop of its own: Playwright's may be running in this thread


async def _in_memory_groups():
    from channels.layers import InMemoryChannelLayer

    layer = InMemoryChannelLayer(group_expiry=55)
    channel = await layer.new_channel()
    await layer.group_add("g", channel)
    assert list(layer.groups) == ["g"] and list(layer.groups["g"]) == [channel]
    assert isinstance(layer.groups["g"][channel], float) and layer.group_expiry == 55
    assert_unchanged(InMemoryChannelLayer.group_add, "7c4f2ffd2d8f7a91", "game/live/members.py group_channels")
    assert_unchanged(InMemoryChannelLayer._clean_expired, "604032dae1cc01d2", "game/live/members.py group_channels")


def test_channels_consumer_dispatch():
    """game/live/transport.py ``NoIdleDbHop.dispatch`` re-implements Channels'
    ``AsyncConsumer.dispatch`` without its ``aclose_old_connections()``, with Channels'
    ``get_handler_name``."""
    from channels.consumer import AsyncConsumer, get_handler_name

    assert get_handler_name({"type": "hub.resync"}) == "hub_resync"
    assert_unchanged(AsyncConsumer.dispatch, "39f34e7d4fb0f655", "game/live/transport.py NoIdleDbHop.dispatch")


@pytest.mark.parametrize(
    "method, recorded",
    [("__init__", "76a1181b1f7693fd"), ("__call__", "0b82a945801a5ca2"), ("valid_origin", "0e2c8a742b652ce7")],
)
def test_channels_origin_validator(method, recorded):
    """gotweb/asgi.py ``SiteOriginValidator`` replaces ``OriginValidator.__init__`` (its
    ``allowed_origins`` is a property), calls its ``__call__`` and wraps its ``valid_origin``:
    the validator must keep reading only ``self.application`` and ``self.allowed_origins``."""
    from channels.security.websocket import OriginValidator

    assert_unchanged(getattr(OriginValidator, method), recorded, "gotweb/asgi.py SiteOriginValidator")


# --- Django: game/live/ratelimit.py, game/live/loopwrite.py ---------------------------------------
def test_django_redis_cache_servers():
    """game/live/ratelimit.py ``_async_client`` connects to ``cache._servers[0]``, the first URL of
    the cache's ``LOCATION`` (where Django's cache writes)."""
    from django.core.cache.backends.redis import RedisCache

    cache = RedisCache("redis://127.0.0.1:1/3,redis://127.0.0.1:2/3", {})
    assert cache._servers == ["redis://127.0.0.1:1/3", "redis://127.0.0.1:2/3"]


def test_django_redis_cache_client():
    """game/live/ratelimit.py ``_redis_client`` takes redis-py's client from
    ``cache._cache.get_client(key, write=True)`` (one pipeline per count)."""
    import redis
    from django.core.cache.backends.redis import RedisCache

    cache = RedisCache("redis://127.0.0.1:1/3", {})
    assert shape(type(cache._cache).get_client) == "(self, key=None, *, write=False)"
    assert isinstance(cache._cache.get_client("k", write=True), redis.Redis)


def test_django_postgresql_connection_params():
    """game/live/loopwrite.py ``_db`` and ``_connect_kwargs``: an unconnected connection object
    from ``connections.create_connection`` gives Django's own ``get_connection_params()`` (a dict
    of psycopg's ``connect`` arguments, with Django's type adapters in ``context``), of which the
    loop replaces ``cursor_factory`` and ``prepare_threshold``."""
    from django.db.utils import ConnectionHandler

    db = ConnectionHandler({"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "n", "HOST": "h"}}).create_connection("default")
    got = db.get_connection_params()
    assert {"dbname", "host", "context", "cursor_factory", "prepare_threshold"} <= set(got), sorted(got)
    assert got["dbname"] == "n" and got["prepare_threshold"] is None

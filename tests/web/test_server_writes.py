"""The site's server (``gotweb.server``) sends a connection's bytes at once when nothing waits
before them, and leaves the rest to Twisted's buffer in the same order: a real socket pair, with
Twisted's asyncio reactor not running, so only an immediate send can deliver anything."""

from __future__ import annotations

import socket

import pytest
from daphne import server as daphne_server
from twisted.internet import protocol, reactor, tcp

from gotweb.server import ImmediateWriteConnection, Server


class _Port:
    _realPortNumber = 0  # what tcp.Server's repr reads of its listening port


@pytest.fixture
def pair():
    """``(connection, peer)``: an ImmediateWriteConnection on one end of a socket pair, the other
    end a plain non-blocking socket; both closed after the test."""
    ours, peer = socket.socketpair()
    ours.setblocking(False)
    peer.setblocking(False)
    connection = ImmediateWriteConnection(ours, protocol.Protocol(), ("127.0.0.1", 1), _Port(), 1, reactor)
    yield connection, peer
    connection.stopReading()
    connection.stopWriting()
    ours.close()
    peer.close()


def _drain(peer: socket.socket) -> bytes:
    out = bytearray()
    while True:
        try:
            chunk = peer.recv(1 << 16)
        except BlockingIOError:
            return bytes(out)
        if not chunk:
            return bytes(out)
        out += chunk


def test_a_write_with_nothing_buffered_reaches_the_peer_without_the_reactor(pair):
    connection, peer = pair
    connection.write(b"first frame")
    connection.write(b" second frame")
    assert _drain(peer) == b"first frame second frame"
    assert connection not in reactor.getWriters()  # no poll registered, nothing left behind
    assert connection._tempDataLen == 0 and connection.dataBuffer == b""


def test_what_the_kernel_does_not_take_is_buffered_and_later_writes_keep_their_order(pair):
    connection, peer = pair
    connection.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    big = bytes(range(256)) * 4096  # 1 MiB: more than the socket pair holds
    connection.write(big)
    assert connection in reactor.getWriters()  # the rest waits for the reactor, as in Twisted
    connection.write(b"tail")  # bytes wait before it: buffered too, not sent ahead of them
    received = bytearray(_drain(peer))
    assert 0 < len(received) < len(big)
    for _ in range(10_000):  # what the reactor does when the socket is writable
        if connection not in reactor.getWriters():
            break
        connection.doWrite()
        received += _drain(peer)
    assert bytes(received) == big + b"tail"


def test_a_write_to_a_closed_peer_is_left_to_twisteds_buffered_path(pair):
    connection, peer = pair
    peer.close()
    connection.write(b"lost")  # EPIPE: no exception here; Twisted's doWrite reports the loss
    assert connection._tempDataLen == 4
    assert connection in reactor.getWriters()
    assert isinstance(connection.doWrite(), Exception)


@pytest.mark.parametrize("closing", ["disconnecting", "_writeDisconnecting"])
def test_no_immediate_send_once_the_connection_is_closing(pair, closing):
    connection, peer = pair
    setattr(connection, closing, True)  # loseConnection() / loseWriteConnection(): Twisted flushes, then closes
    connection.write(b"late")
    assert _drain(peer) == b""
    assert connection._tempDataLen == 4


def test_the_server_gives_its_tcp_listeners_these_connections(monkeypatch):
    monkeypatch.setattr(tcp.Port, "transport", tcp.Server)  # restored after the test
    ran = []
    monkeypatch.setattr(daphne_server.Server, "run", lambda self: ran.append(tcp.Port.transport))
    Server(application=None, endpoints=["tcp:port=0:interface=127.0.0.1"]).run()
    assert ran == [ImmediateWriteConnection]

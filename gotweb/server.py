"""The site's HTTP/websocket server: daphne, with its two sweeps over every connection done a slice
at a time and its writes sent at once.

Run it as daphne's own command, with the same options::

    python -m gotweb.server -b 127.0.0.1 -p 8001 gotweb.asgi:application

Why: daphne's ``Server`` visits every open connection in one event-loop callback, twice.
``application_checker`` (every 1 s) reaps the applications of closed connections, and
``timeout_checker`` (every 2 s) enforces the timeouts and sends the websocket keep-alive pings
(``--ping-interval``, 20 s). At 3,300 sockets a probe inside daphne timed them at 2.2-4 ms and
6-20 ms: while one ran, no act was read, written or pushed. Here each sweep visits at most
:attr:`Server.SWEEP_SLICE` connections per callback and lets the loop serve its sockets between
two slices; what a connection is checked for, and how often, is daphne's. With 6,000 idle
sockets on one process the event loop's latest 10 ms tick came 55-67 ms late with daphne's
sweeps and 26-27 ms late with these (docs/capacity.md, ninth round).

Its TCP connections (:class:`ImmediateWriteConnection`) also send a write's bytes at once when
none are buffered, instead of one turn of the event loop later.

``GAME_SCHEDULER=auto`` runs the deadline scheduler in this process as in daphne's own command
(:func:`game.live.scheduler.wanted`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import CancelledError

from daphne import cli as daphne_cli
from daphne import server as daphne_server  # installs Twisted's asyncio reactor: import it first
from twisted.internet import reactor, tcp

logger = logging.getLogger("daphne.server")  # daphne's own logger: its operators' log lines keep their name


class ImmediateWriteConnection(tcp.Server):
    """Twisted's accepted TCP connection, sending a write at once when nothing waits before it.

    Twisted's ``FileDescriptor.write`` only buffers the bytes and registers the socket for writing;
    they leave when the reactor's next poll finds it writable. On the asyncio reactor that is one
    turn of the event loop later, after every callback already queued (other acts' commits and
    renders), and each write costs two more ``epoll_ctl`` calls (register, unregister) and one
    more callback. Here, when the connection's buffer is empty, the bytes go to the socket's
    ``send`` at once, as asyncio's own transports do; what the kernel does not take (a full send
    buffer) and every write while bytes wait are buffered by Twisted as before, so the order of the
    bytes is unchanged. A lost connection, or one closing (``loseConnection``,
    ``loseWriteConnection``), is left to Twisted's buffered path, which reports or flushes it.
    Only TCP listeners get this class (:meth:`Server.run`); a UNIX socket's connections keep
    Twisted's buffering. In the capacity benchmark daphne's CPU per act fell by up to a fifth
    (docs/capacity.md, tenth round).
    """

    def write(self, data: bytes) -> None:
        if (isinstance(data, bytes) and data and self.connected and not self.disconnecting
                and not self._writeDisconnecting and not self._writeDisconnected
                and not self._tempDataLen and self.offset == len(self.dataBuffer)):
            sent = self.writeSomeData(data)
            if isinstance(sent, int) and sent > 0:
                if sent == len(data):
                    return
                data = data[sent:]
        super().write(data)


class Server(daphne_server.Server):
    """daphne's ``Server`` (4.2) whose periodic sweeps are sliced, and whose TCP listeners give
    their connections :class:`ImmediateWriteConnection` (set in :meth:`run`, for this process).

    * ``application_checker``, every :attr:`APPLICATION_PERIOD` s after the last sweep ended: a
      connection closed for more than ``application_close_timeout`` seconds whose application
      still runs has it cancelled (a warning); a finished application is reaped, its exception
      logged (and answered with a 500 on a connection still open; ``KeyboardInterrupt`` stops the
      server); a closed connection without an application is forgotten.
    * ``timeout_checker``, every :attr:`TIMEOUT_PERIOD` s after the last sweep ended: each
      connection's own ``check_timeouts()`` (HTTP timeout; websocket lifetime, handshake timeout
      and keep-alive ping).

    A sweep takes the connections open when it starts, visits :attr:`SWEEP_SLICE` of them per
    event-loop callback (one that closed meanwhile is skipped), and schedules the next sweep when
    it is done. An exception from one connection is logged and the sweep goes on.
    """

    SWEEP_SLICE = 250  # connections per callback: by the probe's timings ~0.2-0.3 ms of reaping, ~0.5-1.5 ms of timeouts
    APPLICATION_PERIOD = 1.0  # seconds, as daphne
    TIMEOUT_PERIOD = 2.0  # seconds, as daphne

    def run(self) -> None:
        tcp.Port.transport = ImmediateWriteConnection  # the class a TCP listener gives its connections
        super().run()

    def application_checker(self) -> None:
        self._sweep(self._check_application, self.APPLICATION_PERIOD, self.application_checker)

    def timeout_checker(self) -> None:
        self._sweep(self._check_timeouts, self.TIMEOUT_PERIOD, self.timeout_checker)

    def _later(self, delay: float, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the reactor ``delay`` seconds from now (0: after the I/O ready now)."""
        reactor.callLater(delay, callback)

    def _sweep(self, visit: Callable[[object], None], period: float, again: Callable[[], None]) -> None:
        pending = list(self.connections)

        def one_slice() -> None:
            try:
                batch = pending[-self.SWEEP_SLICE:]
                del pending[-self.SWEEP_SLICE:]
                for protocol in batch:
                    if protocol in self.connections:
                        try:
                            visit(protocol)
                        except Exception:
                            logger.exception("sweeping %r", protocol)
            finally:
                if pending:
                    self._later(0, one_slice)
                else:
                    self._later(period, again)

        one_slice()

    def _check_application(self, protocol) -> None:
        details = self.connections[protocol]
        disconnected = details.get("disconnected")
        application = details.get("application_instance")
        if (disconnected and application is not None and not application.done()
                and time.time() - disconnected > self.application_close_timeout):
            logger.warning("Application instance %r for connection %s took too long to shut down and was killed.",
                           application, repr(protocol))
            application.cancel()
        if application is not None and application.done():
            self._report(protocol, application, disconnected)
            del details["application_instance"]
            application = None
        if application is None and disconnected:
            del self.connections[protocol]

    def _report(self, protocol, application: asyncio.Future, disconnected: float | None) -> None:
        """Log how a finished application ended, if it raised."""
        try:
            exception = application.exception()
        except (CancelledError, asyncio.CancelledError):
            return
        if exception is None:
            return
        if isinstance(exception, KeyboardInterrupt):  # the protocol asks the server to exit (tests)
            self.stop()
            return
        logger.error("Exception inside application: %s", exception, exc_info=exception)
        if not disconnected:
            protocol.handle_exception(exception)

    @staticmethod
    def _check_timeouts(protocol) -> None:
        protocol.check_timeouts()


class CommandLineInterface(daphne_cli.CommandLineInterface):
    """daphne's command line, serving with :class:`Server`."""

    server_class = Server


if __name__ == "__main__":
    CommandLineInterface.entrypoint()

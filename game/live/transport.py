"""What every socket of the site shares, whatever it carries (the game's, :mod:`game.live.consumer`;
the lobbies', :mod:`game.site.lobby_consumer`): the socket's language, the checks of a message's
shape before it is read (depth, lone surrogates), a dispatch without Channels' idle database hop,
and the guard that keeps a socket open and the log short whatever a handler raises.
"""

from __future__ import annotations

import json
import logging
from http.cookies import SimpleCookie
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from django.conf import settings
from django.utils import translation

from game.rules.base import lang_key

from . import errors

log = logging.getLogger("game.live.consumer")  # the name operators' log lines have always had


def socket_language(scope) -> str:
    """``?lang=`` of the socket URL, else the language cookie, else English."""
    qs = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
    lang = (qs.get("lang") or [""])[0]
    if not lang:
        for name, value in scope.get("headers", []):
            if name == b"cookie":
                cookie = SimpleCookie()
                try:
                    cookie.load(value.decode("latin-1"))
                except Exception:
                    continue
                morsel = cookie.get(settings.LANGUAGE_COOKIE_NAME)
                if morsel:
                    lang = morsel.value
    return lang_key(lang)


def query_flag(scope, name: str) -> bool:
    """Whether the socket URL's query has ``<name>=1``."""
    qs = parse_qs((scope.get("query_string") or b"").decode("latin-1"))
    return (qs.get(name) or [""])[0] == "1"


def nested_deeper(text: str, msg, limit: int) -> bool:
    """Whether the decoded message ``msg`` (of JSON ``text``) nests objects and lists more than
    ``limit`` deep (``{}`` is 1 deep). A loop, not a recursion; and only a text with more than
    ``limit`` brackets is walked at all."""
    if text.count("[") + text.count("{") <= limit:
        return False
    todo = [(msg, 1)]
    while todo:
        node, depth = todo.pop()
        if depth > limit:
            return True
        for child in node.values() if isinstance(node, dict) else node:
            if isinstance(child, (dict, list)):
                todo.append((child, depth + 1))
    return False


def valid_unicode(text: str, msg) -> bool:
    """False when the JSON escapes of ``text`` decode to lone surrogates (``"\\ud800"``): such
    strings cannot be stored (SQLite, PostgreSQL) nor sent back as UTF-8 (an error echoing them)."""
    if "\\u" not in text:
        return True
    try:
        json.dumps(msg, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class NoIdleDbHop:
    """A consumer mixin: dispatch a message straight to its handler.

    Channels' own ``dispatch`` first awaits ``aclose_old_connections()``, a hop to the single
    database worker thread, for every message of every consumer: 26 hops queued behind each other
    for one game push to 26 sockets. A consumer that touches the database only through
    ``database_sync_to_async`` (which closes old connections before and after each call, in the
    thread that owns them) does not need it.
    """

    async def dispatch(self, message) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


def _one_line(text: str, limit: int = 200) -> str:
    """``text`` escaped as in a Python repr (no line breaks), cut to ``limit`` characters."""
    text = repr(text)[1:-1]
    return text if len(text) <= limit else text[:limit] + "..."


def log_failure(consumer, what: str, exc: BaseException, note: str = "") -> None:
    """One ERROR line for an unexpected exception in a consumer, with no traceback: the socket's
    path and user id, ``what`` it was handling (a message type), the exception's type and message
    (escaped, at most 200 characters), where it was raised (the innermost frame's file, line and
    function) and ``note``. (A RecursionError's traceback alone is ~100 KiB of log.)"""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    where = "?"
    if tb is not None:
        code = tb.tb_frame.f_code
        where = f"{'/'.join(code.co_filename.split('/')[-3:])}:{tb.tb_lineno} in {code.co_name}"
    try:
        message = str(exc)
    except Exception:
        message = "<unprintable>"
    scope = getattr(consumer, "scope", None) or {}
    try:
        user = scope.get("user")
        uid = user.pk if user is not None and user.is_authenticated else None
    except Exception:  # a scope user not resolved yet
        uid = None
    log.error(
        "%s %s (user %s): %s failed: %s: %s (at %s)%s",
        type(consumer).__name__, _one_line(str(scope.get("path", "?")), 80), uid, _one_line(what, 40),
        type(exc).__name__, _one_line(message), where, note, exc_info=False,
    )


class Guarded:
    """A consumer mixin: no exception of the server's own ends a socket, floods the log or leaves
    the consumer behind.

    * An exception that a handler did not expect (a bug, a database that is down) is answered
      with the code ``server.error`` (:meth:`answer_failure`) and logged in one ERROR line
      (:func:`log_failure`), and the socket stays open. A failed ``websocket.connect`` closes
      the socket with code 4500 (the browser retries); a failed ``websocket.disconnect`` still
      stops the consumer; a failed group message is only logged.
    * :meth:`release` (leave the hub or the groups) runs once: as soon as the browser's
      disconnect arrives, and otherwise in a ``finally`` when the consumer ends, however it ends
      (a failure that escapes: the channel layer's receive, cancellation), so the process keeps
      no dead consumer. (Leaving does not belong in ``disconnect``, which a consumer that dies
      never reaches.)

    Channels' ``StopConsumer`` passes through. A consumer handles a message it has read through
    :meth:`guarded` to answer a failure with that message's ``id``.
    """

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._release_once()

    async def _release_once(self) -> None:
        if getattr(self, "_released", False):
            return
        self._released = True
        try:
            await self.release()
        except Exception as exc:
            log_failure(self, "release", exc)

    async def dispatch(self, message) -> None:
        if message.get("type") == "websocket.disconnect":
            await self._release_once()
        try:
            await super().dispatch(message)
        except StopConsumer:
            raise
        except Exception as exc:
            kind = message.get("type", "?")
            if kind == "websocket.disconnect":
                log_failure(self, kind, exc)
                raise StopConsumer() from None
            if kind == "websocket.connect":
                await self.failed(kind, exc, self.close(code=4500))
            elif kind == "websocket.receive":
                await self.failed(kind, exc, self.answer_failure(None, None))
            else:
                await self.failed(kind, exc)

    async def guarded(self, kind: str, request_id, handler, *args) -> None:
        """``await handler(*args)``: the handling of a message of type ``kind`` that was read, so a
        failure is answered with its ``request_id``."""
        try:
            await handler(*args)
        except Exception as exc:
            await self.failed(kind, exc, self.answer_failure(kind, request_id))

    async def failed(self, what: str, exc: Exception, answer=None) -> None:
        """Await ``answer`` (a coroutine telling the browser, or None), then log ``exc`` in one line."""
        note = ""
        if answer is not None:
            try:
                await answer
            except Exception as again:
                note = f"; the answer failed too: {type(again).__name__}"
        log_failure(self, what, exc, note)

    async def answer_failure(self, kind: str | None, request_id) -> None:
        """Tell the browser that its message of type ``kind`` (None: not read yet) failed: an
        ``error`` with the code ``server.error`` echoing ``request_id``."""
        with translation.override(self.failure_language()):
            err = errors.translate("server.error")
        await self.send(text_data=json.dumps({"type": "error", "id": request_id, "error": err}, ensure_ascii=False))

    def failure_language(self) -> str:
        return getattr(self, "lang", None) or socket_language(getattr(self, "scope", None) or {})

    async def release(self) -> None:
        """Leave what the consumer joined (the hub, channel-layer groups)."""

"""Compact JSON text for what live play sends: payloads, their shared parts, log lines, seats.

Encoding JSON is a large part of rendering a version for its viewers (half of it with the
standard library's encoder, for a 6-player game in its middle: ``docs/architecture.md``,
Capacity, fourth round), so it is done by orjson, a maintained C encoder, here in one place.

:func:`dumps` gives the same text as ``json.dumps(obj, separators=(",", ":"),
ensure_ascii=False)`` for what the site sends (dicts with string or integer keys, lists,
tuples, strings, integers, booleans, None): characters beyond ASCII as they are, control
characters escaped, keys in insertion order. What orjson does not take (an integer beyond 64
bits, a string with a lone surrogate) goes to the standard library's encoder instead, so
nothing that encoded before fails now; a float may be written in another, equal notation
(``1e-07`` as ``1e-7``).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # integer keys become strings, as json.dumps makes them


def dumps(obj: Any) -> str:
    """``obj`` as compact JSON text (see the module's docstring). Raises TypeError for what JSON
    cannot hold (a set, an object), as ``json.dumps`` does."""
    try:
        return orjson.dumps(obj, option=_OPTIONS).decode("utf-8")
    except orjson.JSONEncodeError:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)

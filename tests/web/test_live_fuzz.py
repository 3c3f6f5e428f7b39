"""Fuzzing the live game's websocket (/ws/game/<id>/) through the real ASGI stack, on a game of
each ruleset (AGoT with three players, The Duke with two).

The players, a logged-in spectator and an anonymous visitor send a seeded stream of random and
malformed messages (garbage text, binary frames, deep nesting, huge strings, unknown types, odd
ids, actions with random fields, mutated legal actions, legal actions of other houses, stale,
future and ill-typed versions, chat abuse), mixed with a few legal actions so the game moves on.
The stream begins with the frames that once crashed the server (:func:`known_frames`, the act of
the message that once crashed a socket among them). Hostile values (:func:`hostile`, raw JSON text) go everywhere a value may go (the action, a field
of a legal action, an unknown key, the id, the version, the chat fields, the type): every JSON
type, nesting up to 10,000 deep, numbers of 5,000 digits, NaN and infinities, strings of every
Unicode plane, NUL, right-to-left marks and lone surrogates as JSON escapes.

A model built from the pure engine (``RULESET.apply`` / ``pending``) and the rules written in
docs/protocol.md predicts every answer: its type, its ``id``, and for a refusal its exact code.
Checked for every message:

* the server never fails or closes the socket; every frame it sends is valid UTF-8 JSON with a
  documented ``type``;
* every refusal carries a code documented in docs/protocol.md or docs/scenarios.md;
* the game's version and its Action log change only by the actions the engine accepts, and each
  accepted action is stored as sent;
* ``state`` pushes only grow in version, carry only the viewer's own options, and chat lines
  reach exactly the sockets that may read them;
* nothing is logged at ERROR (no exception, no traceback) and no socket is closed or its consumer
  dead;
* afterwards every connection still answers a ping, a legal action still works, and once the
  sockets close the hub holds as many members as before they connected.

``GOTWEB_FUZZ_SEED`` / ``GOTWEB_FUZZ_GAME_SEED`` / ``GOTWEB_FUZZ_MESSAGES`` change the stream's
and the game's seeds (default fixed) and the length (default 2000 per ruleset, about 10 s of CPU
each on this machine; a long local run also wants pytest's ``--timeout=0``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import re
import unicodedata
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async

from .live_helpers import connect, start_game

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("GOTWEB_FUZZ_SEED", "20261123"))
MESSAGES = int(os.environ.get("GOTWEB_FUZZ_MESSAGES", "2000"))
#: the fuzzed game's own seed (``Game.seed``)
GAME_SEED = int(os.environ.get("GOTWEB_FUZZ_GAME_SEED", "1123"))
HOSTILE = 0.15  # the share of messages with a hostile value (hostile_message)
MAX_MESSAGE = 16384
SERVER_TYPES = {"state", "result", "chat", "error", "pong", "seats"}
VOTE_KINDS = ("pause", "extend", "end", "replace", "swap")  # game.live.table.KINDS


def documented_codes() -> set[str]:
    """Error codes named in docs/protocol.md ("Error codes") and in the tables "Error codes" of
    docs/scenarios.md (AGoT) and docs/duke.md (The Duke)."""
    proto = (ROOT / "docs" / "protocol.md").read_text()
    live = proto.split("## Error codes", 1)[1].split("\n## ", 1)[0]
    codes = set(re.findall(r"`([a-z_]+(?:\.[a-z_]+)?)`", live))
    for doc in ("scenarios.md", "duke.md"):
        table = (ROOT / "docs" / doc).read_text().split("## Error codes", 1)[1].split("\n## ", 1)[0]
        for line in table.splitlines():
            if line.startswith("| `"):
                codes |= set(re.findall(r"`([a-z_]+\.[a-z_]+)`", line.split("|")[1]))
    return codes


@pytest.fixture(autouse=True)
def _live_settings(live_settings):
    settings = live_settings
    settings.GAME_SNAPSHOT_EVERY = 7  # exercise snapshots too
    # players and the spectator are not rate limited here; the anonymous visitor is (see below)
    settings.LIVE_RATE, settings.LIVE_BURST = 1e6, 1e6
    settings.LIVE_CHAT_RATE, settings.LIVE_CHAT_BURST = 1e6, 1e6


# --- the model --------------------------------------------------------------------------------
def _valid_unicode(value) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        return True
    except (UnicodeEncodeError, ValueError):
        return False


#: docs/protocol.md: a message nested deeper is ``message.malformed``; an action deeper, or holding
#: more values, is ``action.malformed``
LIVE_MAX_DEPTH, ACTION_MAX_DEPTH, ACTION_MAX_VALUES = 32, 16, 2048


def depth_and_values(value) -> tuple[int, int]:
    """How deep ``value`` nests objects and lists (``{}`` is 1, a scalar 0) and how many values
    its objects and lists hold in all."""
    deepest, values, todo = 0, 0, [(value, 1)]
    while todo:
        node, depth = todo.pop()
        if not isinstance(node, (dict, list)):
            continue
        deepest, values = max(deepest, depth), values + len(node)
        todo.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest, values


def clean_chat(text: str) -> str:
    return "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) != "Cc").strip()


class Model:
    """What the server must answer, from the pure engine and docs/protocol.md."""

    def __init__(self, rules, state, seats: list[str]) -> None:
        self.rules, self.states, self.seats = rules, [state], seats
        self.accepted: list[tuple[str, dict]] = []
        self._last_act: tuple | None = None

    @property
    def version(self) -> int:
        return len(self.states) - 1

    @property
    def state(self):
        return self.states[-1]

    def decisions(self, state, seat):
        return [d.as_dict() for d in self.rules.pending(state) if d.actor == seat]

    def act(self, seat, msg) -> tuple[str | None, object]:
        """``(refusal code, None)`` or ``(None, new state)`` (the last answer is remembered: the
        fuzzer asks before sending, :meth:`expect` again after)."""
        key = (seat, self.version, json.dumps(msg, sort_keys=True))
        if self._last_act is not None and self._last_act[0] == key:
            return self._last_act[1]
        answer = self._act(seat, msg)
        self._last_act = (key, answer)
        return answer

    def _act(self, seat, msg) -> tuple[str | None, object]:
        from game.rules import IllegalAction

        if seat is None:
            return "act.spectator", None
        v = msg.get("version")
        if v is not None and type(v) is not int:
            return "message.malformed", None
        if self.rules.result(self.state) is not None:
            return "game.over", None
        now = self.version
        if v is not None and v != now:
            # protocol.md "Stale versions": ahead, more than 50 behind, or behind with decisions
            # that changed since (at any version from v on: changed and changed back counts)
            if v > now or v < now - 50 or v < 0:
                return "version.stale", None
            current = self.decisions(self.state, seat)
            if any(self.decisions(self.states[u], seat) != current for u in range(v, now)):
                return "version.stale", None
        action = msg.get("action")
        depth, values = depth_and_values(action)
        if isinstance(action, dict) and (depth > ACTION_MAX_DEPTH or values > ACTION_MAX_VALUES):
            return "action.malformed", None
        try:
            return None, self.rules.apply(self.state, seat, self.rules.parse_action(action))
        except IllegalAction as exc:
            return exc.code, None

    def chat(self, seat, logged_in: bool, msg) -> tuple[str | None, str | None]:
        """``(refusal code, None)`` or ``(None, channel)``."""
        text, channel, to = msg.get("text"), msg.get("channel"), msg.get("to")
        if not isinstance(text, str) or not clean_chat(text):
            return "chat.empty", None
        if len(clean_chat(text)) > 500:
            return "chat.too_long", None
        if not logged_in:
            return "chat.bad_channel", None
        if channel == "public" and seat is not None:
            return None, "public"
        if channel == "spectators" and seat is None:
            return None, "spectators"
        if channel == "private" and seat is not None and isinstance(to, str) and to != seat and to in self.seats:
            return None, "private:" + ":".join(sorted((seat, to)))
        return "chat.bad_channel", None

    def expect(self, seat, logged_in: bool, frame) -> dict:
        """The direct answer to ``frame`` (text or bytes): ``{"type", "id", "code", ...}``."""
        if isinstance(frame, bytes):
            return {"type": "error", "id": None, "code": "message.malformed"}
        if len(frame) > MAX_MESSAGE:
            return {"type": "error", "id": None, "code": "message.too_large"}
        try:
            msg = json.loads(frame)
        except (ValueError, RecursionError):
            return {"type": "error", "id": None, "code": "message.malformed"}
        if (
            not isinstance(msg, dict)
            or not isinstance(msg.get("type"), str)
            or depth_and_values(msg)[0] > LIVE_MAX_DEPTH
            or not _valid_unicode(msg)
        ):
            return {"type": "error", "id": None, "code": "message.malformed"}
        rid = msg.get("id")
        if not isinstance(rid, (int, str)) or isinstance(rid, bool):
            rid = None
        kind = msg["type"]
        if kind == "sync":
            return {"type": "state", "id": None}
        if kind == "ping":
            return {"type": "pong", "id": rid}
        if kind == "act":
            code, new = self.act(seat, msg)
            return {"type": "result", "id": rid, "code": code, "new": new, "msg": msg}
        if kind == "chat":
            code, channel = self.chat(seat, logged_in, msg)
            return {"type": "result", "id": rid, "code": code, "channel": channel, "msg": msg}
        if kind in ("stand_in", "take_back"):
            return {"type": "result", "id": rid, "code": self.stand_in(seat, kind, msg)}
        if kind in ("propose", "vote", "resume"):
            return {"type": "result", "id": rid, "code": self.table(seat, kind, msg)}
        if kind in ("hide", "unhide"):  # never a real line or block (see Stream.message)
            return {"type": "result", "id": rid, "code": "chat.hide_login" if not logged_in else "chat.no_line" if kind == "hide" else "chat.not_hidden"}
        return {"type": "error", "id": rid, "code": "message.unknown_type"}

    def table(self, seat, kind: str, msg) -> str:
        """The refusal of the table's messages (protocol.md "The table's votes"): the fuzz never
        asks for a vote of a real kind, so no vote is ever open and no pause in force."""
        if seat is None:
            return "vote.not_a_player"
        over = self.rules.result(self.state) is not None
        if kind == "propose":
            return "vote.bad_kind" if msg.get("kind") not in VOTE_KINDS else "game.over" if over else "?"
        if kind == "vote" and not isinstance(msg.get("yes"), bool):
            return "vote.bad_value"
        if over:
            return "game.over"
        return "vote.gone" if kind == "vote" else "vote.not_paused"

    def stand_in(self, seat, kind: str, msg) -> str:
        """The refusal of a ``stand_in`` or ``take_back`` (protocol.md "Stand-in bots"): the fuzz
        runs for less than ``GAME_AWAY_AFTER`` (180 s), so no seat may be handed to a bot yet."""
        if kind == "take_back":
            if self.rules.result(self.state) is not None:
                return "game.over"  # nothing to take back once the game is over
            return "stand_in.not_a_player" if seat is None else "stand_in.none"
        target = msg.get("seat")
        if self.rules.result(self.state) is not None:
            return "game.over"
        if seat is None:
            return "stand_in.not_a_player"
        if not isinstance(target, str) or target not in self.seats:
            return "stand_in.bad_seat"
        return "stand_in.self" if target == seat else "stand_in.not_away"


# --- random messages --------------------------------------------------------------------------
WEIRD_STRINGS = [
    "", " ", "\n", "\x00", "\t\t", "\u200b", "\u202e", "<script>alert(1)</script>", "' OR 1=1 --",
    "../../etc/passwd", "%s%s%n", "{{7*7}}", "null", "NaN", "权力的游戏", "🐺🦁🦌", "\ufeff", "\U0010ffff",
]


def rand_string(rnd: random.Random, n: int | None = None) -> str:
    n = rnd.choice([0, 1, 3, 8, 20, 60]) if n is None else n
    if rnd.random() < 0.3:
        return rnd.choice(WEIRD_STRINGS)
    alphabet = "abcdefghijklmnopqrstuvwxyz-_.:/ 0123456789ÄéЖ中文\u0301\x01\x1f\x7f\n"
    return "".join(rnd.choice(alphabet) for _ in range(n))


def rand_json(rnd: random.Random, depth: int = 3):
    r = rnd.random()
    if depth <= 0 or r < 0.45:
        return rnd.choice(
            [
                None, True, False, 0, -1, 1, 7, 2**31, -(2**63), 10**30, 0.5, -0.0, 1e308,
                rand_string(rnd), rnd.randint(-5, 60),
            ]
        )
    if r < 0.7:
        return [rand_json(rnd, depth - 1) for _ in range(rnd.randint(0, 4))]
    return {rand_string(rnd, rnd.randint(0, 8)): rand_json(rnd, depth - 1) for _ in range(rnd.randint(0, 4))}


AGOT_ACTION_TYPES = [
    "place_orders", "raven", "raven_keep", "raid", "march", "support", "consolidate", "muster",
    "reconcile", "bid", "order_ties", "choose", "select_units", "select_card",
]
UNITS = ["footman", "knight", "ship", "siege_engine", "dragon", ""]
OPTIONS = ["replace", "peek", "pass", "attacker", "defender", "none", "yes", "no", "0", "1"]
AGOT_ACTION_KEYS = ["orders", "choice", "area", "token", "bottom", "target", "moves", "leave_power", "give",
                    "muster", "recruits", "remove", "amount", "order", "option", "units", "card", "to", "unit"]
DUKE_ACTION_TYPES = ["setup", "move", "strike", "command", "draw", "place", "summon", "divine", "divine_choose"]
DUKE_ACTION_KEYS = ["duke", "footmen", "frm", "to", "dragon_facing", "target", "piece", "square", "keep", "destroy"]


# --- hostile values (raw JSON text) -------------------------------------------------------------
#: nesting depths: around the action's bound (16) and the message's (32), around the parser's
#: recursion limit (~1000: deeper is a RecursionError, caught), and past the message size
DEPTHS = [1, 2, 15, 16, 17, 30, 31, 32, 33, 100, 400, 500, 600, 900, 999, 1000, 1001, 5000, 8191, 10_000]
#: Python reads at most 4300 digits of an integer (more: ValueError, so message.malformed); a
#: float of any length is read (1e999 is infinity)
HUGE_NUMBERS = [
    "1" * 5000, "-" + "9" * 5000, "7" * 4300, "-" + "7" * 4300, "1" * 4301, "1" * 5000 + ".5",
    "0." + "0" * 4998 + "1", "1" + "0" * 4999 + "e-4999", "1e999", "-1e999", "1e-999", "NaN", "Infinity",
    "-Infinity", "-0", "0e0", "-0.0", str(2**63), str(-(2**63) - 1), str(2**64), "1" * 20,
]
#: lone surrogates (and a valid pair) as JSON escapes; NUL and direction marks
ESCAPES = ['"\\ud800"', '"\\udfff"', '"a\\ud83d"', '"\\ude00\\ud83d"', '"\\ud800\\u0000"', '"x\\udbff\\udfffy"',
           '"\\u0000"', '"a\\u0000b"', '"\\u202e\\u200f"', '"\\u2066x\\u2069"', '"\\ufeff"', '"\\uffff"']
SPECIALS = ["", "\x00", "\u200f", "\u202e", "\u2066", "\u061c", "\ufeff", "\ufffe", "\uffff", "\U0010ffff", "\u0301", "\u200d"]


def plane_string(rnd: random.Random) -> str:
    """A JSON string (raw text) of characters of one Unicode plane (0-16), maybe with a NUL, a
    direction mark or a noncharacter; raw or as escapes. (Surrogate code points cannot travel
    as UTF-8; they come as escapes, :data:`ESCAPES`.)"""
    plane = rnd.randrange(17)
    chars = []
    for _ in range(rnd.randint(1, 12)):
        cp = plane * 0x10000 + rnd.randrange(0x10000)
        chars.append(chr(cp - 0x800 if 0xD800 <= cp < 0xE000 else cp))
    return json.dumps("".join(chars) + rnd.choice(SPECIALS), ensure_ascii=rnd.random() < 0.3)


def hostile_scalar(rnd: random.Random) -> str:
    r = rnd.random()
    if r < 0.3:
        return rnd.choice(HUGE_NUMBERS)
    if r < 0.6:
        return plane_string(rnd)
    if r < 0.8:
        return rnd.choice(ESCAPES)
    return rnd.choice(["null", "true", "false", "0", "-1", "0.5", "[]", "{}", '""', '"x"', '"place_orders"', '"move"'])


def weird_key(rnd: random.Random) -> str:
    return rnd.choice(['""', '"__proto__"', '"constructor"', '"type"', '"x"' , '"' + "k" * 3000 + '"',
                       plane_string(rnd), rnd.choice(ESCAPES)])


def hostile(rnd: random.Random, nested: float = 0.4) -> str:
    """Raw JSON text of a hostile value: lists, objects or both nested to a depth of
    :data:`DEPTHS` (with probability ``nested``), an object of odd keys, or a scalar
    (:func:`hostile_scalar`)."""
    r = rnd.random()
    if r < nested:
        depth, kind = rnd.choice(DEPTHS), rnd.choice(["list", "object", "mixed"])
        opens = ["[" if kind == "list" or (kind == "mixed" and i % 2) else '{"k":' for i in range(depth)]
        closes = ["]" if o == "[" else "}" for o in reversed(opens)]
        return "".join(opens) + hostile_scalar(rnd) + "".join(closes)
    if r < nested + 0.15:
        return "{" + ", ".join(f"{weird_key(rnd)}: {hostile_scalar(rnd)}" for _ in range(rnd.randint(1, 3))) + "}"
    return hostile_scalar(rnd)


def known_frames(version: int) -> list[str]:
    """Frames that once crashed the server, sent by every socket before the random stream: the
    act that once crashed a socket (its action a list nested 500 deep: RecursionError, socket closed 1011),
    the same as objects, 10,000 deep, and numbers of 5,000 digits."""
    head = f'{{"type": "act", "id": "known", "version": {version}, "action": '
    return [
        head + "[" * 500 + "]" * 500 + "}",
        head + "[" * 900 + "1" + "]" * 900 + "}",
        head + '{"type": "bid", "amount": ' + "[" * 600 + "]" * 600 + "}}",
        head + '{"k":' * 500 + "1" + "}" * 500 + "}",
        head + "[" * 10_000 + "]" * 10_000 + "}",
        head + "1" * 5000 + "}",
        head + '{"type": "bid", "amount": ' + "7" * 4300 + "}}",
        '{"type": "ping", "id": ' + "1" * 4300 + "}",
    ]


def with_member(obj: dict, key: str, raw: str) -> str:
    """The JSON text of ``obj`` with one more member ``key`` (JSON text) whose value is ``raw``
    (later members win when the key is repeated, as with Python's and browsers' parsers)."""
    text = json.dumps(obj)
    return text[:-1] + (", " if len(text) > 2 else "") + f"{key}: {raw}" + "}"


class Fuzzer:
    """Random messages for a game of the model's ruleset (AGoT or The Duke), in its own words."""

    def __init__(self, rnd: random.Random, model: Model) -> None:
        self.rnd, self.model = rnd, model
        self.ruleset = model.rules.id
        if self.ruleset == "duke":
            from game.rules.duke import board as B

            self.areas = [B.name(sq) for sq in B.SQUARES]  # squares
            self.tokens = ["n", "s", "Footman", "duke"]
            self.houses = list(model.seats) + ["stark", "Light"]
            self.action_types, self.action_keys, self.pools = DUKE_ACTION_TYPES, DUKE_ACTION_KEYS, [self.areas, self.tokens]
        else:
            from game.rules.agot.data import board

            b = board()
            self.areas, self.tokens, self.houses = list(b.areas), list(b.order_tokens), list(b.houses)
            self.action_types, self.action_keys = AGOT_ACTION_TYPES, AGOT_ACTION_KEYS
            self.pools = [self.areas, self.tokens, self.houses, UNITS, OPTIONS]

    def legal(self, seat: str | None):
        """A legal JSON action answering ``seat``'s pending decision (None if it has none); one
        that does not end the game when there is one, so the stream goes on reaching the rules
        (a random game of The Duke is soon over otherwise)."""
        from game.live import bot_choice

        m = self.model
        d = next((d for d in m.rules.pending(m.state) if seat is None or d.actor == seat), None)
        if d is None:
            return None
        rnd = random.Random(self.rnd.random())
        if self.ruleset == "duke":  # its decisions list every legal action
            candidates = rnd.sample(d.options["actions"], len(d.options["actions"]))
        else:
            from game.rules.agot.legal import random_action

            candidates = (bot_choice.action_to_json(m.rules, random_action(m.state, d, rnd)) for _ in range(5))
        for action in candidates:
            if m.rules.result(m.rules.apply(m.state, d.actor, m.rules.parse_action(action))) is None:
                break
        return dict(action)

    def random_action(self):
        rnd = self.rnd
        a = {"type": rnd.choice(self.action_types + ["", "PLACE_ORDERS", "resign", "win"])}
        for _ in range(rnd.randint(0, 4)):
            key = rnd.choice(self.action_keys)
            a[key] = rnd.choice(
                [
                    rand_json(rnd, 2), rnd.choice(self.areas), rnd.choice(self.tokens), rnd.choice(self.houses),
                    {rnd.choice(self.areas): rnd.choice(self.tokens) for _ in range(rnd.randint(0, 6))},
                    [{"to": rnd.choice(self.areas), "units": ["footman"]}],
                    [{"area": rnd.choice(self.areas), "unit": rnd.choice(["footman", "knight", "ship", "dragon"])}],
                    [rnd.choice(self.areas), rnd.choice(self.areas)], rnd.randint(-1, 3),
                ]
            )
        return a

    def perturb(self, v, p: float = 0.3):
        """``v`` with some leaves swapped for other values of the same type (areas, tokens...)."""
        rnd = self.rnd
        if isinstance(v, bool):
            return (not v) if rnd.random() < p else v
        if isinstance(v, int):
            return rnd.choice([v + 1, v - 1, -1, 0, 99]) if rnd.random() < p else v
        if isinstance(v, str):
            pool = rnd.choice(self.pools)
            return rnd.choice(pool) if rnd.random() < p else v
        if isinstance(v, list):
            out = [self.perturb(x, p) for x in v]
            if out and rnd.random() < p / 2:
                out.pop(rnd.randrange(len(out)))
            if out and rnd.random() < p / 2:
                out.append(rnd.choice(out))
            return out
        if isinstance(v, dict):
            return {(k if k == "type" or rnd.random() > p / 2 else self.perturb(k, 1)): (val if k == "type" else self.perturb(val, p))
                    for k, val in v.items()}
        return v

    def mutate(self, action: dict) -> dict:
        rnd = self.rnd
        if rnd.random() < 0.6:
            return self.perturb(action)
        a = json.loads(json.dumps(action))
        for _ in range(rnd.randint(1, 3)):
            op = rnd.randrange(6)
            keys = [k for k in a if k != "type"]
            if op == 0 and keys:
                del a[rnd.choice(keys)]
            elif op == 1:
                a[rnd.choice(self.action_keys + ["extra", "__proto__"])] = rand_json(rnd, 2)
            elif op == 2 and keys:
                a[rnd.choice(keys)] = rand_json(rnd, 2)
            elif op == 3 and isinstance(a.get("orders"), dict) and a["orders"]:
                area = rnd.choice(list(a["orders"]))
                a["orders"][area] = rnd.choice(self.tokens + ["", "march", "crown", None, 3])
                if rnd.random() < 0.5:
                    a["orders"][rnd.choice(self.areas)] = rnd.choice(self.tokens)
            elif op == 4:
                a["type"] = rnd.choice(self.action_types + [None, 1, ["place_orders"]])
            else:
                a = {"type": a.get("type"), **{k: v for k, v in a.items() if k != "type"}}  # same, reordered
        return a

    def version(self):
        now = self.model.version
        if self.rnd.random() < 0.5:
            return now
        return self.rnd.choice([now, now, None, now + 1, now + 1000, now - 1, now - 2, now - 51, 0, -1, -(10**6),
                                10**40, True, False, 1.0, float(now), "0", str(now), [now], {"v": now}])

    def chat(self):
        rnd = self.rnd
        msg = {"type": "chat", "id": rnd.randint(0, 10**6)}
        r = rnd.random()
        msg["channel"] = (
            "public" if r < 0.35 else "private" if r < 0.6 else "spectators" if r < 0.75
            else rnd.choice(["", "PUBLIC", "private:stark:lannister", "admin", None, 3, ["public"]])
        )
        if rnd.random() < 0.8:
            msg["to"] = rnd.choice(self.houses + [None, "", "nobody", 1, ["stark"]])
        t = rnd.random()
        if t < 0.4:
            msg["text"] = rand_string(rnd)
        elif t < 0.5:
            msg["text"] = rnd.choice(["x" * 500, "y" * 501, " " * 600 + "z", "\x01" * 50, "\x01 hi \x02", "  \n ", "a\x00b"])
        elif t < 0.6:
            msg["text"] = rand_json(rnd, 2)
        elif t < 0.65:
            pass  # no text at all
        else:
            msg["text"] = rnd.choice(WEIRD_STRINGS) + rand_string(rnd)
        return msg

    def hostile_message(self, seat: str | None) -> str:
        """A message with a hostile value (:func:`hostile`) where a value may go."""
        rnd = self.rnd
        raw, rid, now = hostile(rnd), rnd.randint(0, 10**6), self.model.version
        r = rnd.random()
        if r < 0.4:  # the action itself: often nested (the crash once found: a list 500 deep)
            return with_member({"type": "act", "id": rid, "version": now}, '"action"', hostile(rnd, nested=0.7))
        if r < 0.6:  # a field of a legal action, or an unknown key in it
            action = self.legal(seat) or self.legal(None) or self.random_action()
            key = rnd.choice([k for k in action if k != "type"] + ["x", "__proto__", ""])
            text = with_member({k: v for k, v in action.items() if k != key}, json.dumps(key), raw)
            return with_member({"type": "act", "id": rid, "version": now}, '"action"', text)
        if r < 0.7:  # the id or the version
            msg = {"type": rnd.choice(["act", "ping", "sync", "act"]), "action": self.legal(seat) or {"type": "draw"}}
            return with_member(msg, rnd.choice(['"id"', '"version"']), raw)
        if r < 0.73:  # the seat of a stand-in
            return with_member({"type": "stand_in", "id": rid}, '"seat"', raw)
        if r < 0.75:  # a vote's kind or ballot (a real kind is a well-formed string: never hostile's)
            msg = rnd.choice([{"type": "propose", "id": rid}, {"type": "vote", "id": rid, "vote": 1}])
            return with_member(msg, '"kind"' if msg["type"] == "propose" else '"yes"', raw)
        if r < 0.85:  # a chat field
            msg = {"type": "chat", "id": rid, "channel": "public", "to": rnd.choice(self.model.seats), "text": "hi"}
            key = rnd.choice(["channel", "to", "text", "text"])
            del msg[key]
            return with_member(msg, json.dumps(key), raw)
        if r < 0.92:  # the type
            return with_member({"id": rid}, '"type"', raw)
        # unknown keys beside a readable message
        return with_member({"type": rnd.choice(["ping", "act", "sync"]), "id": rid}, weird_key(rnd), raw)

    def message(self, seat: str | None):
        """A frame: ``str`` (text) or ``bytes`` (binary)."""
        rnd = self.rnd
        if rnd.random() < HOSTILE:
            return self.hostile_message(seat)
        r = rnd.random()
        if r < 0.02:
            return rnd.choice([b"", b"\x00\x01", b'{"type": "ping", "id": 1}', os.urandom(rnd.randint(1, 64))])
        if r < 0.09:
            n = rnd.choice([2, 50, 900, 5000, 8000])
            return rnd.choice(
                [
                    "", "{not json", "null", "1", '"act"', "[]", "{}", "true", "[1, 2]", '{"type": "ping"',
                    '{"type": NaN}', '{"type": "ping", "id": NaN}', '{"type": "ping", "id": Infinity}',
                    '{"type": "ping", "id": 1' + "0" * 5000 + "}", "[" * n + "]" * n, '{"a":' * n + "1" + "}" * n,
                    '{"type": "\\ud800"}', '{"type": "chat", "channel": "public", "text": "\\udfff oops", "id": 4}',
                    '{"type": "ping", "id": "\\ud83d\\ude00"}', '{"type": "ping", "id": "\\ude00\\ud83d"}',
                    '{"type": "act", "action": {"type": "bid", "amount": 1}, "version": 0, "version": "x"}',
                    rand_string(rnd, 40),
                ]
            )
        if r < 0.12:
            pad = rnd.choice([MAX_MESSAGE, MAX_MESSAGE + 1, 3 * MAX_MESSAGE, 1_000_000])
            base = json.dumps({"type": rnd.choice(["chat", "act", "ping"]), "channel": "public", "text": ""})
            text = base[:-2] + "x" * max(0, pad - len(base)) + '"}'
            return text[:pad] if rnd.random() < 0.2 else text
        if r < 0.17:
            msg = {"id": rnd.randint(0, 99)}
            if rnd.random() < 0.7:
                msg["type"] = rnd.choice([None, 1, ["act"], {"type": "act"}, True, 2.5])
            return json.dumps(msg)
        if r < 0.24:
            kind = rnd.choice(["ACT", "act ", "", "pong", "state", "result", "error", "game.changed", "game_changed",
                               "websocket.disconnect", "__init__", "x" * 300, rand_string(rnd)])
            return json.dumps({"type": kind, "id": rand_json(rnd, 1)})
        if r < 0.29:
            return json.dumps({"type": "ping", "id": rand_json(rnd, 2)})
        if r < 0.32:
            return json.dumps({"type": "sync", "id": rand_json(rnd, 1)})
        if r < 0.335:  # the table's votes, never of a real kind (see Model.table)
            kind = rnd.choice([rand_json(rnd, 1), "PAUSE", "pause ", "kick", "", "end\u0000", rand_string(rnd)])
            if kind in VOTE_KINDS:
                kind = "pause?"
            return json.dumps(rnd.choice([
                {"type": "propose", "id": rnd.randint(0, 99), "kind": kind, "seat": rand_json(rnd, 1), "minutes": rand_json(rnd, 1)},
                {"type": "vote", "id": rnd.randint(0, 99), "vote": rand_json(rnd, 1), "yes": rnd.choice([True, False, rand_json(rnd, 1)])},
                {"type": "resume", "id": "r"},
            ]))
        if r < 0.338:  # hiding a chat author: never a line or block that exists
            nothing = rnd.choice([10**9 + rnd.randint(0, 99), -1, rand_json(rnd, 1), str(rnd.randint(1, 9))])
            if isinstance(nothing, int) and not isinstance(nothing, bool) and 0 <= nothing < 10**9:
                nothing = -nothing - 1
            return json.dumps(rnd.choice([{"type": "hide", "id": 7, "message": nothing}, {"type": "unhide", "id": 8, "block": nothing}]))
        if r < 0.34:
            target = rnd.choice([*self.model.seats, *self.houses, rand_json(rnd, 1)])
            return json.dumps(rnd.choice([{"type": "stand_in", "id": rnd.randint(0, 99), "seat": target}, {"type": "take_back", "id": "tb"}]))
        if r < 0.47:
            return json.dumps(self.chat())
        # act
        msg = self.act(seat)
        code, new = self.model.act(seat, msg)
        if code is None and self.model.rules.result(new) is not None:
            return self.message(seat)  # the game goes on, so the stream goes on reaching the rules
        return json.dumps(msg)

    def act(self, seat: str | None) -> dict:
        rnd = self.rnd
        msg = {"type": "act", "id": rnd.choice([rnd.randint(0, 10**6), rand_string(rnd, 5), None, [1], 1.5, True])}
        a = rnd.random()
        if a < 0.12:  # the sender's own legal action, at the current version: the game moves on
            action = self.legal(seat) or self.random_action()
            msg["version"] = self.model.version
        elif a < 0.3:  # legal for someone (often another house), sent by this one
            action = self.legal(rnd.choice([None, *self.model.seats])) or self.random_action()
            msg["version"] = self.version()
        elif a < 0.5:
            action = self.mutate(self.legal(None) or self.random_action())
            msg["version"] = self.version()
        elif a < 0.7:
            action = self.random_action()
            msg["version"] = self.version()
        elif a < 0.8:
            action = rand_json(rnd, 3)
            if rnd.random() < 0.5:
                msg["version"] = self.version()
        elif a < 0.92:  # the sender's own legal action at a fuzzed version
            action = self.legal(seat) or self.random_action()
            msg["version"] = self.version()
        else:
            action = None
        if action is not None or rnd.random() < 0.5:
            msg["action"] = action
        if rnd.random() < 0.05:
            msg[rand_string(rnd, 4) or "k"] = rand_json(rnd, 1)
        return msg


# --- the sockets ------------------------------------------------------------------------------
class Sock:
    def __init__(self, name, ws, seat, logged_in, limited=False):
        self.name, self.ws, self.seat, self.logged_in, self.limited = name, ws, seat, logged_in, limited
        self.version = -1
        self.chats: list[int] = []
        self.last_state: dict | None = None

    async def recv_text(self, timeout: float = 10) -> str:
        """The next frame's text, from a channels communicator or a real socket (tests/wsclient)."""
        if hasattr(self.ws, "receive_from"):
            return await self.ws.receive_from(timeout=timeout)
        return await self.ws.recv(timeout=timeout)

    def readable(self, channel: str) -> bool:
        if channel == "public":
            return True
        if channel == "spectators":
            return self.seat is None
        return self.seat is not None and self.seat in channel.split(":")[1:]


class Checker:
    def __init__(self, codes: set[str]) -> None:
        self.codes = codes
        self.counts: dict[str, int] = {}

    def frame(self, sock: Sock, text) -> dict:
        """Check one frame the server sent on ``sock``; returns it parsed."""
        assert isinstance(text, str), f"{sock.name}: binary frame from the server"
        text.encode("utf-8")  # daphne must be able to send it
        msg = json.loads(text)
        assert isinstance(msg, dict) and msg.get("type") in SERVER_TYPES, msg
        kind = msg["type"]
        if kind == "state":
            assert msg["version"] >= sock.version, f"{sock.name}: state {msg['version']} after {sock.version}"
            sock.version, sock.last_state = msg["version"], msg
            assert msg["viewer"] == sock.seat and msg["view"]["viewer"] == sock.seat
            for d in msg["pending"]:
                assert ("options" in d) == (d["actor"] == sock.seat), (sock.name, d)
        elif kind == "chat":
            for line in msg["messages"]:
                assert sock.readable(line["channel"]), (sock.name, line)
                sock.chats.append(line["id"])
        elif kind == "seats":
            assert isinstance(msg["stand_ins"], dict) and isinstance(msg["awaited_for"], dict), msg
            assert msg["away_after"] > 0 and "notice" not in msg, msg
        elif kind == "error" or (kind == "result" and not msg["ok"]):
            err = msg["error"]
            assert err["code"] in self.codes, f"undocumented error code {err['code']!r}"
            assert isinstance(err["message"], str) and err["message"]
            self.counts[err["code"]] = self.counts.get(err["code"], 0) + 1
        return msg


async def read_answer(sock: Sock, checker: Checker, want: str, version: int = -1) -> dict:
    """Read ``sock`` (checking every frame) up to the direct answer: the first ``result``,
    ``error`` or ``pong`` (pushes are ``state`` and ``chat``), or a ``state`` of ``version`` when ``want`` is one."""
    while True:
        msg = checker.frame(sock, await sock.recv_text())
        if msg["type"] == "result" and not msg["ok"] and msg["error"]["code"] == "version.stale":
            while checker.frame(sock, await sock.recv_text())["type"] != "state":
                pass  # the resync that follows a stale act
            return msg
        if msg["type"] in ("result", "error", "pong"):  # pushes: state, chat
            return msg
        if want == "state" and msg["type"] == "state" and msg["version"] >= version:
            return msg


async def read_waiting(sock: Sock, checker: Checker, timeout: float = 0.0) -> None:
    while not await sock.ws.receive_nothing(timeout=timeout, interval=0.005):
        checker.frame(sock, await sock.ws.receive_from(timeout=5))


# --- the test ---------------------------------------------------------------------------------
def _game_rows(game_id):
    from game.models import Action, Game

    g = Game.objects.get(pk=game_id)
    return g.version, list(Action.objects.filter(game_id=game_id).order_by("number").values_list("number", "actor", "action"))


@pytest.mark.parametrize("ruleset", ["agot2", "duke"])
async def test_fuzzing_the_live_game(application, make_lobby, make_user, settings, caplog, monkeypatch, ruleset):
    from game.live import apply
    from game.live.hub import hub
    from game.models import ChatMessage, Game
    from game.rules import get_ruleset

    # the game's seed pinned too (the site draws it from the system's random source), so the
    # stream plays the same game each run: a game of The Duke may end early, and then it did
    monkeypatch.setattr(apply.secrets, "randbits", lambda bits: GAME_SEED % (1 << bits))
    players = 3 if ruleset == "agot2" else 2
    game, users = await sync_to_async(start_game)(make_lobby, players, ruleset=ruleset)
    watcher = await sync_to_async(make_user)("watcher")
    seats = sorted(users)
    rules = get_ruleset(game.ruleset)
    model = Model(rules, rules.new_game(game.players, game.seed, game.options), seats)
    rnd = random.Random(f"{SEED}-{ruleset}")
    fuzz = Fuzzer(rnd, model)
    checker = Checker(documented_codes())
    members = hub().member_count()

    socks = []
    for house in seats:
        ws, first = await connect(application, game.pk, users[house])
        socks.append(Sock(house, ws, house, True))
    ws, _ = await connect(application, game.pk, watcher, lang="zh-hans")
    socks.append(Sock("watcher", ws, None, True))
    settings.LIVE_RATE, settings.LIVE_BURST = 50, 20  # the anonymous visitor floods
    settings.LIVE_CHAT_RATE, settings.LIVE_CHAT_BURST = 0.5, 2
    ws, _ = await connect(application, game.pk, None)
    socks.append(Sock("anonymous", ws, None, False, limited=True))
    assert hub().member_count() == members + len(socks)
    weights = [0.8 / players] * players + [0.12, 0.08]
    known = [(s, frame) for s in socks[:-1] for frame in known_frames(0)]  # (the anonymous visitor is rate limited)

    chats: dict[int, tuple[str, str]] = {}  # id -> (channel, stored text)
    answers: dict[str, int] = {}
    for n in range(len(known) + MESSAGES):
        if n < len(known):
            sock, frame = known[n]
        else:
            sock = rnd.choices(socks, weights)[0]
            frame = fuzz.message(sock.seat)
        if sock.limited and isinstance(frame, str) and '"sync"' in frame:
            # a rate-limited sync's error could not be told from a push arriving before it
            frame = json.dumps({"type": "ping", "id": n})
        want = model.expect(sock.seat, sock.logged_in, frame)
        # send_input, not send_to: empty frames are frames too
        await sock.ws.send_input({"type": "websocket.receive", ("bytes" if isinstance(frame, bytes) else "text"): frame})
        got = await read_answer(sock, checker, want["type"], model.version)
        where = f"message {n} from {sock.name}: {frame[:300]!r}\nexpected {str(want)[:500]}\ngot {str(got)[:500]}"
        if got["type"] == "error" and got["error"]["code"] == "rate_limited" and want.get("code") != "rate_limited":
            assert sock.limited, where
            answers["rate_limited"] = answers.get("rate_limited", 0) + 1
            continue
        if got["type"] == "result" and not got["ok"] and got["error"]["code"] == "rate_limited" and "channel" in want:
            assert sock.limited, where
            continue
        assert got["type"] == want["type"], where
        if want["type"] == "state":
            assert got["version"] == model.version, where
        else:
            assert got.get("id") == want["id"], where
        if got["type"] == "error":
            assert got["error"]["code"] == want["code"], where
        if got["type"] == "result":
            if want["code"] is None:
                assert got["ok"] is True, where
            else:
                assert got["ok"] is False and got["error"]["code"] == want["code"], where
        key = want["type"] + ":" + str(want.get("code"))
        answers[key] = answers.get(key, 0) + 1
        if "new" in want:  # an act: the stored game moves exactly as the engine says
            if want["code"] is None:
                model.states.append(want["new"])
                model.accepted.append((sock.seat, want["msg"]["action"]))
                assert got["version"] == model.version, where
            version, rows = await sync_to_async(_game_rows)(game.pk)
            assert version == model.version == len(rows), where  # a refused act changed nothing
            if want["code"] is None:
                assert rows[-1] == (model.version, sock.seat, want["msg"]["action"]), where
        if "channel" in want and want["code"] is None:
            chats[got["message"]] = (want["channel"], clean_chat(want["msg"]["text"]))
        if n % 50 == 0:
            for s in socks:
                await read_waiting(s, checker)
                assert not s.ws.future.done(), f"{s.name}'s consumer ended at message {n}"
            assert not _logged_errors(caplog), f"message {n}: {_logged_errors(caplog)}"

    # the connections are still usable: a ping on each, a legal action for someone awaited
    await asyncio.sleep(0.2)  # the flooding visitor's bucket refills (LIVE_RATE = 50/s here)
    for i, s in enumerate(socks):
        await s.ws.send_json_to({"type": "ping", "id": f"end-{i}"})
        assert (await read_answer(s, checker, "pong"))["id"] == f"end-{i}"
    seat = next((d.actor for d in rules.pending(model.state)), None)
    if seat is not None:  # (a game of The Duke may be over)
        player = next(s for s in socks if s.seat == seat)
        action = fuzz.legal(seat)
        await player.ws.send_json_to({"type": "act", "id": "last", "version": model.version, "action": action})
        got = await read_answer(player, checker, "result")
        assert got["ok"] is True and got["version"] == model.version + 1, got
        model.states.append(rules.apply(model.state, seat, rules.parse_action(action)))
        model.accepted.append((seat, action))
    for s in socks:  # every socket gets the last version (and, before it, every chat line)
        while s.version < model.version:
            checker.frame(s, await s.ws.receive_from(timeout=10))
        await read_waiting(s, checker, timeout=0.1)
        assert s.version == model.version, s.name

    # the stored log is exactly the accepted actions, and it replays to what everyone was shown
    version, rows = await sync_to_async(_game_rows)(game.pk)
    assert version == model.version and [(a, x) for _, a, x in rows] == model.accepted
    from game.live import payloads

    for s in socks:
        shown = s.last_state["view"]
        assert shown == json.loads(json.dumps(payloads.windowed_view(rules.view(model.state, s.seat)))), s.name
    stored = await sync_to_async(lambda: {m.pk: (m.channel, m.text) for m in ChatMessage.objects.filter(game_id=game.pk)})()
    assert stored == chats
    for s in socks:
        assert sorted(s.chats) == sorted(i for i, (ch, _) in chats.items() if s.readable(ch)), s.name
    status = (await sync_to_async(Game.objects.get)(pk=game.pk)).status
    assert status == ("running" if rules.result(model.state) is None else "finished")
    # the stream really exercised the server
    print(f"\nfuzz {ruleset}: version {model.version}, {len(chats)} chat lines, refusals {checker.counts}, answers {answers}")
    assert model.version >= MESSAGES // 100 and len(chats) >= MESSAGES // 100
    assert len(checker.counts) >= (12 if MESSAGES >= 1000 else 8), checker.counts
    # nothing failed in the server, no consumer ended, and none is left behind
    assert not _logged_errors(caplog), _logged_errors(caplog)
    for s in socks:
        assert not s.ws.future.done(), s.name
        await s.ws.disconnect()
        assert s.ws.future.exception() is None, s.name
    assert hub().member_count() == members


def _logged_errors(caplog) -> list[str]:
    """What was logged at ERROR or above, or with an exception's traceback at any level."""
    return [r.getMessage()[:300] for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


# --- what the fuzzing found, one case each -----------------------------------------------------
@pytest.fixture
def game3(make_lobby):
    return start_game(make_lobby, 3)


async def _act_and_answer(ws, msg):
    await ws.send_json_to(msg)
    while True:
        got = await ws.receive_json_from(timeout=5)
        if got["type"] in ("result", "error"):
            return got


async def test_a_negative_version_is_stale_not_a_server_error(application, game3):
    """``version: -1`` once the game had moved on crashed the consumer (``state_at(-1)``)."""
    from .live_helpers import legal_json

    game, users = await sync_to_async(lambda: game3)()
    stark, _ = await connect(application, game.pk, users["stark"])
    ok = await _act_and_answer(stark, {"type": "act", "id": 1, "version": 0, "action": await sync_to_async(legal_json)(game.pk, "stark")})
    assert ok["ok"] is True
    lannister, _ = await connect(application, game.pk, users["lannister"])
    action = await sync_to_async(legal_json)(game.pk, "lannister")
    for version in (-1, -50):
        got = await _act_and_answer(lannister, {"type": "act", "id": version, "version": version, "action": action})
        assert got["ok"] is False and got["error"]["code"] == "version.stale", got
    assert (await _act_and_answer(lannister, {"type": "act", "id": 2, "version": 1, "action": action}))["ok"] is True
    await stark.disconnect()
    await lannister.disconnect()


async def test_deep_nesting_and_lone_surrogates_are_malformed(application, game3):
    """JSON nested deeper than the parser's recursion limit raised RecursionError (not a
    ValueError) and closed the socket; ``"\\ud800"`` escapes decode to lone surrogates that
    could be neither stored nor sent back as UTF-8 (an unknown type is echoed in the error)."""
    game, users = await sync_to_async(lambda: game3)()
    stark, _ = await connect(application, game.pk, users["stark"])
    for text in ["[" * 5000 + "]" * 5000, '{"a":' * 2500 + "1" + "}" * 2500, '{"type": "\\ud800"}',
                 '{"type": "chat", "id": 1, "channel": "public", "text": "\\udfff"}',
                 '{"type": "ping", "id": "\\ude00\\ud83d"}']:
        await stark.send_to(text_data=text)
        raw = await stark.receive_from(timeout=5)
        raw.encode("utf-8")
        assert json.loads(raw)["error"]["code"] == "message.malformed", text[:40]
    await stark.send_to(text_data='{"type": "ping", "id": "\\ud83d\\ude00"}')  # a valid pair is fine
    assert await stark.receive_json_from(timeout=5) == {"type": "pong", "id": "\U0001f600"}
    await stark.disconnect()


async def test_a_chat_line_of_control_characters_is_empty(application, game3, settings):
    """Control characters were removed after the emptiness check, so "\\x01\\x02" was stored as
    an empty line; now the line is cleaned first (and trimmed again)."""
    from game.models import ChatMessage

    settings.LIVE_CHAT_RATE, settings.LIVE_CHAT_BURST = 100, 100
    game, users = await sync_to_async(lambda: game3)()
    stark, _ = await connect(application, game.pk, users["stark"])
    for i, text in enumerate(["\x01\x02", "\x01 \x7f \x1f", " \x00\n", "\x85\x9f"]):
        got = await _act_and_answer(stark, {"type": "chat", "id": i, "channel": "public", "text": text})
        assert got["ok"] is False and got["error"]["code"] == "chat.empty", (text, got)
    got = await _act_and_answer(stark, {"type": "chat", "id": 9, "channel": "public", "text": "\x01 winter \x02"})
    assert got["ok"] is True
    assert await sync_to_async(lambda: list(ChatMessage.objects.values_list("text", flat=True)))() == ["winter"]
    await stark.disconnect()


async def test_the_lobby_sockets_ignore_garbage(application, make_lobby, caplog, settings):
    """/ws/lobby/<id>/ and /ws/lobbies/ only read ``{"type": "sync"}``; anything else is ignored.
    A binary frame, deep nesting (RecursionError) and, on the list socket, any text that is not
    JSON crashed the consumer and closed the socket. Hostile values too (nesting up to 10,000,
    numbers of 5,000 digits, strings of every plane, lone surrogates): nothing is logged."""
    from channels.testing import WebsocketCommunicator

    from .live_helpers import ORIGIN

    # garbage, not floods: the size and rate limits (answered, tests/web/test_socket_limits.py) out of the way
    settings.LIVE_RATE = settings.LIVE_BURST = 10_000
    settings.LIVE_MAX_MESSAGE = 100_000
    lobby = await sync_to_async(make_lobby)(players=3, seated=1)
    rnd = random.Random(SEED)
    garbage = [b"\x00\x01", "{not json", "[" * 5000 + "]" * 5000, "null", "[]", '{"type": ["sync"]}', '{"type": "\\ud800"}']
    garbage += [json.dumps(rand_json(rnd, 3)) for _ in range(40)] + [rand_string(rnd, 30) for _ in range(20)]
    garbage += [hostile(rnd) for _ in range(40)] + [with_member({}, '"type"', hostile(rnd)) for _ in range(10)]
    garbage += ["[" * 10_000 + "]" * 10_000, '{"type": ' + "1" * 5000 + "}", '{"type": "sync", "x": ' + "1" * 5000 + "}"]
    lobby_ws = WebsocketCommunicator(application, f"/ws/lobby/{lobby.pk}/", headers=[ORIGIN])
    assert (await lobby_ws.connect())[0]
    assert (await lobby_ws.receive_json_from(timeout=5))["type"] == "lobby"
    list_ws = WebsocketCommunicator(application, "/ws/lobbies/", headers=[ORIGIN])
    assert (await list_ws.connect())[0]
    for ws in (lobby_ws, list_ws):
        for frame in garbage:
            await ws.send_input({"type": "websocket.receive", ("bytes" if isinstance(frame, bytes) else "text"): frame})
        assert await ws.receive_nothing(timeout=0.2)  # nothing answered, nothing closed
    await lobby_ws.send_json_to({"type": "sync"})
    assert (await lobby_ws.receive_json_from(timeout=5))["lobby"]["id"] == lobby.pk
    assert not _logged_errors(caplog), _logged_errors(caplog)
    await lobby_ws.disconnect()
    await list_ws.disconnect()

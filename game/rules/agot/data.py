"""Board and card data of an AGoT edition, loaded from ``game/data/<edition>/*.json`` and validated.

:func:`board` returns the validated :class:`Board` of an edition (cached, one per edition):
``board(state)`` the board of the state's edition (:mod:`.edition`), ``board("agot1")`` by id,
``board()`` the 2nd edition's. A bad data file raises :class:`DataError` naming the file and the
problem, at first use.

Inheritance ("write only the differences"): an edition whose profile ``inherits`` another reads
each missing file from the other's folder; its ``tracks.json`` holds only the top-level keys that
differ (the others are inherited); its ``westeros_cards.json`` lists the cards of each deck (id,
count, wildling icon) and takes every other field of a card from the inherited edition's card of
the same id, overridden by its own ``cards`` entries.

Sources: ``game/data/agot2/README.md`` (the board and card facts the 2nd-edition rulebook prints
as pictures; the rulebook wins where they disagree) and ``docs/agot1.md`` (the 1st edition: its
reference and its rulebook; reconstructed facts carry ``"reconstructed": true``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_ROOT = Path(__file__).resolve().parent.parent.parent / "data"
DATA_DIR = DATA_ROOT / "agot2"

HOUSES = ("stark", "lannister", "greyjoy", "tyrell", "baratheon", "martell")
UNIT_TYPES = ("footman", "knight", "ship", "siege_engine")
TRACKS = ("iron_throne", "fiefdoms", "kings_court")
DOMINANCE = {"iron_throne": "iron-throne", "fiefdoms": "valyrian-steel-blade", "kings_court": "messenger-raven"}
ORDER_TYPES = ("march", "defense", "support", "raid", "consolidate_power")


class DataError(ValueError):
    """A data file is missing, malformed or inconsistent."""


@dataclass(frozen=True)
class Area:
    id: str
    name_en: str
    name_zh: str
    kind: str  # "land" | "sea" | "port"
    castle: str | None  # None | "castle" | "stronghold"
    supply: int
    power: int
    home_of: str | None
    island: bool
    port: str | None  # land: its port area id
    port_of: str | None  # port: its land area id
    port_sea: str | None  # port: its sea area id


@dataclass(frozen=True)
class OrderToken:
    id: str
    type: str
    strength: int
    special: bool


class Board:
    """Static facts: areas, adjacency, houses, setups, tracks, cards. Immutable after load."""

    def __init__(self, raw: dict[str, Any], edition: str = "agot2") -> None:
        self.edition = edition
        self.areas: dict[str, Area] = {a["id"]: Area(**{k: a.get(k) for k in Area.__dataclass_fields__}) for a in raw["areas"]}
        adj: dict[str, set[str]] = {a: set() for a in self.areas}
        for a, b in raw["adjacency"]["pairs"]:
            adj[a].add(b)
            adj[b].add(a)
        self.adjacent: dict[str, frozenset[str]] = {a: frozenset(s) for a, s in adj.items()}
        self.houses: dict[str, dict[str, Any]] = {h["id"]: h for h in raw["houses"]}
        self.setups: dict[str, Any] = raw["setups"]
        self.tracks: dict[str, Any] = raw["tracks"]
        tok = self.tracks["order_tokens"]["tokens"]
        self.order_tokens: dict[str, OrderToken] = {
            t["id"]: OrderToken(t["id"], t["type"], t["strength"], t["special"]) for t in tok
        }
        # the 15 tokens of one house, as a sorted tuple of token ids with repetitions
        self.order_pool: tuple[str, ...] = tuple(sorted(t["id"] for t in tok for _ in range(t["count"])))
        self.supply_limits: dict[int, tuple[int, ...]] = {
            int(k): tuple(v) for k, v in self.tracks["supply_track"]["allowed_armies"].items()
        }
        self.unit_limits: dict[str, int] = dict(self.tracks["unit_limits"])
        self.unit_strength: dict[str, int] = {k: v["strength"] for k, v in self.tracks["units"].items()}
        self.house_cards: dict[str, dict[str, Any]] = {
            c["id"]: dict(c, house=h["id"]) for h in raw["houses"] for c in h["house_cards"]
        }
        self.westeros_decks: dict[str, tuple[str, ...]] = {
            deck: tuple(c["id"] for c in cards for _ in range(c["count"]))
            for deck, cards in raw["westeros"]["decks"].items()
        }
        self.westeros_cards: dict[str, dict[str, Any]] = {
            c["id"]: c for cards in raw["westeros"]["decks"].values() for c in cards
        }
        self.wildling_cards: dict[str, dict[str, Any]] = {c["id"]: c for c in raw["wildlings"]["cards"]}
        self.tides: dict[str, Any] = raw["tides"]
        self.land_ids = tuple(a for a, x in self.areas.items() if x.kind == "land")
        self.castle_areas = tuple(a for a, x in self.areas.items() if x.castle)

    # -- small queries -------------------------------------------------------------------------
    def kind(self, area: str) -> str:
        return self.areas[area].kind

    def is_sea(self, area: str) -> bool:
        return self.areas[area].kind == "sea"

    def is_port(self, area: str) -> bool:
        return self.areas[area].kind == "port"

    def is_land(self, area: str) -> bool:
        return self.areas[area].kind == "land"

    def setup(self, players: int) -> dict[str, Any]:
        return self.setups["player_counts"][str(players)]


FILES = {
    "areas": "areas.json",
    "adjacency": "adjacency.json",
    "houses": "houses.json",
    "setups": "setups.json",
    "tracks": "tracks.json",
    "westeros": "westeros_cards.json",
    "wildlings": "wildling_cards.json",
    "tides": "tides_of_battle.json",
}


def _load(name: str, folder: str = "agot2") -> Any:
    path = DATA_ROOT / folder / name
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DataError(f"{name}: cannot load ({exc})") from exc


def merge(base: Any, own: Any) -> Any:
    """``own`` over ``base``: objects merge key by key (recursively), a ``null`` value removes the
    inherited key, anything else (lists, numbers, strings) replaces it."""
    if not (isinstance(base, dict) and isinstance(own, dict)):
        return own
    out = dict(base)
    for k, v in own.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge(base.get(k), v) if k in base else v
    return out


def _inherited_westeros(own: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
    """An inheriting edition's Westeros decks: each listed card takes the inherited edition's
    card of the same id (every field but ``count`` and ``wildling_icon``), then its own ``cards``
    entry, then the deck entry itself."""
    known = {c["id"]: c for cards in base["decks"].values() for c in cards}
    extra = own.get("cards", {})
    decks = {}
    for deck, cards in own["decks"].items():
        out = []
        for entry in cards:
            card = {k: v for k, v in known.get(entry["id"], {}).items() if k not in ("count", "wildling_icon", "reconstructed")}
            card.update(extra.get(entry["id"], {}))
            card.update(entry)
            out.append(card)
        decks[deck] = out
    return {**{k: v for k, v in own.items() if k != "cards"}, "decks": decks}


def load_raw(edition_id: str = "agot2") -> dict[str, Any]:
    """The raw JSON of every data file of an edition, keyed by short name (inheritance applied:
    see the module docstring)."""
    from .edition import EDITIONS

    ed = EDITIONS[edition_id]
    if ed.inherits is None:
        return {key: _load(name, ed.id) for key, name in FILES.items()}
    base = load_raw(ed.inherits)
    out: dict[str, Any] = {}
    for key, name in FILES.items():
        if not (DATA_ROOT / ed.id / name).exists():
            out[key] = base[key]
            continue
        own = _load(name, ed.id)
        if key == "tracks":
            own = merge(base[key], own)
        elif key == "westeros":
            own = _inherited_westeros(own, base[key])
        out[key] = own
    return out


#: the three texts of a wildling card, each with a Chinese ``<key>_zh`` beside it
WILDLING_TEXTS = ("lowest_bidder", "everyone_else", "highest_bidder")


def has_chinese(text: Any) -> bool:
    """True for a string holding at least one CJK ideograph."""
    return isinstance(text, str) and any("\u4e00" <= ch <= "\u9fff" for ch in text)


def check_text_pair(file: str, what: str, card: dict[str, Any], key: str, label: str) -> None:
    """A card with an English text ``key`` needs a Chinese ``key_zh`` and the reverse."""
    zh = card.get(f"{key}_zh")
    if card.get(key) and not has_chinese(zh):
        raise DataError(f"{file}: {what} has {label} but no Chinese text ({key}_zh)")
    if not card.get(key) and zh:
        raise DataError(f"{file}: {what} has a Chinese text ({key}_zh) but no English one")


def validate(raw: dict[str, Any], edition_id: str = "agot2") -> Board:
    """Check the data files of ``edition_id`` against each other and the rulebook's counts
    (:class:`.edition.Edition` ``counts``, ``houses``, player counts); return the Board.

    Raises:
        DataError: naming the file and the inconsistency (unknown id, asymmetric or dangling
            adjacency, wrong counts, a port without its two neighbours...).
    """

    from .edition import EDITIONS

    ed = EDITIONS[edition_id]
    houses = ed.houses
    n_land, n_sea, n_port = ed.counts

    def fail(file: str, msg: str) -> None:
        raise DataError(f"{file}: {msg}")

    areas = raw["areas"]
    ids = [a.get("id") for a in areas]
    if len(set(ids)) != len(ids):
        fail("areas.json", "duplicate area id")
    idset = set(ids)
    for a in areas:
        for key in ("id", "name_en", "name_zh", "kind", "castle", "supply", "power", "home_of", "island", "port", "port_of", "port_sea"):
            if key not in a:
                fail("areas.json", f"area {a.get('id')!r} lacks key {key!r}")
        if a["kind"] not in ("land", "sea", "port"):
            fail("areas.json", f"area {a['id']!r} has unknown kind {a['kind']!r}")
        if a["castle"] not in (None, "castle", "stronghold"):
            fail("areas.json", f"area {a['id']!r} has unknown castle {a['castle']!r}")
    kinds = [a["kind"] for a in areas]
    if (kinds.count("land"), kinds.count("sea"), kinds.count("port")) != ed.counts:
        fail("areas.json", f"expected {n_land} land, {n_sea} sea and {n_port} port areas")
    seen: set[tuple[str, str]] = set()
    for pair in raw["adjacency"].get("pairs", []):
        if len(pair) != 2 or pair[0] == pair[1]:
            fail("adjacency.json", f"bad pair {pair!r}")
        a, b = pair
        if a not in idset or b not in idset:
            fail("adjacency.json", f"unknown area in pair {pair!r}")
        key = (min(a, b), max(a, b))
        if key in seen:
            fail("adjacency.json", f"duplicate pair {pair!r}")
        seen.add(key)
    board = Board(raw, edition_id)
    for aid, nb in board.adjacent.items():
        if not nb:
            fail("adjacency.json", f"area {aid!r} has no neighbour")
        for other in nb:  # symmetric by construction; keep the check explicit
            if aid not in board.adjacent[other]:
                fail("adjacency.json", f"{aid!r}-{other!r} not symmetric")
    for a in board.areas.values():
        if a.kind == "port":
            if a.port_of not in idset or a.port_sea not in idset:
                fail("areas.json", f"port {a.id!r} has unknown port_of/port_sea")
            if board.adjacent[a.id] != {a.port_of, a.port_sea}:
                fail("adjacency.json", f"port {a.id!r} must touch exactly its land and its sea")
            if board.areas[a.port_of].port != a.id:
                fail("areas.json", f"land {a.port_of!r} does not name its port {a.id!r}")
        if a.island and any(board.is_land(n) for n in board.adjacent[a.id]):
            fail("adjacency.json", f"island {a.id!r} touches land")
        if a.home_of is not None and a.home_of not in houses:
            fail("areas.json", f"area {a.id!r} home of unknown house")
    if set(board.houses) != set(houses):
        fail("houses.json", f"expected the {'six' if len(houses) == 6 else len(houses)} houses")
    for h in board.houses.values():
        if board.areas.get(h["home"]) is None or board.areas[h["home"]].home_of != h["id"]:
            fail("houses.json", f"house {h['id']!r} home mismatch")
        if len(h["house_cards"]) != 7:
            fail("houses.json", f"house {h['id']!r} needs 7 house cards")
        for c in h["house_cards"]:
            check_text_pair("houses.json", f"house card {c['id']!r}", c, "ability", "an ability")
        for u in h["starting_units"]:
            if u["area"] not in idset or u["type"] not in board.unit_limits:
                fail("houses.json", f"bad starting unit {u!r}")
    if len(board.order_pool) != 15 or sum(board.order_tokens[t].special for t in board.order_pool) != 5:
        fail("tracks.json", "a house needs 15 order tokens, 5 of them special")
    for deck, cards in board.westeros_decks.items():
        if len(cards) != 10:
            fail("westeros_cards.json", f"deck {deck} must hold 10 cards")
    effects_zh: dict[str, Any] = {}
    for cards in raw["westeros"]["decks"].values():
        for c in cards:
            check_text_pair("westeros_cards.json", f"Westeros card {c['id']!r}", c, "effect", "an effect")
            if effects_zh.setdefault(c["id"], c.get("effect_zh")) != c.get("effect_zh"):
                fail("westeros_cards.json", f"Westeros card {c['id']!r} has different Chinese texts (effect_zh) in two decks")
    want_wildlings = 9 if ed.wildling_outcome == "cards" else 0
    if len(board.wildling_cards) != want_wildlings:
        fail("wildling_cards.json", f"expected {want_wildlings} wildling cards")
    for c in raw["wildlings"]["cards"]:
        for key in WILDLING_TEXTS:
            check_text_pair("wildling_cards.json", f"wildling card {c['id']!r}", c, key, f"a {key} text")
    for n in (str(k) for k in range(ed.min_players, ed.max_players + 1)):
        s = board.setups["player_counts"].get(n)
        if s is None:
            fail("setups.json", f"no setup for {n} players")
        for h in s["houses"]:
            if h not in houses:
                fail("setups.json", f"unknown house {h!r}")
        for a in list(s["neutral_forces"]) + list(s.get("blocked_ports", ())):
            if a not in idset:
                fail("setups.json", f"unknown area {a!r}")
        for t in TRACKS:
            if sorted(s["influence_tracks"][t]) != sorted(s["houses"]):
                fail("setups.json", f"{n} players: track {t} must hold exactly the houses in play")
        if len(s["kings_court_stars"]) != int(n):
            fail("setups.json", f"{n} players: King's Court stars need {n} entries")
    return board


#: the edition ``board()`` gives when called without one (None: refuse, to find a missed call
#: in a 1st-edition game; see tests/rules/agot1/test_edition_boundaries.py)
DEFAULT_EDITION: str | None = "agot2"


def board(of: Any = None) -> Board:
    """The validated board of an edition (loaded once per process and edition): ``of`` is a
    state (its edition), an edition id (``"agot2"``, ``"agot1"``), or None (the 2nd edition,
    :data:`DEFAULT_EDITION`).

    Raises:
        DataError: a bad data file (at first use). KeyError: an unknown edition id, or ``of``
        None while :data:`DEFAULT_EDITION` is None.
    """
    if of is None:
        if DEFAULT_EDITION is None:
            raise KeyError("board() called without an edition")
        return _board(DEFAULT_EDITION)
    return _board(of if isinstance(of, str) else (of.edition or "agot2"))


@lru_cache(maxsize=None)
def _board(edition_id: str) -> Board:
    return validate(load_raw(edition_id), edition_id)

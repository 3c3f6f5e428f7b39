"""Static facts the AGoT game screen needs in the browser, as one JSON-able dict.

``board_data(lang, board_id)`` (``board_id`` ``"agot2"`` or ``"agot1"``; ``agot2_board_data(lang)``
is the 2nd edition's) -> ``{"lang", "board", "areas": {id: {name, kind, castle, supply, power,
home_of, port, port_of, port_sea}}, "houses": {id: {name, letter, color, home}},
"house_cards": {id: {name, house, strength, swords, fortifications, ability}},
"tides_cards": {id: {strength, swords, fortifications, skulls}} (Tides of Battle, named by the screen),
"westeros_cards": {id: {name, wildling_icon, effect}}, "wildling_cards": {id: {name, lowest,
everyone, highest}}, "tokens": {id: {name, type, strength, special}}, "tracks": {id: name},
"units": {type: name}, "supply_limits": {level: [sizes]}, "unit_limits": {type: n}, "adjacent": {id: [ids]},
"kings_court_stars": {players: [stars by position]}, "players": [min, max], "has": {ports, garrisons,
siege_engines, tides_of_battle, wildling_cards: bool}}``. The 1st edition has
no Tides of Battle or wildling cards (empty dicts) and no ports.

Names are in English (``lang="en"``) or simplified Chinese (``"zh-hans"``), from
``game/data/<board_id>`` (:func:`game.rules.agot.data.board`) and the log's names
(:mod:`game.rules.agot.log`). Card texts follow the
language too: in Chinese a house card's ``ability`` is its ``ability_zh`` (the project's own
translation), a Westeros card's ``effect`` its ``effect_zh`` (the Chinese rulebook's 维斯特洛卡牌参考)
and a wildling card's ``lowest``/``everyone``/``highest`` its ``lowest_bidder_zh``/
``everyone_else_zh``/``highest_bidder_zh`` (ours); otherwise the reference's English. Pure, no
Django.
"""

from __future__ import annotations

import functools
from typing import Any

from game.rules.agot.data import board
from game.rules.agot.edition import EDITIONS
from game.rules.agot.log import TOKEN_NAMES, TRACK_NAMES, UNIT_NAMES

#: a letter per house, drawn on its units and tokens so colour is not the only cue
HOUSE_LETTERS = {"stark": "S", "lannister": "L", "greyjoy": "G", "tyrell": "T", "baratheon": "B", "martell": "M"}
#: token fill colours (the crests' colours in game/boards/render.py)
HOUSE_COLORS = {
    "stark": "#d9d9d9", "lannister": "#b3261e", "greyjoy": "#222222",
    "tyrell": "#2e7d32", "baratheon": "#e0b020", "martell": "#e8731a",
}


def lang_key(lang: str) -> str:
    """``"zh-hans"`` for any Chinese language code, else ``"en"``."""
    return "zh-hans" if (lang or "").lower().startswith("zh") else "en"


def agot2_board_data(lang: str = "en") -> dict[str, Any]:
    """:func:`board_data` of the 2nd edition."""
    return board_data(lang, "agot2")


@functools.cache
def board_data(lang: str = "en", board_id: str = "agot2") -> dict[str, Any]:
    """The dict described in the module docstring for ``lang`` and the edition ``board_id``
    (cached). Raises ``KeyError`` for an unknown edition."""
    key = lang_key(lang)
    zh = key == "zh-hans"
    ed = EDITIONS[board_id]
    b = board(board_id)
    nm = (lambda d: d["name_zh"] if zh else d["name_en"])
    areas = {
        a.id: {
            "name": a.name_zh if zh else a.name_en, "kind": a.kind, "castle": a.castle, "supply": a.supply,
            "power": a.power, "home_of": a.home_of, "port": a.port, "port_of": a.port_of, "port_sea": a.port_sea,
        }
        for a in b.areas.values()
    }
    houses = {
        h: {"name": nm(d), "letter": HOUSE_LETTERS[h], "color": HOUSE_COLORS[h], "home": d["home"]}
        for h, d in b.houses.items()
    }
    cards = {
        c["id"]: {"name": nm(c), "house": c["house"], "strength": c["strength"], "swords": c["swords"],
                  "fortifications": c["fortifications"],
                  "ability": (c.get("ability_zh") or c["ability"]) if zh else c["ability"]}
        for c in b.house_cards.values()
    }
    tides = {
        g["id"]: {k: g[k] for k in ("strength", "swords", "fortifications", "skulls")}
        for g in (b.tides or {}).get("groups", [])
    } if "tides_of_battle" in ed.default_options else {}
    text = (lambda c, k: (c.get(k + "_zh") or c.get(k)) if zh else c.get(k))
    westeros = {
        c["id"]: {"name": nm(c), "wildling_icon": c.get("wildling_icon"), "effect": text(c, "effect")}
        for c in b.westeros_cards.values()
    }
    wild = {
        c["id"]: {"name": nm(c), "lowest": text(c, "lowest_bidder"), "everyone": text(c, "everyone_else"),
                  "highest": text(c, "highest_bidder")}
        for c in b.wildling_cards.values()
    }
    tokens = {
        t.id: {"name": TOKEN_NAMES[key].get(t.id, t.id), "type": t.type, "strength": t.strength, "special": t.special}
        for t in b.order_tokens.values()
    }
    return {
        "lang": key,
        "board": board_id,
        "areas": areas,
        "houses": houses,
        "house_cards": cards,
        "tides_cards": tides,
        "westeros_cards": westeros,
        "wildling_cards": wild,
        "tokens": tokens,
        "tracks": dict(TRACK_NAMES[key]),
        "units": dict(UNIT_NAMES[key]),
        "supply_limits": {str(k): list(v) for k, v in b.supply_limits.items()},
        "unit_limits": dict(b.unit_limits),
        "adjacent": {a: sorted(n) for a, n in b.adjacent.items()},
        "kings_court_stars": {str(n): list(b.setup(n)["kings_court_stars"]) for n in range(ed.min_players, ed.max_players + 1)},
        "players": [ed.min_players, ed.max_players],
        # what this edition's board and boxes have (the screen's legend shows only these)
        "has": {
            "ports": any(a.kind == "port" for a in b.areas.values()),
            "garrisons": any(d.get("garrison") for d in b.houses.values()),
            "siege_engines": "siege_engine" in b.unit_limits,
            "tides_of_battle": bool(tides),
            "wildling_cards": bool(wild),
        },
    }

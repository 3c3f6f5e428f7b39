"""A test harness for the AGoT game screen (``static/js/board/screen.js``, either edition), off by
default.

Turned on by the setting ``UI_HARNESS`` (environment ``GOTWEB_UI_HARNESS=1``); otherwise every
URL here answers 404. It stands in for live play: the page mounts the real renderer with a
*fake client* (``static/js/harness/agot2_client.js``) whose state comes from an engine position
kept in this process, and whose ``send`` applies the action through the engine, so a whole
round can be clicked through, switching seats with ``?viewer=``.

URLs (under ``/harness/``):

* ``agot2/?position=<name>&viewer=<house|spectator>`` -> creates a game from a named position
  (:data:`POSITIONS`) and redirects to ``agot2/<gid>/?viewer=...``;
* ``agot2/<gid>/`` -> the page (``templates/game/harness_agot2.html``);
* ``agot2/<gid>/state?viewer=`` -> ``{view, pending, version, log}`` as live play sends them;
* ``agot2/<gid>/act`` (POST ``{"actor", "action"}``) -> ``{ok: true}`` or ``{ok: false,
  error: {code, message, params}}``; every action is recorded;
* ``agot2/<gid>/sent`` -> ``[{actor, action, ok}]``, the recorded actions (for tests).

A position with ``"ruleset": "agot1"`` (``agot1_*`` below) is a 1st-edition game: the page then
mounts the screen on the 1st-edition board and the engine applies the 1st edition's rules (the
state carries its edition). The URLs stay under ``agot2/``.

Games live in process memory (one daphne process): fine for tests and development only.
"""

from __future__ import annotations

import itertools
import json
import threading

from django.conf import settings
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import get_language
from django.views.decorators.csrf import csrf_exempt

from game.rules.agot import RULESETS
from game.rules.base import IllegalAction
from game.rules.agot.log import describe
from game.rules.agot.scenario import build

#: a battle in a 3-player game: Lannister's March in Seagard (2 knights, a footman) can attack
#: Stark in The Twins (knight, footman, Defense +1); Baratheon's Support in The Fingers is next to
#: it; Lannister holds the Valyrian Steel Blade. Stark, beaten, can retreat to Moat Cailin or The
#: Mountains of the Moon.
COMBAT3 = {
    "players": 3, "board": "empty", "start": "marches", "turn": "lannister", "halt": False,
    "units": {"seagard": {"house": "lannister", "units": ["knight", "knight", "footman"]},
              "the-twins": {"house": "stark", "units": ["knight", "footman"]},
              "the-fingers": {"house": "baratheon", "units": ["knight"]},
              "winterfell": {"house": "stark", "units": ["footman"]},
              "dragonstone": {"house": "baratheon", "units": ["footman"]},
              "lannisport": {"house": "lannister", "units": ["footman"]}},
    "orders": {"seagard": "march", "the-twins": "defense-plus-one", "the-fingers": "support",
               "winterfell": "consolidate-power", "dragonstone": "consolidate-power", "lannisport": "consolidate-power"},
    "tracks": {"fiefdoms": ["lannister", "stark", "baratheon"]},
}
COMBAT3_MARCH = ["lannister", {"type": "march", "area": "seagard", "leave_power": False,
                               "moves": [{"to": "the-twins", "units": ["knight", "knight", "footman"]}]}]

#: named starting positions: a scenario dict (docs/scenarios.md) with ``halt: false``, or
#: ``{"new_game": players}`` for a fresh game; ``steps`` (``[house, action]`` pairs) are applied
#: after the position is built
POSITIONS: dict[str, dict] = {
    "start3": {"new_game": 3},
    "start4": {"new_game": 4},
    "start5": {"new_game": 5},
    "start6": {"new_game": 6},
    # orders already revealed: Stark marches, Lannister raids, Baratheon consolidates
    "action3": {
        "players": 3, "start": "action", "halt": False,
        "orders": {"winterfell": "march", "white-harbor": "support", "the-shivering-sea": "raid",
                   "lannisport": "march-plus-one", "stoney-sept": "raid", "the-golden-sound": "consolidate-power",
                   "dragonstone": "march", "kingswood": "consolidate-power", "shipbreaker-bay": "support"},
    },
    "marches3": {
        "players": 3, "start": "marches", "halt": False,
        "orders": {"winterfell": "march", "white-harbor": "march-minus-one", "the-shivering-sea": "support",
                   "lannisport": "march-plus-one", "stoney-sept": "defense-plus-one", "the-golden-sound": "support",
                   "dragonstone": "march", "kingswood": "consolidate-power", "shipbreaker-bay": "support"},
    },
    # the middle of the marches, for the map's last moves: Lannister's Raid took Baratheon's
    # Consolidate Power in Blackwater, Baratheon and Lannister have marched; Stark marches next
    "moves3": {
        "players": 3, "start": "action", "halt": False,
        "units": {"blackwater": {"house": "baratheon", "units": ["footman"]}},
        "orders": {"winterfell": "march", "white-harbor": "march-minus-one", "the-shivering-sea": "raid",
                   "lannisport": "march-plus-one", "stoney-sept": "raid", "the-golden-sound": "consolidate-power",
                   "dragonstone": "march", "kingswood": "consolidate-power", "shipbreaker-bay": "support",
                   "blackwater": "consolidate-power"},
        "steps": [["lannister", {"type": "raid", "area": "stoney-sept", "target": "blackwater"}],
                  ["stark", {"type": "raid", "area": "the-shivering-sea", "target": None}],
                  ["baratheon", {"type": "march", "area": "dragonstone", "leave_power": False,
                                 "moves": [{"to": "crackclaw-point", "units": ["knight", "footman"]}]}],
                  ["lannister", {"type": "march", "area": "lannisport", "leave_power": False,
                                 "moves": [{"to": "searoad-marches", "units": ["knight"]}]}]],
    },
    "clash3": {"players": 3, "start": {"cards": ["clash-of-kings"]}, "halt": False},
    "muster3": {"players": 3, "start": "mustering", "halt": False},
    # Baratheon at supply 0: Dragonstone's army cannot grow (land units greyed, with the reason)
    "muster3_supply": {"players": 3, "start": "mustering", "halt": False, "supply": {"baratheon": 0}},
    # Rains of Autumn forbids March +1 orders this round
    "rains3": {"players": 3, "start": {"cards": ["rains-of-autumn"]}, "halt": False},
    "westeros3": {"players": 3, "start": "westeros", "halt": False, "round": 1},
    "supply3": {
        "players": 3, "start": {"cards": ["supply"]}, "halt": False, "supply": {"stark": 0},
        "units": {"winterfell": {"house": "stark", "units": ["footman", "knight", "footman"]}},
    },
    "combat3": COMBAT3,
    # Baratheon attacks The Twins from The Fingers with Patchface: after the battle it discards a
    # card of Stark's hand
    "combat3_patchface": {**COMBAT3, "turn": "baratheon",
                          "orders": {**COMBAT3["orders"], "the-fingers": "march", "seagard": "support"},
                          "steps": [["baratheon", {"type": "march", "area": "the-fingers", "leave_power": False,
                                                   "moves": [{"to": "the-twins", "units": ["knight"]}]}],
                                    ["lannister", {"type": "choose", "option": "none"}],
                                    ["stark", {"type": "select_card", "card": "catelyn-stark"}],
                                    ["baratheon", {"type": "select_card", "card": "patchface"}]]},
    # Stark attacks Seagard and wins with Robb Stark: Stark chooses where Lannister retreats
    "combat3_robb": {**COMBAT3, "turn": "stark",
                     "units": {**COMBAT3["units"], "the-twins": {"house": "stark", "units": ["knight", "knight", "footman"]}},
                     "orders": {**COMBAT3["orders"], "the-twins": "march", "seagard": "defense-plus-one"},
                     "steps": [["stark", {"type": "march", "area": "the-twins", "leave_power": False,
                                          "moves": [{"to": "seagard", "units": ["knight", "knight", "footman"]}]}],
                               ["stark", {"type": "select_card", "card": "robb-stark"}],
                               ["lannister", {"type": "select_card", "card": "cersei-lannister"}],
                               ["lannister", {"type": "choose", "option": "pass"}]]},
    # a crowded late game (the board's screenshots): six houses, round 8, orders revealed
    # (specials among them), full armies next to each other, routed units, ships in ports and
    # seas, siege engines, power tokens, garrisons and the neutral forces still standing
    "crowded6": {
        "players": 6, "round": 8, "start": "action", "halt": False, "board": "start",
        "units": {
            "winterfell": {"house": "stark", "units": ["knight", "knight", "footman", "siege_engine"]},
            "white-harbor": {"house": "stark", "units": ["footman", {"type": "footman", "routed": True}]},
            "port-of-white-harbor": {"house": "stark", "units": ["ship", "ship"]},
            "the-narrow-sea": {"house": "stark", "units": ["ship", "ship", "ship"]},
            "moat-cailin": {"house": "stark", "units": ["knight", "footman", "footman"]},
            "the-twins": {"house": "greyjoy", "units": ["knight", {"type": "knight", "routed": True}, "footman"]},
            "seagard": {"house": "greyjoy", "units": ["footman", "footman", "siege_engine"]},
            "pyke": {"house": "greyjoy", "units": ["knight", "footman"]},
            "port-of-pyke": {"house": "greyjoy", "units": ["ship", "ship", "ship"]},
            "ironmans-bay": {"house": "greyjoy", "units": ["ship", "ship"]},
            "riverrun": {"house": "lannister", "units": ["knight", "knight", "footman", "footman"]},
            "lannisport": {"house": "lannister", "units": ["footman", "siege_engine"]},
            "the-golden-sound": {"house": "lannister", "units": ["ship", {"type": "ship", "routed": True}]},
            "harrenhal": {"house": "lannister", "units": ["knight", {"type": "footman", "routed": True}]},
            "highgarden": {"house": "tyrell", "units": ["knight", "knight", "footman"]},
            "oldtown": {"house": "tyrell", "units": ["footman", "footman"]},
            "redwyne-straights": {"house": "tyrell", "units": ["ship", "ship"]},
            "dornish-marches": {"house": "tyrell", "units": ["knight", "siege_engine"]},
            "kings-landing": {"house": "baratheon", "units": ["knight", "knight", "footman", "siege_engine"]},
            "dragonstone": {"house": "baratheon", "units": ["footman", "footman"]},
            "shipbreaker-bay": {"house": "baratheon", "units": ["ship", "ship", "ship"]},
            "blackwater-bay": {"house": "baratheon", "units": ["ship"]},
            "sunspear": {"house": "martell", "units": ["knight", "footman", "footman"]},
            "yronwood": {"house": "martell", "units": ["knight", {"type": "footman", "routed": True}]},
            "sea-of-dorne": {"house": "martell", "units": ["ship", "ship"]},
            "salt-shore": {"house": "martell", "units": ["footman"]},
        },
        "orders": {
            "winterfell": "march-plus-one", "white-harbor": "defense-plus-one", "port-of-white-harbor": "raid",
            "the-narrow-sea": "support", "moat-cailin": "defense-plus-two",
            "the-twins": "march", "seagard": "support", "pyke": "consolidate-power", "port-of-pyke": "raid",
            "ironmans-bay": "special-raid",
            "riverrun": "march-plus-one", "lannisport": "consolidate-power", "the-golden-sound": "support",
            "harrenhal": "defense-plus-one",
            "highgarden": "march", "oldtown": "special-consolidate-power", "redwyne-straights": "raid",
            "dornish-marches": "support-plus-one",
            "kings-landing": "defense-plus-two", "dragonstone": "raid", "shipbreaker-bay": "support",
            "blackwater-bay": "march-minus-one",
            "sunspear": "march", "yronwood": "support", "sea-of-dorne": "raid", "salt-shore": "consolidate-power",
        },
        "neutral": {"kings-landing": None},
        "power_tokens": {"the-reach": "tyrell", "castle-black": "stark", "stoney-sept": "lannister",
                         "starfall": "martell", "kingswood": "baratheon", "flints-finger": "greyjoy"},
    },
    # the same battle tied at 5 (no support, Cersei Lannister against The Blackfish, the Blade not
    # used): Lannister wins by the Fiefdoms track; Cersei's order removal comes next, then Stark's
    # retreat (The Blackfish: no casualties)
    "combat3_tie": {**COMBAT3, "steps": [COMBAT3_MARCH, ["baratheon", {"type": "choose", "option": "none"}],
                                          ["stark", {"type": "select_card", "card": "the-blackfish"}],
                                          ["lannister", {"type": "select_card", "card": "cersei-lannister"}],
                                          ["lannister", {"type": "choose", "option": "pass"}]]},
    # the same battle with Tides of Battle, at the house cards (support declared)
    "combat3_tides": {**COMBAT3, "options": {"tides_of_battle": True},
                      "steps": [COMBAT3_MARCH, ["baratheon", {"type": "choose", "option": "defender"}]]},
    # --- the 1st edition ---
    "agot1_start3": {"new_game": 3, "ruleset": "agot1"},
    "agot1_start4": {"new_game": 4, "ruleset": "agot1"},
    "agot1_start5": {"new_game": 5, "ruleset": "agot1"},
    # Lannister's special Raid in Harrenhal may remove two of the orders next to it: Stark's
    # Support in Riverrun and Consolidate Power in Crackclaw Point, Baratheon's Raid in Blackwater;
    # never Stark's Defense in The Mountains of the Moon (which a river keeps apart anyway) nor
    # Baratheon's Defense in Stoney Sept
    "agot1_raid2": {
        "ruleset": "agot1", "players": 3, "board": "empty", "start": "action", "halt": False,
        "units": {"harrenhal": {"house": "lannister", "units": ["knight"]},
                  "riverrun": {"house": "stark", "units": ["footman"]},
                  "crackclaw-point": {"house": "stark", "units": ["footman"]},
                  "blackwater": {"house": "baratheon", "units": ["footman"]},
                  "stoney-sept": {"house": "baratheon", "units": ["footman"]},
                  "lannisport": {"house": "lannister", "units": ["footman"]}},
        "orders": {"harrenhal": "special-raid", "riverrun": "support", "crackclaw-point": "consolidate-power",
                   "blackwater": "raid", "stoney-sept": "defense-plus-one", "lannisport": "consolidate-power"},
        "tracks": {"iron_throne": ["lannister", "stark", "baratheon"]},
    },
    # the Messenger Raven of the 1st edition (Lannister leads the King's Court): replace an order or not
    "agot1_raven3": {"ruleset": "agot1", "players": 3, "start": "raven", "halt": False,
                     "orders": {"winterfell": "march", "white-harbor": "support", "the-shivering-sea": "raid",
                                "lannisport": "march", "stoney-sept": "defense-plus-one", "the-golden-sound": "support",
                                "dragonstone": "march", "kingswood": "consolidate-power", "shipbreaker-bay": "support"}},
    # a Wildling Attack card the wildlings win: every house removes units worth 2 mustering
    # points, the lowest bidder 2 more (1st edition, 野蛮人胜利)
    "agot1_wildlings3": {
        "ruleset": "agot1", "players": 3, "start": {"cards": ["wildlings-attack"]}, "halt": False, "threat": 10,
        "units": {"winterfell": {"house": "stark", "units": ["knight", "footman", "footman"]},
                  "white-harbor": {"house": "stark", "units": ["footman", "knight"]}},
    },
}

_lock = threading.Lock()
_games: dict[str, dict] = {}
_ids = itertools.count(1)


def _enabled() -> None:
    if not getattr(settings, "UI_HARNESS", False):
        raise Http404("the UI harness is off (GOTWEB_UI_HARNESS=1 turns it on)")


def rules_of(state):
    """The ruleset object of ``state``'s edition (``agot2`` or ``agot1``)."""
    return RULESETS[state.edition]


def new_position(name: str):
    """The engine state of the named position; KeyError for an unknown name."""
    spec = dict(POSITIONS[name])
    if "new_game" in spec:
        return RULESETS[spec.get("ruleset", "agot2")].new_game(spec["new_game"], 1)
    steps = spec.pop("steps", [])
    state = build(spec)
    for house, action in steps:
        state = rules_of(state).apply(state, house, action)
    return state


def client_state(state, viewer: str | None, lang: str) -> dict:
    """What live play pushes to one viewer: ``{view, pending, version, log}``."""
    v = rules_of(state).view(state, viewer)
    return {
        "view": v,
        "pending": v["pending"],
        "version": v["version"],
        "log": [describe(e, lang, state.edition) for e in v["events"]][-60:],
    }


def _viewer(request, game) -> str | None:
    who = request.GET.get("viewer") or None
    return who if who in game["state"].houses else None


def _game(gid: str) -> dict:
    try:
        return _games[gid]
    except KeyError:
        raise Http404("no such harness game") from None


def start(request):
    """Create a game from ``?position=`` (default ``start3``) and redirect to its page."""
    _enabled()
    name = request.GET.get("position", "start3")
    if name not in POSITIONS:
        raise Http404(f"unknown position {name!r}; one of {sorted(POSITIONS)}")
    with _lock:
        gid = str(next(_ids))
        _games[gid] = {"state": new_position(name), "sent": [], "position": name}
    viewer = request.GET.get("viewer", "")
    lang = request.GET.get("lang", "")
    return redirect(f"/harness/agot2/{gid}/?viewer={viewer}" + (f"&lang={lang}" if lang else ""))


def page(request, gid: str):
    _enabled()
    game = _game(gid)
    if request.GET.get("lang"):
        from django.utils import translation

        translation.activate(request.GET["lang"])
    viewer = _viewer(request, game)
    lang = "zh-hans" if (get_language() or "").startswith("zh") else "en"
    edition = game["state"].edition
    config = {"gid": gid, "viewer": viewer, "lang": lang, "houses": list(game["state"].houses), "board": edition}
    from game.rules import get_ruleset
    from game.site.preload import page_preloads  # the game page's preloads, as on the live page

    preload = page_preloads(get_ruleset(edition), lang, "js/harness/agot2_client.js", "js/board/screen.js", "js/topbar.js")
    return render(request, "game/harness_agot2.html", {"config": json.dumps(config), "gid": gid, "viewer": viewer,
                                                        "houses": game["state"].houses, "position": game["position"],
                                                        "preload": preload})


def state(request, gid: str):
    _enabled()
    game = _game(gid)
    lang = request.GET.get("lang", "en")
    return JsonResponse(client_state(game["state"], _viewer(request, game), lang))


@csrf_exempt
def act(request, gid: str):
    _enabled()
    if request.method != "POST":
        return JsonResponse({"ok": False, "error": {"code": "http.method", "message": "POST only", "params": {}}}, status=405)
    game = _game(gid)
    try:
        body = json.loads(request.body)
        actor, action = body["actor"], body["action"]
    except (ValueError, KeyError, TypeError):
        return JsonResponse({"ok": False, "error": {"code": "action.malformed", "message": "Expected {actor, action}.", "params": {}}})
    with _lock:
        try:
            game["state"] = rules_of(game["state"]).apply(game["state"], actor, action)
            game["sent"].append({"actor": actor, "action": action, "ok": True})
            return JsonResponse({"ok": True})
        except IllegalAction as exc:
            game["sent"].append({"actor": actor, "action": action, "ok": False, "code": exc.code})
            return JsonResponse({"ok": False, "error": exc.as_dict()})


def sent(request, gid: str):
    _enabled()
    return JsonResponse(_game(gid)["sent"], safe=False)


urlpatterns = [
    path("agot2/", start, name="harness-agot2"),
    path("agot2/<str:gid>/", page, name="harness-agot2-page"),
    path("agot2/<str:gid>/state", state, name="harness-agot2-state"),
    path("agot2/<str:gid>/act", act, name="harness-agot2-act"),
    path("agot2/<str:gid>/sent", sent, name="harness-agot2-sent"),
]

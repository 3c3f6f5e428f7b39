"""A development harness for The Duke's board UI: ``/duke/harness/`` (only with the setting
``DUKE_HARNESS``; 404 otherwise, so it never exists in production).

The page mounts ``static/js/rulesets/duke.js`` with a fake client (``static/js/duke/harness.js``)
that plays through the real engine here, in this process, without lobby, login or websocket:

* ``GET /duke/harness/?game=<name>&seat=light|dark|<empty: spectator>&lang=en|zh-hans``
  ``[&seed=<int>][&bot=<seat>:<level>][&options=mountain,dragon,...][&scenario=<name>]`` -- the
  page; the game ``<name>`` is created on first use with that seed, bot and options, or from one
  of the positions in :data:`SCENARIOS` (Light to move).
* ``GET /duke/harness/api/<name>/?seat=...`` -- ``{"view", "pending", "version"}`` as live play
  sends it (``pending``: full decisions for this seat, ``{actor, kind, simultaneous}`` for others).
* ``POST /duke/harness/api/<name>/`` with ``{"seat", "action"}`` -- ``{"ok": true}`` or
  ``{"ok": false, "error": {code, message, params}}``. A bot seat answers at once.

Games live in a dict of this process (enough for one daphne or runserver process).
"""

from __future__ import annotations

import json
import threading

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt

from game.rules import IllegalAction, get_ruleset

RULES = get_ruleset("duke")

#: named positions (``scenario.build`` arguments) for trying the rarer parts of the interface
SCENARIOS: dict[str, dict] = {
    # Command (General on c3 commands the Footman on b3), a Slide into the Dragon (Priest e2 ->
    # c4: choose its facing), Summon (Duchess), Divination (Oracle back side up), the Mountain
    "showcase": {
        "tiles": {
            "c1": "light duke", "b1": "light footman", "c3": "light general back", "b3": "light footman back",
            "a2": "light oracle back", "f1": "light duchess", "e2": "light priest", "a5": "light assassin",
            "d6": "dark duke", "d2": "dark footman", "e5": "dark footman", "b6": "dark pikeman",
        },
        "mountain": "f3",
        "dragon": ("c4", "e"),
        "options": {"duchess": True, "oracle": True},
    },
    # Light's Duke in Guard: the dark Pikeman on d2 can take it
    "guard": {
        "tiles": {"c1": "light duke", "b1": "light footman", "c2": "light footman", "d6": "dark duke", "d2": "dark pikeman"},
    },
}
_GAMES: dict[str, dict] = {}
_LOCK = threading.Lock()


def _enabled() -> None:
    if not getattr(settings, "DUKE_HARNESS", False):
        raise Http404("the Duke harness is off")


def _parse_bot(raw: str) -> dict[str, str]:
    bots = {}
    for part in filter(None, raw.split(",")):
        seat, _, level = part.partition(":")
        if seat in ("light", "dark"):
            bots[seat] = level or "basic"
    return bots


def _game(name: str, params) -> dict:
    with _LOCK:
        g = _GAMES.get(name)
        if g is None:
            try:
                seed = int(params.get("seed", "1"))
            except ValueError:
                seed = 1
            options = {k: True for k in params.get("options", "").split(",") if k in RULES.default_options}
            scenario = SCENARIOS.get(params.get("scenario", ""))
            if scenario:
                from game.rules.duke.scenario import build

                state = build(**scenario, seed=seed)
            else:
                state = RULES.new_game(2, seed, options)
            g = _GAMES[name] = {
                "state": state,
                "version": 0,
                "bots": _parse_bot(params.get("bot", "")),
                "seed": seed,
            }
            _run_bots(g)
        return g


def _run_bots(g: dict) -> None:
    while True:
        pend = RULES.pending(g["state"])
        if not pend or pend[0].actor not in g["bots"]:
            return
        actor = pend[0].actor
        action = RULES.bot_action(g["state"], actor, g["bots"][actor], g["seed"] + g["version"])
        g["state"] = RULES.apply(g["state"], actor, action)
        g["version"] += 1


def _payload(g: dict, seat: str | None) -> dict:
    pending = [
        d.as_dict() if d.actor == seat else {"actor": d.actor, "kind": d.kind, "simultaneous": d.simultaneous}
        for d in RULES.pending(g["state"])
    ]
    return {"view": RULES.view(g["state"], seat), "pending": pending, "version": g["version"], "log": []}


def harness_page(request: HttpRequest) -> HttpResponse:
    _enabled()
    seat = request.GET.get("seat") or None
    if seat not in (None, "light", "dark"):
        seat = None
    name = request.GET.get("game", "default")[:40]
    _game(name, request.GET)
    lang = "zh-hans" if request.GET.get("lang", "").startswith("zh") else "en"
    ctx = {"game": name, "seat": seat or "", "lang": lang}
    return render(request, "game/duke_harness.html", ctx)


@csrf_exempt
def harness_api(request: HttpRequest, name: str) -> JsonResponse:
    _enabled()
    g = _game(name, request.GET)
    if request.method == "POST":
        try:
            data = json.loads(request.body or b"{}")
        except ValueError:
            data = {}
        seat = data.get("seat") if isinstance(data, dict) else None
        if seat not in ("light", "dark"):
            err = IllegalAction("turn.spectator", "spectators cannot act")
            return JsonResponse({"ok": False, "error": err.as_dict()})
        with _LOCK:
            try:
                action = RULES.parse_action(data.get("action"))
                g["state"] = RULES.apply(g["state"], seat, action)
            except IllegalAction as e:
                return JsonResponse({"ok": False, "error": e.as_dict()})
            g["version"] += 1
            _run_bots(g)
        return JsonResponse({"ok": True})
    seat = request.GET.get("seat") or None
    return JsonResponse(_payload(g, seat if seat in ("light", "dark") else None))

"""What one viewer may see: ``view(state, viewer)`` (隐藏信息 / Hidden
information).

Public: the board (units, routed state, power tokens, garrisons, neutral forces), revealed
orders, tracks and dominance tokens, supply, available power, victory counts, threat, the
Westeros cards being resolved, house card hands and discards (public in this game except while
a card is being chosen in combat: then the two fighting houses' hands are shown only to
themselves), deck sizes, revealed bids, the combat in progress (``combat``: sides, units,
supports, strengths, cards once revealed; see :func:`combat_view`), the plain-language
event log and what it did to the board since the latest orders were revealed (``recent``, see
:mod:`.recent`).

Hidden (absent unless the viewer owns it): face-down orders while being placed (only *who* has
placed), bids not yet revealed (only who has bid), deck order, the top wildling card (only the
Messenger Raven holder who looked at it, while it stays on top), the random generator, other
houses' decision options, a face-down house card or an unrevealed Tides of Battle card (only its
owner sees it, as ``combat.my_card`` / ``combat.my_tides``).
"""

from __future__ import annotations

from typing import Any

from .control import castle_count, pool_left
from .data import DOMINANCE, board
from .combat import current as current_combat
from .combat import icons, pairs_get, shown_parts
from .combat_result import sword_casualties
from .flow import current_decisions, may_withdraw, ready
from .victory import castles_to_win
from .recent import recent
from .state import State, events, events_told


def view(state: State, viewer: str | None) -> dict[str, Any]:
    """The JSON-able view of ``state`` for ``viewer`` (a house id in play, or None): the
    :func:`shared_view` followed by the viewer's :func:`own_view`."""
    return {**shared_view(state), **own_view(state, viewer)}


def shared_view(state: State) -> dict[str, Any]:
    """The part of every viewer's view that is the same for all of them (the board, the tracks,
    who has placed orders or bid, revealed bids, decks' sizes, ``ready``: the houses that have
    answered the face-down decision in progress, :func:`.flow.ready`...). A server renders it once per
    state however many sockets watch; its keys never appear in :func:`own_view`."""
    b = board(state)
    out: dict[str, Any] = {
        "ruleset": state.edition,
        "version": state.version,
        "players": state.players,
        "houses": list(state.houses),
        "round": state.round,
        "phase": state.phase,
        "threat": state.threat,
        "tracks": {t: list(v) for t, v in state.tracks.items()},
        "dominance": {DOMINANCE[t]: v[0] for t, v in state.tracks.items()},
        "blade_used": bool(state.flags.get("blade_used")),
        "raven_used": bool(state.flags.get("raven_used")),
        "forbidden": sorted(state.flags.get("forbidden", ())),
        "footmen_no_support": bool(state.flags.get("footmen_no_support")),
        "supply": dict(state.supply),
        "power": dict(state.power),
        "power_pool": {h: pool_left(state, h) for h in state.houses},
        "victory": {h: castle_count(state, h) for h in state.houses},
        "castles_to_win": castles_to_win(state),
        "units": {
            a: {"house": us[0][0], "units": [{"type": u[1], "routed": u[2]} for u in us]} for a, us in sorted(state.units.items())
        },
        "power_tokens": dict(sorted(state.power_tokens.items())),
        "garrisons": {a: {"house": g[0], "strength": g[1]} for a, g in sorted(state.garrisons.items())},
        "neutral": dict(sorted(state.neutral.items())),
        "blocked": sorted(state.blocked),
        "orders": {a: {"house": h, "token": t, "type": b.order_tokens[t].type} for a, (h, t) in sorted(state.orders.items())},
        "discards": {h: list(v) for h, v in state.discards.items()},
        "decks": {k: len(v) for k, v in state.decks.items()},
        "westeros_cards": list(state.ctx.get("westeros_cards", ())),
        "result": state.result,
        # what just happened on the board (public events only): the map's marks (recent.py)
        "recent": recent(state),
    }
    if state.placed or any(t[0] == "place_orders" for t in state.tasks[:1]):
        out["orders_placed"] = sorted(state.placed)
        # which areas hold a face-down order (not which order): public, matters when houses
        # place in turn order (没有足够的指令标记了？)
        out["placed_areas"] = {h: sorted(a for a, _ in orders) for h, orders in sorted(state.placed.items())}
    if "bids" in state.ctx:
        out["bids_placed"] = sorted(dict(state.ctx["bids"]))
    if "revealed_bids" in state.ctx:
        out["revealed_bids"] = dict(state.ctx["revealed_bids"])
    waiting_on_others = ready(state)
    if waiting_on_others:
        # who has answered the face-down decision in progress (the seat list marks them ready)
        out["ready"] = waiting_on_others
    return out


def own_view(state: State, viewer: str | None, pending: list | None = None) -> dict[str, Any]:
    """The part of the view that depends on ``viewer``: ``viewer`` itself, the house card hands
    (hidden during a combat's card choice), the viewer's face-down orders, bid and look at the
    top wildling card, the combat as the viewer sees it, the pending decisions (options only for
    the viewer's own), ``may_withdraw`` (present and True while the viewer's face-down answer can
    still be taken back: :func:`.flow.may_withdraw`) and the events told to the viewer.
    ``pending``: :func:`.flow.current_decisions` of ``state``, when the caller has them (live play
    renders 7 viewers of a state; their options are then worked out once)."""
    if viewer is not None and viewer not in state.houses:
        viewer = None
    out: dict[str, Any] = {"viewer": viewer, "hands": {h: list(v) for h, v in state.hands.items()}}
    if viewer in state.placed:
        out["my_orders"] = dict(state.placed[viewer])
    decisions = current_decisions(state) if pending is None else pending
    if may_withdraw(state, viewer, decisions):
        # the viewer's face-down answer may still be taken back (the page offers "Change")
        out["may_withdraw"] = True
    if "bids" in state.ctx:
        got = dict(state.ctx["bids"])
        if viewer in got:
            out["my_bid"] = got[viewer]
    saw = state.ctx.get("raven_saw")
    if saw and viewer == saw[0] and state.decks["wildling"] and state.decks["wildling"][0] == saw[1]:
        out["wildling_top"] = saw[1]
    fight = combat_view(state, viewer)
    if fight is not None:
        out["combat"] = fight
        c = state.ctx["combat"]
        if c.step == "cards":  # 选择并打出家族卡牌: hands are not public while cards are chosen
            for h in (c.attacker, c.defender):
                if h != viewer:
                    out["hands"].pop(h, None)
    pend = []
    for d in decisions:
        item = {"actor": d.actor, "kind": d.kind, "simultaneous": d.simultaneous}
        if viewer == d.actor:
            item["options"] = dict(d.options)
        pend.append(item)
    out["pending"] = pend
    out["events"] = events_told(state, viewer)
    return out


def combat_view(state: State, viewer: str | None) -> dict[str, Any] | None:
    """``view(...)["combat"]``: the combat in progress as every viewer sees it (plus, for the two
    sides, their own face-down card and Tides card). Once the cards are revealed, ``icons``
    (``{house: {"swords", "fortifications"}}``, card, ability and Tides card together, as
    :func:`.combat.icons`); once the winner is known, ``casualties`` (the winner's swords minus the
    loser's fortifications, at least 0: the units the loser loses to swords)."""
    c = current_combat(state)
    if c is None or state.result is not None:
        return None
    out: dict[str, Any] = {
        "attacker": c.attacker,
        "defender": c.defender,
        "origin": c.origin,
        "area": c.area,
        "step": c.step,
        "attacking_units": list(c.units),
        "defending_units": [t for (h, t, r) in state.units_of(c.area) if h == c.defender and not r],
        "garrison": (state.garrisons.get(c.area) or (None, 0))[1] if (state.garrisons.get(c.area) or (None,))[0] == c.defender else 0,
        "march_token": c.march_token,
        "supports": [{"house": h, "area": a, "side": s} for (h, a, s) in c.supports],
        "chosen": sorted(h for h, _ in c.chosen),
        "base": dict(c.base),
        "blade": c.blade,
        "parts": {h: shown_parts(state, h) for h in (c.attacker, c.defender)},
    }
    if c.revealed:
        out["cards"] = dict(c.cards)
        # the icons that count for casualties (card, its ability, a revealed Tides card)
        out["icons"] = {h: dict(zip(("swords", "fortifications"), icons(state, h))) for h in (c.attacker, c.defender)}
    if c.tides_revealed:
        out["tides"] = dict(c.tides)
    elif c.tides:
        out["tides_drawn"] = sorted(h for h, _ in c.tides)
        if viewer in dict(c.tides):
            out["my_tides"] = pairs_get(c.tides, viewer)
    if c.final:
        out["strength"] = dict(c.final)
        out["winner"] = c.winner
        out["loser"] = c.loser
        # 伤亡 / Casualties: the winner's swords minus the loser's fortifications (no fewer than 0)
        out["casualties"] = sword_casualties(state)
    if viewer is not None and pairs_get(c.chosen, viewer) is not None:
        out["my_card"] = pairs_get(c.chosen, viewer)
    return out


def open_view(state: State, viewer: str | None) -> dict[str, Any]:
    """:func:`view` with every hidden item shown, for the replay of a game that is over (the box
    opened: no secret is left to keep). Besides ``view(state, viewer)``: every house's hand (also
    while combat cards are chosen), ``open_orders`` (``{area: {"house", "token"}}``, every
    face-down order placed and not yet revealed), ``open_bids`` (``{house: power}``, bids not yet
    revealed), ``combat.open_cards`` / ``combat.open_tides`` (``{house: card}``, chosen and
    drawn but face down), ``wildling_top`` (the top wildling card) and every event, private ones
    included. The random generator and the deck order below the top stay out: they are no
    player's information, ever."""
    out = view(state, viewer)
    out["open"] = True
    out["hands"] = {h: list(v) for h, v in state.hands.items()}
    out["open_orders"] = {a: {"house": h, "token": t} for h, orders in sorted(state.placed.items()) for a, t in orders}
    if "bids" in state.ctx:
        out["open_bids"] = dict(state.ctx["bids"])
    if state.decks.get("wildling"):
        out["wildling_top"] = state.decks["wildling"][0]
    c = current_combat(state)
    if "combat" in out and c is not None:
        out["combat"] = {**out["combat"], "open_cards": dict(c.chosen), "open_tides": dict(c.tides)}
    out["events"] = list(events(state))
    return out


def progress(state: State) -> dict[str, Any]:
    """``{"round": int, "phase": str}``: the round (1-10) and phase (``"westeros"``,
    ``"planning"``, ``"action"``, ``"over"``...) ``state`` stands in."""
    return {"round": state.round, "phase": state.phase}

"""Self-play: bots play whole AGoT games (pure, deterministic); used by ``manage.py selfplay``.

:func:`play_game` plays one game and returns its summary and log; :func:`play_games` a series;
:func:`replay` folds a log back into states (a game is its log);
:func:`check_invariants` asserts the rules' invariants on a state and :class:`LastCardCheck` those
that span a combat (both used after every action when asked, and by the tests).
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from . import RULESETS
from .actions import parse_action, to_json
from .control import pool_left, within_supply
from .data import board
from .edition import edition

__all__ = ["play_game", "play_games", "replay", "game_seed", "check_invariants", "LastCardCheck", "InvariantBroken", "seat_levels"]

LEVEL_CHOICES = ("random", "basic", "mixed")


class InvariantBroken(AssertionError):
    """A state broke a rule invariant (a bug in the engine)."""


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a series started with ``seed`` (deterministic, 0..2**62)."""
    x = (seed * 1_000_003 + index * 7_919 + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 31
    x = (x * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x ^= x >> 29
    return x >> 2


def seat_levels(players: int, bots: str | Sequence[str] | Mapping[str, str], index: int = 0, ruleset: str = "agot2") -> dict[str, str]:
    """``{house: level}``: ``"random"``/``"basic"`` for everyone, ``"mixed"`` (one basic bot, the
    seat rotating with ``index``, the others random), a list by seat order, or a mapping."""
    seats = RULESETS[ruleset].seats(players)
    if isinstance(bots, Mapping):
        return {h: bots[h] for h in seats}
    if isinstance(bots, str):
        if bots == "mixed":
            return {h: ("basic" if i == index % players else "random") for i, h in enumerate(seats)}
        return {h: bots for h in seats}
    return dict(zip(seats, bots))


def check_invariants(s: Any) -> None:
    """Raise :class:`InvariantBroken` unless ``s`` keeps the rules' invariants: one house per
    area, units on their terrain and within component limits, at most 3 ships per port, supply
    limits (except while a reduction is pending), power tokens 0..20 per house and conserved,
    orders only where the house has units, no combat in a port, tracks permutations of the
    houses, threat within the wildling track,
    each house's hand, discards and the card it has in the combat in progress partition its
    seven cards, and its hand is empty only while its last card is in play."""

    def need(cond: bool, msg: str) -> None:
        if not cond:
            raise InvariantBroken(msg)

    b = board(s)
    counts = {h: Counter() for h in s.houses}
    for area, us in s.units.items():
        need(bool(us), f"empty unit tuple in {area}")
        need(len({u[0] for u in us}) == 1, f"two houses in {area}")
        need(area not in s.blocked and area not in s.neutral, f"units in blocked/neutral {area}")
        for h, t, _ in us:
            need(t in b.unit_limits, f"unknown unit {t}")
            counts[h][t] += 1
            need((b.kind(area) in ("sea", "port")) == (t == "ship"), f"{t} on wrong terrain {area}")
        if b.kind(area) == "port":
            need(len(us) <= b.tracks["port_max_ships"], f"too many ships in {area}")
    for h, c in counts.items():
        for t, n in c.items():
            need(n <= b.unit_limits.get(t, 0), f"{h} has {n} {t}")
    reconciling = {t[1] for t in s.tasks if t[0] in ("reconcile",)} | {t[1] for t in s.tasks if len(t) > 1 and "supply" in str(t[0])}
    in_combat = "combat" in s.ctx
    combat = s.ctx.get("combat")
    # cards revealed in the combat in progress, until clean-up discards them; a game that ends
    # mid-combat (a seventh castle taken by a march or a retreat) leaves them in play
    live = combat is not None and combat.step != "after"
    in_play = {h: (cid,) for h, cid in (combat.cards if live else ()) if cid is not None and cid not in s.hands[h] + s.discards[h]}
    cards = {h: sorted(c["id"] for c in b.houses[h]["house_cards"]) for h in s.houses}
    for h in s.houses:
        if h not in reconciling and not in_combat:
            need(within_supply(s, h), f"{h} over supply")
        on_board = sum(1 for x in s.power_tokens.values() if x == h)
        need(0 <= s.power[h] <= 20, f"{h} power {s.power[h]}")
        need(s.power[h] + on_board + pool_left(s, h) == 20, f"{h} power not conserved")
        need(
            sorted(s.hands[h] + s.discards[h] + in_play.get(h, ())) == cards[h],
            f"{h} house cards do not partition",
        )
        # 家族卡牌: a house always has cards to play (an empty hand takes its discards back at
        # once); only its seventh card in play in the combat in progress leaves the hand empty
        need(bool(s.hands[h]) or h in in_play, f"{h} has no house card in hand")
    for area, (h, _tok) in s.orders.items():
        # the March order stays on its emptied origin until its march ends (Ser Loras Tyrell moves
        # it after combat), also when a seventh castle ends the game mid-march
        marching = combat is not None and area == combat.origin and h == combat.attacker
        # a card may destroy the defender's last unit before the fight (Mace Tyrell): its order
        # stays until the combat's clean-up removes it (清理战场)
        emptied = combat is not None and combat.step != "after" and area == combat.area and h == combat.defender
        need(s.owner(area) == h or marching or emptied or s.result is not None, f"order of {h} in {area} without its units")
    for area, h in s.power_tokens.items():
        need(b.is_land(area) and s.owner(area) in (None, h), f"power token in {area}")
    # 港口 / Ports: a port is never attacked directly, so no combat is ever fought in one
    need(combat is None or not b.is_port(combat.area), f"a combat in the port {combat.area if combat else ''}")
    for t, order in s.tracks.items():
        need(sorted(order) == sorted(s.houses), f"track {t} not a permutation")
    need(0 <= s.threat <= b.tracks["wildling_track"]["max"], "threat out of range")


def new_events(before: Any, after: Any) -> list[dict[str, Any]]:
    """The events ``after`` added to ``before``'s log (oldest first); none when ``after``'s log does
    not continue ``before``'s."""
    out = []
    node, stop = after.log, before.log
    while node is not None and node is not stop:
        out.append(node[0])
        node = node[1]
    if node is not stop:
        return []
    out.reverse()
    return out


class LastCardCheck:
    """The seventh card's invariant, over the actions of one game: after any combat in which a
    house played its last card, its cards are where the rule puts them. 1st ed. rulebook, 用掉的
    家族卡: "此时并不弃牌,而是将之前用掉的六张将军卡拿回手上。所有的将军卡重新在手上集全" - all seven in
    hand; 2nd ed. rulebook, 家族卡牌: the six others in hand, the last one discarded
    (:attr:`.edition.Edition.seventh_card`). Except as documented readings say: a card a text then
    takes from that hand stays discarded (the 1st edition's Melisandre, docs/agot1.md; the 2nd
    edition's Patchface, docs/scenarios.md), and a card its house keeps is in hand (Roose Bolton
    after a loss). A house whose card in play is replaced (Tyrion Lannister, Aeron Damphair) is not
    followed. Feed :meth:`step` every ``(before, after)`` pair of actions; it raises
    :class:`InvariantBroken`."""

    def __init__(self) -> None:
        #: house -> [card played, cards taken from its hand by a text, kept]
        self.last: dict[str, list[Any]] = {}

    def step(self, before: Any, after: Any) -> None:
        for ev in new_events(before, after):
            kind = ev["kind"]
            if kind == "house_cards_revealed":
                # the cards leave the hands at the reveal, in the action that chooses the last one
                self.last = {h: [cid, set(), False] for h, cid in ev["cards"].items() if cid is not None and tuple(before.hands[h]) == (cid,)}
            elif kind == "house_card_replaced":
                self.last.pop(ev["house"], None)
            elif kind == "house_card_ability" and ev.get("effect") in ("pay_discard_card", "discard_card") and ev.get("victim") in self.last:
                self.last[ev["victim"]][1].add(ev["discarded"])
            elif kind == "house_card_ability" and ev.get("effect") == "discards_to_hand" and ev["house"] in self.last:
                self.last[ev["house"]][2] = True
            elif kind == "combat_end":
                self._check(after)
                self.last = {}

    def _check(self, s: Any) -> None:
        b = board(s)
        all_back = edition(s).seventh_card == "all_back"
        for h, (played, taken, kept) in self.last.items():
            out = set(taken) | (set() if all_back or kept else {played})
            want = sorted(c["id"] for c in b.houses[h]["house_cards"] if c["id"] not in out)
            if sorted(s.hands[h]) != want:
                raise InvariantBroken(f"{h} played its last card {played}: hand {sorted(s.hands[h])}, expected {want}")


def play_game(
    players: int,
    seed: int,
    bots: str | Sequence[str] | Mapping[str, str] = "random",
    options: Mapping[str, Any] | None = None,
    check: bool = False,
    max_actions: int | None = None,
    on_state: Callable[[Any, str, Any, Any], None] | None = None,
    index: int = 0,
    ruleset: str = "agot2",
) -> dict[str, Any]:
    """Play one game of ``ruleset`` (``"agot2"``, ``"agot1"``) with bots; returns ``{"seed",
    "players", "bots" {house: level}, "winner", "winners" (a shared win), "winner_level",
    "reason", "rounds", "actions" (count), "ms", "log" [{"actor", "action"}], "options"}``.
    ``check`` runs :func:`check_invariants` and :class:`LastCardCheck` after every action
    (raising :class:`InvariantBroken`);
    ``max_actions`` bounds the game (then ``winner`` None, ``reason`` ``"unfinished"``). The bot
    of action ``i`` gets seed ``game_seed(seed, i)``."""
    RULES = RULESETS[ruleset]
    levels = seat_levels(players, bots, index, ruleset)
    t0 = time.perf_counter()
    state = RULES.new_game(players, seed, options or {})
    log: list[dict[str, Any]] = []
    last_card = LastCardCheck()
    if check:
        check_invariants(state)
    while RULES.result(state) is None:
        if max_actions is not None and len(log) >= max_actions:
            break
        ds = RULES.pending(state)
        if not ds:
            raise InvariantBroken("a running game has no pending decision")
        actor = ds[0].actor
        action = RULES.bot_action(state, actor, levels[actor], game_seed(seed, len(log)))
        after = RULES.apply(state, actor, action)
        if on_state is not None:
            on_state(state, actor, action, after)
        log.append({"actor": actor, "action": to_json(action)})
        if check:
            check_invariants(after)
            last_card.step(state, after)
        state = after
    ms = (time.perf_counter() - t0) * 1000
    res = RULES.result(state) or {"winner": None, "reason": "unfinished"}
    out = {
        "seed": seed,
        "players": players,
        "bots": levels,
        "winner": res["winner"],
        "winner_level": levels.get(res["winner"]) if res["winner"] else None,
        "reason": res["reason"],
        "rounds": state.round,
        "actions": len(log),
        "ms": round(ms, 1),
        "log": log,
        "options": dict(state.options),
    }
    if res.get("winners"):
        out["winners"] = list(res["winners"])
    if ruleset != "agot2":
        out["ruleset"] = ruleset
    return out


def play_games(
    players: int,
    n: int,
    seed: int,
    bots: str | Sequence[str] | Mapping[str, str] = "random",
    options: Mapping[str, Any] | None = None,
    check: bool = False,
    max_actions: int | None = None,
    ruleset: str = "agot2",
) -> Iterator[dict[str, Any]]:
    """Play ``n`` games (game ``i`` seeded ``game_seed(seed, i)``; with ``"mixed"`` the basic
    bot's seat rotates with ``i``), yielding each :func:`play_game` result as it ends."""
    for i in range(n):
        yield play_game(players, game_seed(seed, 10_000 + i), bots, options, check=check, max_actions=max_actions, index=i, ruleset=ruleset)


def replay(players: int, seed: int, options: Mapping[str, Any] | None, actions: Iterable[Mapping[str, Any]], ruleset: str = "agot2") -> Any:
    """The final state of a game of ``ruleset`` from its seed, options and ``[{"actor",
    "action"}]`` log. Raises :class:`IllegalAction` at the first action that is not legal."""
    RULES = RULESETS[ruleset]
    state = RULES.new_game(players, seed, options or {})
    for entry in actions:
        state = RULES.apply(state, entry["actor"], parse_action(entry["action"]))
    return state

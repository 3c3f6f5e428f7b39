"""Victory: 游戏胜利 / Winning the game (both editions; the differences are data and one switch).

* A house that controls its seventh area with a castle or stronghold wins at once (1st edition,
  三到四人游戏: "在三名玩家的游戏中,必须夺下8个城市/堡垒而非7个" - eight in a 3-player game;
  ``setups.json`` ``victory_points_to_win`` per player count).
* After round 10 the highest on the victory track wins; ties are broken by the keys of
  ``tracks.json`` ``victory_track.tiebreakers_printed_rulebook`` in order. 2nd edition (the
  printed rulebook overrides the FAQ order in the reference, see game/data/agot2/README.md): more
  strongholds, then higher supply, then more available power, then better Iron Throne position.
  1st edition (游戏获胜 a): "如果有多位玩家同数,则补给等级最高的人获胜。如果最高补给等级相同,就比
  可用权力的数量,再相同则平手": higher supply, then more available power, then a shared win
  (:attr:`.edition.Edition.shared_victory`; the result's ``winner`` is None and ``winners``
  lists the houses sharing it).
* When the players agree to stop before that (the site's vote, :func:`end_by_agreement`), the
  game is scored as the rulebook scores its end: Winning the Game (游戏胜利) - "the player
  controlling the most areas containing a castle or stronghold is the winner", ties broken by the
  same printed order as above (and, in the 1st edition, shared when still equal). The rulebook
  has no early end of its own, so the end it does describe is the one reading that is the game's
  own: no new rule, only an earlier moment. Reason ``agreed_end``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from .control import castle_count, stronghold_count
from .data import board
from .edition import edition
from .state import State

TIEBREAKERS: dict[str, Callable[[State, str], Any]] = {
    "most_strongholds_controlled": lambda s, h: -stronghold_count(s, h),
    "highest_supply": lambda s, h: -s.supply[h],
    "most_available_power": lambda s, h: -s.power[h],
    "best_iron_throne_position": lambda s, h: s.tracks["iron_throne"].index(h),
}


def _keys(state: State) -> list[str]:
    return list(board(state).tracks["victory_track"]["tiebreakers_printed_rulebook"])


def standing(state: State, house: str) -> tuple:
    """What the end of the game compares for ``house`` (smaller is better): castles, then the
    edition's tie-breakers."""
    return (-castle_count(state, house),) + tuple(TIEBREAKERS[k](state, house) for k in _keys(state))


def ranking(state: State) -> list[str]:
    """Houses best first by the end-of-game order (castles, then the edition's tie-breakers; the
    Iron Throne position orders houses still equal, for display)."""
    throne = state.tracks["iron_throne"]
    return sorted(state.houses, key=lambda h: standing(state, h) + (throne.index(h),))


@lru_cache(maxsize=None)
def _castles(edition_id: str) -> tuple[tuple[str, str | None], ...]:
    b = board(edition_id)
    return tuple((a, b.areas[a].home_of) for a in b.castle_areas)


def castles_to_win(state: State) -> int:
    """Castles and strongholds that win at once: the player count's ``victory_points_to_win``
    (1st edition: 8 at 3 players) or the game's."""
    b = board(state)
    return b.setup(state.players).get("victory_points_to_win", b.setups["victory_points_to_win"])


def check_victory(state: State) -> None:
    """Set ``state.result`` if a house holds enough castles/strongholds (:func:`castles_to_win`)."""
    if state.result is not None:
        return
    need = castles_to_win(state)
    counts: dict[str, int] = {}
    units, tokens, garrisons, houses = state.units, state.power_tokens, state.garrisons, state.houses
    for a, home in _castles(state.edition):
        u = units.get(a)
        if u:
            c = u[0][0]
        else:
            c = tokens.get(a)
            if c is None and home is not None and home in houses:  # as control.controller
                g = garrisons.get(a)
                c = home if g is None or g[0] == home else None
        if c is not None:
            counts[c] = counts.get(c, 0) + 1
    if max(counts.values(), default=0) < need:
        return
    for h in state.turn_order():
        if counts.get(h, 0) >= need:
            finish(state, h, "seven_castles" if need == 7 else "eight_castles")
            return


def finish(state: State, winner: str | None, reason: str, winners: list[str] | None = None) -> None:
    state.result = {
        "winner": winner,
        "reason": reason,
        "round": state.round,
        "ranking": ranking(state),
        "castles": {h: castle_count(state, h) for h in state.houses},
    }
    if winners:
        state.result["winners"] = list(winners)
    state.phase = "over"
    state.tasks = ()
    state.emit("game_over", winner=winner, reason=reason, **({"winners": list(winners)} if winners else {}))


def end_after_last_round(state: State) -> None:
    """The end of round 10 (游戏胜利 / Winning the game, case 1). With the 1st edition's shared
    victory, houses still equal after every tie-breaker share the win (reason ``shared``)."""
    order = ranking(state)
    if edition(state).shared_victory:
        best = standing(state, order[0])
        tied = [h for h in order if standing(state, h) == best]
        if len(tied) > 1:
            finish(state, None, "shared", tied)
            return
    finish(state, order[0], "round_limit")


#: the result's reason when the players agreed to end the game (``game.rules.base.AGREED_END``)
AGREED_END = "agreed_end"


def end_by_agreement(state: State) -> None:
    """The players agreed to end the game now: scored as the end of round 10 is (the most castles
    and strongholds, then the edition's tie-breakers; the 1st edition's houses still equal share
    the win), whatever the round. The result's ``reason`` is ``agreed_end`` and its ``round`` the
    round it stopped in."""
    order = ranking(state)
    if edition(state).shared_victory:
        best = standing(state, order[0])
        tied = [h for h in order if standing(state, h) == best]
        if len(tied) > 1:
            finish(state, None, AGREED_END, tied)
            return
    finish(state, order[0], AGREED_END)

"""A new game: 游戏设置 / Game Setup and 玩家少于六人 / Fewer than six players.

Houses in play, neutral force tokens (and 3-player "~" blocked areas), starting units (minus
3-player removals), home garrisons, influence tracks compressed toward position 1, 5 available
power each, wildling threat 2, supply and victory positions from the map, dominance tokens to the
track leaders, the three Westeros decks and the wildling deck shuffled by the game's own generator.
The game starts in the planning phase of round 1 (the Westeros phase is skipped in round 1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import IllegalAction
from .control import barrels
from .data import board
from .rng import shuffled
from .state import State


def new_game(players: int, seed: int, options: Mapping[str, Any]) -> State:
    """The initial state for ``players`` (3-6) players, deterministic in ``seed`` and ``options``.

    Raises:
        IllegalAction("setup.players", ...): fewer than 3 or more than 6 players.
    """
    b = board()
    if not isinstance(players, int) or not 3 <= players <= 6:
        raise IllegalAction("setup.players", "AGoT 2nd edition is for 3 to 6 players.", players=players)
    s = b.setup(players)
    houses = tuple(s["houses"])
    st = State(
        players=players,
        houses=houses,
        options=dict(options or {}),
        seed=int(seed),
        rng_n=0,
        round=1,
        phase="planning",
        threat=b.tracks["wildling_track"]["start"],
        blocked=frozenset(a for a, v in s["neutral_forces"].items() if v == "impassable") | frozenset(s["blocked_ports"]),
        tasks=(),
        log=None,
        result=None,
        version=0,
    )
    st.neutral = {a: v for a, v in s["neutral_forces"].items() if v != "impassable"}
    removed = [(u["area"], u["house"], u["type"]) for u in s["removed_starting_units"]]
    for h in houses:
        hd = b.houses[h]
        for u in hd["starting_units"]:
            key = (u["area"], h, u["type"])
            if key in removed:
                removed.remove(key)
                continue
            st.add_unit(u["area"], h, u["type"])
        st.garrisons[hd["home"]] = (h, hd["garrison"])
        st.power[h] = b.tracks["power_tokens"]["starting_available"]
        st.hands[h] = tuple(c["id"] for c in hd["house_cards"])
        st.discards[h] = ()
    st.tracks = {t: tuple(v) for t, v in s["influence_tracks"].items()}
    for h in houses:
        st.supply[h] = barrels(st, h)
    for deck, cards in b.westeros_decks.items():
        st.decks[deck] = shuffled(st, cards)
    st.decks["wildling"] = shuffled(st, tuple(sorted(b.wildling_cards)))
    if st.options.get("tides_of_battle"):
        from .combat import new_tides_deck

        st.decks["tides"] = shuffled(st, new_tides_deck())
        st.decks["tides_discard"] = ()
    st.flags = {"blade_used": False, "raven_used": False, "forbidden": frozenset()}
    st.emit("game_started", players=players, houses=list(houses))
    from .flow import run
    from .planning import start_round_planning

    start_round_planning(st)
    run(st)
    return st

"""A new game: 游戏设置 / Game Setup and 玩家少于六人 / Fewer than six players (2nd edition);
游戏初始设定 / Setup and 三到四人游戏 / Three or four players (1st edition).

Houses in play, neutral force tokens (and 3-player "~" blocked areas), starting units (minus
3-player removals), home garrisons, influence tracks compressed toward position 1, 5 available
power each, the wildling threat's start, supply from the house's start (``houses.json``
``starting_supply``, the House Start Card), dominance tokens to the track leaders, the three
Westeros decks and the wildling deck shuffled by the game's own generator. The game starts in
the planning phase of round 1 (the Westeros phase is skipped in round 1).

1st edition (:mod:`.edition`): no garrisons (houses have ``garrison`` 0), no wildling deck, no
Tides of Battle; 三到四人游戏: "仍需把该两家族的起始部队摆在游戏板上,如同中立势力一样(君临、阳戟和
艾林)。步兵有1点中立战力,骑兵有2点,船舰1点(复数部队累计之)" - the starting units of the houses not
in play become neutral forces of that strength in their areas (:func:`neutral_armies`).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import IllegalAction
from .data import board
from .edition import edition
from .rng import shuffled
from .state import State

#: neutral strength of an absent house's unit (1st ed. rulebook, 三到四人游戏)
NEUTRAL_STRENGTH = {"footman": 1, "knight": 2, "ship": 1}


def neutral_armies(edition_id: str, players: int) -> dict[str, int]:
    """``{area: strength}`` of the absent houses' starting units (1st edition, 三到四人游戏: footman
    1, knight 2, ship 1, summed per area); empty when the edition keeps no neutral armies."""
    b = board(edition_id)
    if not edition(edition_id).neutral_armies_from_absent_houses:
        return {}
    out: dict[str, int] = {}
    for h in b.setup(players).get("houses_not_in_play", ()):
        for u in b.houses[h]["starting_units"]:
            out[u["area"]] = out.get(u["area"], 0) + NEUTRAL_STRENGTH[u["type"]]
    return out


def new_game(players: int, seed: int, options: Mapping[str, Any], edition_id: str = "agot2") -> State:
    """The initial state for ``players`` players of ``edition_id`` (agot2: 3-6, agot1: 3-5),
    deterministic in ``seed`` and ``options``.

    Raises:
        IllegalAction("setup.players", ...): a player count the edition does not have.
    """
    ed = edition(edition_id)
    b = board(edition_id)
    if not isinstance(players, int) or not ed.min_players <= players <= ed.max_players:
        raise IllegalAction(
            "setup.players", f"{ed.names['en']} is for {ed.min_players} to {ed.max_players} players.", players=players
        )
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
        blocked=frozenset(a for a, v in s["neutral_forces"].items() if v == "impassable") | frozenset(s.get("blocked_ports", ())),
        tasks=(),
        log=None,
        result=None,
        version=0,
        edition=ed.id,
    )
    st.neutral = {a: v for a, v in s["neutral_forces"].items() if v != "impassable"}
    for a, n in neutral_armies(ed.id, players).items():
        st.neutral[a] = st.neutral.get(a, 0) + n
    removed = [(u["area"], u["house"], u["type"]) for u in s.get("removed_starting_units", ())]
    for h in houses:
        hd = b.houses[h]
        for u in hd["starting_units"]:
            key = (u["area"], h, u["type"])
            if key in removed:
                removed.remove(key)
                continue
            st.add_unit(u["area"], h, u["type"])
        if hd.get("garrison"):
            st.garrisons[hd["home"]] = (h, hd["garrison"])
        st.power[h] = b.tracks["power_tokens"]["starting_available"]
        st.hands[h] = tuple(c["id"] for c in hd["house_cards"])
        st.discards[h] = ()
        st.supply[h] = hd["starting_supply"]
    st.tracks = {t: tuple(v) for t, v in s["influence_tracks"].items()}
    for deck, cards in b.westeros_decks.items():
        st.decks[deck] = shuffled(st, cards)
    if b.wildling_cards:
        st.decks["wildling"] = shuffled(st, tuple(sorted(b.wildling_cards)))
    if st.options.get("tides_of_battle"):
        from .tides import new_tides_deck

        st.decks["tides"] = shuffled(st, new_tides_deck(st))
        st.decks["tides_discard"] = ()
    st.flags = {"blade_used": False, "raven_used": False, "forbidden": frozenset()}
    st.emit("game_started", players=players, houses=list(houses))
    from .flow import run
    from .planning import start_round_planning

    start_round_planning(st)
    run(st)
    return st

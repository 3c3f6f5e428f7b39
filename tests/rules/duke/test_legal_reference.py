"""The engine's fast paths agree with the plain definitions on positions from real games:
legal moves (Duke safety checked only against tiles aimed at the Duke) and threat detection."""

import random

from game.rules.duke.dragon import dragon_danger
from game.rules.duke.legal import legal_actions
from game.rules.duke.position import (
    SEATS,
    can_capture,
    can_capture_slow,
    duke_in_danger,
    duke_square,
    other,
    perform,
    pseudo_actions,
)
from game.rules.duke.selfplay import game_seed, play_game

ALL = {"mountain": True, "dragon": True, "duchess": True, "oracle": True}


def _positions(n_games):
    states = []
    for i in range(n_games):
        play_game(game_seed(77, i), ("random", "random"), ALL if i % 2 else None,
                  on_state=lambda b, a, act, after: states.append(after))
    return states


def test_fast_paths_match_the_definitions():
    rnd = random.Random(0)
    states = _positions(8)
    for s in rnd.sample(states, min(250, len(states))):
        pos = s.pos
        for seat in SEATS:
            for sq in range(36):
                assert can_capture(pos, seat, sq) == can_capture_slow(pos, seat, sq)
        if s.phase == "play":
            seat = s.to_move
            od = duke_square(pos, other(seat))
            ref = []
            for a, c in pseudo_actions(pos, seat):
                after = perform(pos, a).position
                if c is not None and c == od:
                    ref.append(a)
                elif not duke_in_danger(after, seat) and (
                    after.dragon is None or after.dragon != pos.dragon
                    or duke_square(after, seat) not in dragon_danger(after)
                ):
                    ref.append(a)
            assert ref == [a for a in legal_actions(s) if a[0] in ("move", "strike", "command")]

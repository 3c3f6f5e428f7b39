"""Hidden information: the bag's order and the random generator never reach a view; only bag
counts and the drawn tile are shown."""

import json
from dataclasses import replace

from .helpers import RULESET, build, play


def _played(seed=11, n=30, options=None):
    from game.rules.duke.selfplay import play_game

    states = []
    play_game(seed, ("random", "random"), options, on_state=lambda b, a, act, after: states.append(after))
    return states[:n] if n else states


def test_views_do_not_depend_on_the_hidden_generator():
    for s in _played(options={"dragon": False}):
        other = replace(s, rng=s.rng ^ 0x5A5A5A5A)
        for viewer in ("light", "dark", None):
            assert RULESET.view(s, viewer) == RULESET.view(other, viewer)


def test_no_view_mentions_the_generator_or_an_order():
    for s in _played(n=0, options={"mountain": True, "dragon": True, "duchess": True, "oracle": True}) + _played(n=80):
        for viewer in ("light", "dark", None):
            text = json.dumps(RULESET.view(s, viewer))
            assert str(s.rng) not in text
            assert "rng" not in text and "order" not in text
            bags = RULESET.view(s, viewer)["bags"]
            for b in bags.values():
                assert set(b) == {"count", "kinds"} and sum(b["kinds"].values()) == b["count"]


def test_the_next_draw_is_not_fixed_by_what_players_see():
    s = build({"c1": "light duke", "f6": "dark duke"})
    drawn = set()
    for k in range(12):
        t = play(replace(s, rng=s.rng + k), {"type": "draw"})
        drawn.add(RULESET.view(t, "dark")["drawn"][0])
    assert len(drawn) > 1


def test_the_drawn_tile_is_shown_to_both():
    s = play(build({"c1": "light duke", "f6": "dark duke"}), {"type": "draw"})
    assert RULESET.view(s, "light")["drawn"] == RULESET.view(s, "dark")["drawn"] == RULESET.view(s, None)["drawn"]

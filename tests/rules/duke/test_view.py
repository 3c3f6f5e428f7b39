"""Hidden information: the bag's order, the random generator and the tiles a Divination drew never
reach another viewer's view, nor can they be read from two consecutive views; bag counts, the
kinds not yet in play and a plainly drawn tile are shown."""

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
                assert set(b) == {"count", "held", "kinds"} and sum(b["kinds"].values()) == b["count"] + b["held"]


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


def _divination(seed: int):
    """Light's Oracle divines from a bag of five different kinds (``seed`` picks the three drawn)."""
    s = build({"c1": "light duke", "f6": "dark duke", "e3": "light oracle back"}, options={"oracle": True},
              bags={"light": ["knight", "seer", "wizard", "pikeman", "bowman"]}, seed=seed)
    return s, play(s, {"type": "divine"})


def test_divination_keeps_the_drawn_tiles_secret_across_consecutive_views():
    """The opponent and a spectator learn nothing of which tiles a Divination drew,
    neither from one view nor from comparing the views before and after the draw; only the
    drawing player sees them. Many draws (different generator states) give other viewers the
    very same view, and the bag's kinds do not change at the draw."""
    seen = {v: [] for v in ("dark", None)}
    drawn = set()
    for seed in range(8):
        before, after = _divination(seed)
        drawn.add(tuple(sorted(RULESET.view(after, "light")["drawn"])))
        for v in seen:
            b, a = RULESET.view(before, v), RULESET.view(after, v)
            assert a["drawn"] == {"count": 3}
            assert a["bags"]["light"]["kinds"] == b["bags"]["light"]["kinds"]
            assert a["bags"]["light"] == {"count": 2, "held": 3, "kinds": b["bags"]["light"]["kinds"]}
            seen[v].append(json.dumps(a, sort_keys=True))
    assert len(drawn) > 1  # the draws did differ...
    for v, texts in seen.items():
        assert len(set(texts)) == 1, v  # ...and no other viewer could tell them apart


def test_after_divination_the_bag_shows_only_what_was_revealed():
    """After the choice the bag's kinds lose exactly the kept and the destroyed tiles (both shown
    to all); the returned ones are back and indistinguishable from those never drawn."""
    before, s = _divination(5)
    mine = RULESET.view(s, "light")
    assert mine["bags"]["light"]["held"] == 3 and sum(mine["bags"]["light"]["kinds"].values()) == 5
    kept, gone = mine["drawn"][0], mine["drawn"][1]
    s2 = play(s, {"type": "divine_choose", "keep": 0, "square": "b1", "destroy": [1]})
    expect = dict(RULESET.view(before, "dark")["bags"]["light"]["kinds"])
    for k in (kept, gone):
        expect[k] -= 1
    for v in ("light", "dark", None):
        bag = RULESET.view(s2, v)["bags"]["light"]
        assert bag == {"count": 3, "held": 0, "kinds": {k: n for k, n in expect.items() if n}}

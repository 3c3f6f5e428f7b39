"""巨龙棋子 / the Dragon: enraging it by Slide or Jump Slide, the push, its in-between turns."""

from .helpers import RULESET, build, events, play, refused, targets, tile_at

DUKES = {"a1": "light duke", "f6": "dark duke"}


def test_slide_into_the_calm_dragon_enrages_it_and_the_player_chooses_its_facing():
    s = build({**DUKES, "a3": "light marshall", "e5": "dark footman", "a6": "dark footman"}, dragon=("c3", "e"))
    t = [a for a in RULESET.pending(s)[0].options["actions"] if a.get("frm") == "a3" and a["to"] == "c3"]
    assert sorted(a["dragon_facing"] for a in t) == ["n", "s"]
    assert refused(s, {"type": "move", "frm": "a3", "to": "c3"}).code == "dragon.facing_required"
    s2 = play(s, {"type": "move", "frm": "a3", "to": "c3", "dragon_facing": "n"})
    v = RULESET.view(s2, None)
    assert v["dragon"] == {"square": "d3", "facing": "n", "enraged": True}
    assert tile_at(s2, "c3")["kind"] == "marshall" and tile_at(s2, "c3")["side"] == "back"
    # Enraging consumes the Dragon's next in-between turn: the Footman on e5 (in its strike
    # area) is still there; after dark's turn the Dragon strikes it.
    assert tile_at(s2, "e5") is not None
    s3 = play(s2, {"type": "move", "frm": "a6", "to": "b6"})
    assert tile_at(s3, "e5") is None
    assert RULESET.view(s3, None)["dragon"]["enraged"] is False  # it calmed down after capturing
    assert s3.lost["dark"] == ("footman",)
    assert any(e["by"] == "dragon" for e in events(s3, "capture"))


def test_only_slides_and_jump_slides_reach_the_dragon():
    s = build({**DUKES, "b3": "light footman", "a5": "light knight back"}, dragon=("c3", "e"))
    assert ("move", "c3") not in targets(s, "b3")  # a Move cannot enter the Dragon's square
    assert refused(s, {"type": "move", "frm": "b3", "to": "c3"}).code == "move.not_allowed"


def test_push_onto_a_tile_captures_it_and_the_dragon_stays_calm():
    s = build({**DUKES, "a3": "light marshall", "d3": "dark pikeman"}, dragon=("c3", "n"))
    assert refused(s, {"type": "move", "frm": "a3", "to": "c3", "dragon_facing": "n"}).code == "dragon.facing_unexpected"
    s2 = play(s, {"type": "move", "frm": "a3", "to": "c3"})
    d = RULESET.view(s2, None)["dragon"]
    assert d["square"] == "d3" and not d["enraged"] and d["facing"] in ("e", "w")
    assert s2.lost["dark"] == ("pikeman",)


def test_enraged_dragon_cannot_be_enraged_again():
    s = build({**DUKES, "a3": "light marshall"}, dragon=("c3", "n", True))
    assert not any(sq == "c3" for _, sq in targets(s, "a3"))


def test_calm_dragon_captures_with_its_move_icons():
    # Calm, facing east on c3: Move squares d3, e3 (through d3), c4 (its left), c2 (its right).
    s = build({**DUKES, "c4": "dark footman", "e2": "light footman"}, dragon=("c3", "e"))
    s2 = play(s, {"type": "move", "frm": "e2", "to": "e1"})
    assert tile_at(s2, "c4") is None
    d = RULESET.view(s2, None)["dragon"]
    assert d["square"] == "c4" and not d["enraged"]
    assert events(s2, "dragon_move")


def test_enraged_dragon_strikes_at_most_two():
    tiles = {**DUKES, "c5": "dark footman", "d5": "dark pikeman", "e5": "dark pikeman", "b2": "light footman"}
    for seed in range(5):
        s = build(tiles, dragon=("d3", "n", True), seed=seed)
        s2 = play(s, {"type": "move", "frm": "b2", "to": "b3"})
        gone = [sq for sq in ("c5", "d5", "e5") if tile_at(s2, sq) is None]
        assert len(gone) == 2
        assert RULESET.view(s2, None)["dragon"]["enraged"] is False


def test_enraged_dragon_with_nothing_to_strike_moves_sideways_and_turns():
    s = build({**DUKES, "b2": "light footman"}, dragon=("d3", "n", True))
    s2 = play(s, {"type": "move", "frm": "b2", "to": "b3"})
    d = RULESET.view(s2, None)["dragon"]
    assert (d["square"], d["facing"]) in (("c3", "w"), ("e3", "e"))
    assert d["enraged"] is True


def test_a_duke_taken_by_the_dragon_loses_the_game():
    s = build({"a1": "light duke", "d5": "dark duke", "b2": "light footman"}, dragon=("d3", "n", True))
    s2 = play(s, {"type": "move", "frm": "b2", "to": "b3"})
    assert RULESET.result(s2) == {"winner": "light", "reason": "duke_lost_to_dragon"}
    assert RULESET.pending(s2) == []

"""How games end, and drawing a tile while in Guard (readings documented in docs/duke.md)."""

from dataclasses import replace

from game.rules.duke.state import QUIET_TURN_LIMIT

from .helpers import RULESET, actions, build, play, refused


def test_quiet_turns_end_in_a_draw():
    s = build({"a1": "light duke", "a2": "light footman", "f6": "dark duke"})
    s = replace(s, quiet=QUIET_TURN_LIMIT - 1)
    s2 = play(s, {"type": "move", "frm": "a2", "to": "a3"})
    assert RULESET.result(s2) == {"winner": None, "reason": "no_progress"}
    # a capture or a placed tile resets the count
    s3 = play(play(s, {"type": "draw"}), {"type": "place", "square": "b1"})
    assert RULESET.result(s3) is None and s3.quiet == 0


def test_the_dragon_can_strike_both_dukes():
    """Enraged, it strikes up to two tiles: both Dukes if they are its only targets (the engine
    then ends the game as a draw, reason "both_dukes_lost"; the Duke-safety rule keeps a player
    from walking into this, so only the Dragon's own random choices can produce it)."""
    from game.rules.duke.dragon import dragon_turn

    s = build({"c4": "light duke", "c6": "dark duke"}, dragon=("c3", "n", True))
    pos, _, captured, _ = dragon_turn(s.pos, s.rng)
    assert sorted(t.kind for _, t in captured) == ["duke", "duke"]
    assert pos.dragon.enraged is False


def test_a_player_may_not_leave_the_duke_to_the_dragon():
    # Calm Dragon on c3 facing east: its Move squares are d3, e3, c4 and c2.
    s = build({"b4": "light duke back", "a2": "light footman", "f6": "dark duke"}, dragon=("c3", "e"))
    assert play(s, {"type": "move", "frm": "b4", "to": "b5"}).to_move == "dark"
    s = build({"b4": "light duke", "a2": "light footman", "f6": "dark duke"}, dragon=("c3", "e"))
    assert refused(s, {"type": "move", "frm": "b4", "to": "c4"}).code == "duke.exposed"


def test_drawing_in_guard_only_when_a_square_blocks():
    # The dark Marshall (start side) slides along rank 1 to the light Duke on c1: Guard.
    s = build({"c1": "light duke", "f1": "dark marshall", "f6": "dark duke"})
    assert RULESET.view(s, "light")["guard"] == "light"
    assert {"type": "draw"} in actions(s)
    s2 = play(s, {"type": "draw"})
    assert [a["square"] for a in actions(s2)] == ["d1"]  # only the blocking square
    assert refused(s2, {"type": "place", "square": "c2"}).code == "duke.exposed"
    # A Knight's jump cannot be blocked: no draw.
    s = build({"c1": "light duke", "d3": "dark knight", "f6": "dark duke"})
    assert RULESET.view(s, "light")["guard"] == "light"
    assert {"type": "draw"} not in actions(s)
    assert refused(s, {"type": "draw"}).code == "duke.exposed"


def test_each_player_has_nineteen_tiles():
    from game.rules.duke.engine import starting_bag
    from game.rules.duke.tiles import TILES

    assert len(starting_bag({})) == 16
    assert len(starting_bag({"duchess": True, "oracle": True})) == 18
    assert sum(t.count for t in TILES.values() if t.category == "troop") == 19
    ranger = TILES["ranger"]
    assert {(i.kind, i.dir) for i in ranger.start if i.kind == "slide"} == {("slide", (0, 1)), ("slide", (0, -1))}


def test_tile_catalogue_for_the_board_ui():
    import json

    from game.rules.duke.tiles import catalogue

    cat = catalogue()
    json.dumps(cat)
    assert cat["duke"]["names"] == {"en": "Duke", "zh-hans": "公爵"}
    assert {"icon": "slide", "dx": -1, "dy": 0, "dir": [-1, 0]} in cat["duke"]["start"]
    assert cat["oracle"]["back"] == [] and cat["duchess"]["ability"] == "summon"
    assert all(set(v["names"]) == {"en", "zh-hans"} for v in cat.values())

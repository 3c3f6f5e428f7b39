"""The rulebook's worked examples (the Chinese forum translation, docs/duke.md),
positions rebuilt from the text (the diagrams were pictures)."""

from .helpers import RULESET, actions, build, events, play, refused, targets


def test_seer_dragoon_and_assassin_movement_example():
    """移动标识, first example: the Seer moves one square diagonally in three directions (not onto
    its own Duke) or jumps two forward, left or right (not off the board). The Dragoon (back side)
    moves to either square straight ahead, jumps up-left to the square behind the Assassin or
    up-right, and slides one square down-left or down-right but not into the Seer's square. The
    Assassin has one option only: it jumps the Dragoon, then may capture the Seer or stop between
    Dragoon and Seer, putting the Duke in danger (the Seer could capture it next turn)."""
    tiles = {"c1": "light duke", "d2": "light seer", "b4": "light dragoon back",
             "a5": "dark assassin back", "f6": "dark duke"}
    s = build(tiles, to_move="light")
    assert targets(s, "d2") == {("move", sq) for sq in ("c3", "e3", "e1", "d4", "b2", "f2")}
    assert targets(s, "b4") == {("move", sq) for sq in ("b5", "b6", "a6", "c6", "a3", "c3")}
    dark = build(tiles, to_move="dark")
    assert targets(dark, "a5") == {("move", "c3"), ("move", "d2")}
    after = play(dark, {"type": "move", "frm": "a5", "to": "c3"})
    assert [e["seat"] for e in events(after, "guard")] == ["dark"]  # "Guard"!
    assert ("move", "c3") in targets(after, "d2")  # the Seer can take it back


def test_trapped_duke_example():
    """放置新棋子, Tina's example: she may not take the Wizard with her Duke because the Marshall
    would then capture it; a drawn tile can only go on the one empty square sharing an edge with
    the Duke (never diagonally)."""
    s = build(
        {"b5": "light duke back", "b6": "dark wizard back", "c5": "light footman", "b4": "light pikeman",
         "d6": "dark marshall", "f6": "dark duke", "f1": "dark champion"},
        bags={"light": ["pikeman", "pikeman"]},
    )
    e = refused(s, {"type": "move", "frm": "b5", "to": "b6"})
    assert e.code == "duke.exposed"
    assert {"type": "draw"} in actions(s)
    s = play(s, {"type": "draw"})
    assert [a["square"] for a in actions(s)] == ["a5"]
    assert RULESET.view(s, "dark")["drawn"] == ["pikeman"]  # the drawn tile is shown to both
    for sq in ("a4", "a6", "c4", "c6"):
        assert refused(s, {"type": "place", "square": sq}).code == "place.square"
    s = play(s, {"type": "place", "square": "a5"})
    assert s.to_move == "dark"


def test_mountain_strike_lines_example():
    """山峦棋子 example: both the Pikeman and the Bowman are back side up with the Mountain right
    in front. The Pikeman's strike lines both cross the Mountain's square: no strike. The Bowman's
    diagonal strike lines only touch a corner of it: it may strike the Marshall or the Priest;
    its straight strike two squares ahead is blocked."""
    base = {"a1": "light duke", "f6": "dark duke", "b4": "dark knight", "d4": "dark footman"}
    s = build({**base, "c2": "light pikeman back"}, mountain="c3")
    assert {k for k, _ in targets(s, "c2")} <= {"move"}
    assert not any(k == "strike" for k, _ in targets(s, "c2"))
    s = build({**base, "c2": "light bowman back", "b3": "dark marshall", "d3": "dark priest", "c4": "dark seer"},
              mountain="c3")
    strikes = {sq for k, sq in targets(s, "c2") if k == "strike"}
    assert strikes == {"b3", "d3"}


def test_mountain_jump_paths():
    """山峦棋子: no Jump over the Mountain along a straight path; a jump with no straight path may
    take a route around it. Moves, slides and jump slides cannot enter or pass it."""
    base = {"a1": "light duke", "f6": "dark duke"}
    s = build({**base, "c2": "light champion"}, mountain="c3")
    t = targets(s, "c2")
    assert ("move", "c4") not in t and ("move", "c3") not in t and ("move", "a2") in t
    s = build({**base, "c2": "light knight"}, mountain="c3")
    assert ("move", "d4") in targets(s, "c2") and ("move", "b4") in targets(s, "c2")
    s = build({**base, "c2": "light assassin"}, mountain="c3")
    assert not any(sq.startswith("c") for _, sq in targets(s, "c2"))
    s = build({**base, "c1": "light priest"}, mountain="e3")
    t = targets(s, "c1")
    assert ("move", "d2") in t and ("move", "e3") not in t and ("move", "f4") not in t


def test_defense_example():
    """防御 example (Robin Hood pieces as custom tiles): a tile starting on a defended square
    cannot capture the defender even when adjacent (the Priest); a straight jump through a defended
    square is blocked; a jump with no straight path is blocked when every route crosses a defended
    square (Sir Guy) but allowed when one route avoids them (the Ranger's red route); Command
    ignores Defense (Prince John commands the General onto Friar Tuck)."""
    custom = {
        "littlejohn": {"kind": "troop", "start": [{"icon": "defense", "dx": dx, "dy": -1} for dx in (-1, 0, 1)],
                       "back": []},
        "tuck": {"kind": "troop", "start": [{"icon": "defense", "dx": 0, "dy": -1},
                                            {"icon": "defense", "dx": 1, "dy": -1}], "back": []},
    }
    dukes = {"a1": "light duke", "f6": "dark duke"}
    # Little John (light, faces north) on c4 defends b3, c3 and d3.
    s = build({**dukes, "c4": "light littlejohn", "d3": "dark priest back", "c2": "dark champion back"},
              custom=custom, to_move="dark")
    assert ("move", "c4") not in targets(s, "d3")  # starts on a defended square
    assert ("move", "c4") not in targets(s, "c2")  # straight jump over c3
    assert ("move", "c4") in targets(build({**dukes, "c4": "light footman", "c2": "dark champion back"},
                                           to_move="dark"), "c2")
    # Friar Tuck on c4 defends c3 and d3.
    tuck = {**dukes, "c4": "light tuck"}
    s = build({**tuck, "d2": "dark ranger back"}, custom=custom, to_move="dark")
    assert ("move", "c4") not in targets(s, "d2")  # routes via c3 and d3: both defended
    s = build({**tuck, "b2": "dark ranger back"}, custom=custom, to_move="dark")
    assert ("move", "c4") in targets(s, "b2")  # route via b3 avoids the defended c3
    s = build({**tuck, "c3": "dark general back", "d4": "dark footman"}, custom=custom, to_move="dark")
    assert ("command", "d4->c4") in targets(s, "c3")  # Command ignores Defense

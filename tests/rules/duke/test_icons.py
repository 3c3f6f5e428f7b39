"""移动标识 / Movement icons: one test per icon kind, on tiles from the base set (Dread and
Defense, which no base tile carries, on custom scenario tiles)."""

from .helpers import build, play, refused, targets, tile_at

DUKES = {"a1": "light duke", "f6": "dark duke"}


def test_move_needs_a_clear_straight_path_and_captures_enemies_only():
    """Move: the straight path must be empty; an enemy on the target is captured, a friend blocks."""
    s = build({**DUKES, "c3": "light pikeman", "d4": "light footman", "b4": "dark footman"})
    # Pikeman start side: Move (±1,1) and (±2,2). (2,2) -> e5 blocked by the friendly Footman on d4.
    t = targets(s, "c3")
    assert ("move", "e5") not in t and ("move", "d4") not in t
    assert ("move", "b4") in t  # capture
    assert ("move", "a5") not in t  # path through b4 blocked by the enemy tile
    s2 = play(s, {"type": "move", "frm": "c3", "to": "b4"})
    assert tile_at(s2, "b4") == {"square": "b4", "owner": "light", "kind": "pikeman", "side": "back", "frozen": False}
    assert tile_at(s2, "c3") is None
    assert s2.lost["dark"] == ("footman",)


def test_jump_ignores_tiles_between():
    """Jump: lands on the target whatever stands between."""
    s = build({**DUKES, "c3": "light knight", "c4": "dark footman", "b4": "light footman", "d5": "dark pikeman"})
    t = targets(s, "c3")
    # Knight start: Jump (±1,2) -> b5, d5 (capture) over c4/b4.
    assert ("move", "b5") in t and ("move", "d5") in t


def test_slide_goes_any_distance_and_stops_on_the_first_tile():
    """Slide: any distance while empty; may stop on the first enemy to capture it."""
    s = build({**DUKES, "c3": "light priest", "e5": "dark footman", "a5": "light footman"})
    t = targets(s, "c3")
    assert {("move", "d4"), ("move", "e5"), ("move", "b4"), ("move", "b2"), ("move", "d2"), ("move", "e1")} <= t
    assert ("move", "f6") not in t  # behind the enemy it captures
    assert ("move", "a5") not in t  # own tile
    assert ("move", "a1") not in t  # own Duke


def test_jump_slide_jumps_the_adjacent_square_then_slides():
    """Jump Slide: the first square is jumped, then the tile slides on."""
    s = build({**DUKES, "c2": "light assassin", "c3": "dark footman", "c5": "dark pikeman"})
    t = targets(s, "c2")
    assert ("move", "c4") in t and ("move", "c5") in t
    assert ("move", "c3") not in t and ("move", "c6") not in t


def test_strike_captures_without_moving_and_flips():
    """Strike: the enemy on the target is captured, the striking tile stays and still flips."""
    s = build({**DUKES, "c2": "light bowman back", "c4": "dark knight", "b3": "light footman"})
    t = targets(s, "c2")
    assert ("strike", "c4") in t and ("strike", "b3") not in t and ("strike", "d3") not in t
    s2 = play(s, {"type": "strike", "frm": "c2", "target": "c4"})
    assert tile_at(s2, "c4") is None
    assert tile_at(s2, "c2")["side"] == "start"


def test_command_moves_a_friend_between_command_squares():
    """Command: a friend on one Command square goes to another; the commander flips, the
    commanded tile does not; an enemy on the destination is captured; tiles between do not block."""
    s = build({**DUKES, "c3": "light general back", "b3": "light footman back", "d2": "dark pikeman"})
    t = targets(s, "c3")
    assert ("command", "b3->d2") in t and ("command", "b3->c2") in t and ("command", "b3->d3") in t
    s2 = play(s, {"type": "command", "frm": "c3", "piece": "b3", "to": "d2"})
    assert tile_at(s2, "d2") == {"square": "d2", "owner": "light", "kind": "footman", "side": "back", "frozen": False}
    assert tile_at(s2, "c3")["side"] == "start"
    assert s2.lost["dark"] == ("pikeman",)


DREAD = {"dreadlord": {"kind": "troop", "start": [{"icon": "dread", "dx": 0, "dy": 1},
                                                   {"icon": "move", "dx": 1, "dy": 0}],
                       "back": [{"icon": "dread", "dx": 0, "dy": 1}]}}


def test_dread_freezes_tiles_of_both_sides():
    """Dread: a tile on a Dread square cannot move, be moved or be captured; Dukes are immune."""
    s = build({**DUKES, "c3": "dark dreadlord", "c2": "light footman", "b2": "light knight", "b4": "light wizard"},
              custom=DREAD, to_move="light")
    assert tile_at(s, "c2")["frozen"] is True  # dark faces south: (0,1) is c2
    assert targets(s, "c2") == set()
    assert ("move", "c2") not in targets(s, "b4")
    e = refused(s, {"type": "move", "frm": "c2", "to": "c1"})
    assert e.code == "tile.frozen"
    s = build({"c2": "light duke", "c3": "dark dreadlord", "f6": "dark duke"}, custom=DREAD)
    assert tile_at(s, "c2")["frozen"] is False


DEFENSE = {"shield": {"kind": "troop", "start": [{"icon": "defense", "dx": 0, "dy": 1},
                                                  {"icon": "defense", "dx": 1, "dy": 1}],
                      "back": []}}


def test_defense_blocks_captures_through_or_from_its_squares():
    """Defense: no capture of the tile along a path through, or starting on, a defended square."""
    # Light shield on c3 defends c4 and d4 (light faces north).
    s = build({**DUKES, "c3": "light shield", "c4": "dark footman", "c5": "dark champion back",
               "e5": "dark knight"}, custom=DEFENSE, to_move="dark")
    assert ("move", "c3") not in targets(s, "c4")  # starts on a defended square
    assert ("move", "c3") not in targets(s, "c5")  # straight jump over c4 (defended)
    # Dark Knight on e5 (start side): Jump (±1,2) -> d3 / f3 only; build a non-straight case:
    s = build({**DUKES, "c3": "light shield", "d5": "dark knight"}, custom=DEFENSE, to_move="dark")
    # d5 -> c3 is (-1,-2) absolute: routes via d4 (defended) or c4 (defended): blocked.
    assert ("move", "c3") not in targets(s, "d5")
    s = build({**DUKES, "c3": "light shield", "b5": "dark knight"}, custom=DEFENSE, to_move="dark")
    # b5 -> c3: routes via b4 (free) or c4 (defended): the free route may be chosen.
    assert ("move", "c3") in targets(s, "b5")

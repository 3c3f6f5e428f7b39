"""The 1st-edition board: its drawing is its board, and its data are the 1st edition's.

Source of truth: ``game/data/agot1/areas.json`` and ``adjacency.json`` (the 1st-edition rulebook and
NUTIS; choices in ``docs/agot1.md``, Board). The geometry is ``game/data/agot1/map/``, derived
from the 2nd edition's grid: the same Westeros, relabelled in the south.
"""

import json

import pytest

from game.boards import geometry
from game.boards.anchors import area_anchors

BOARD = "agot1"
AREAS = geometry.load_areas(board=BOARD)
RULES = geometry.load_adjacency(board=BOARD)
AGOT2 = geometry.load_areas()

#: Rivers with no bridge: the areas touch on the board but are not adjacent. The three northern
#: ones as on the 2nd-edition board; the Torrentine now runs between Oldtown and Starfall, which
#: the 1st edition does not make adjacent (neither lists the other as a neighbour).
RIVERS_NO_BRIDGE = {
    frozenset(("winterfell", "greywater-watch")),
    frozenset(("riverrun", "the-mountains-of-the-moon")),
    frozenset(("harrenhal", "the-mountains-of-the-moon")),
    frozenset(("oldtown", "starfall")),
}
#: The rulebook (河流): the only two crossings are at The Twins and Crackclaw Point.
BRIDGES = {
    frozenset(("seagard", "the-twins")),
    frozenset(("crackclaw-point", "the-mountains-of-the-moon")),
}


def _fmt(pairs):
    return sorted(tuple(sorted(p)) for p in pairs)


def _pair(a, b):
    return frozenset((a, b))


def test_drawn_adjacency_is_exactly_the_rules_adjacency():
    drawn = geometry.drawn_adjacency(BOARD)
    assert not (RULES - drawn), f"adjacent in the rules, not on the map: {_fmt(RULES - drawn)}"
    assert not (drawn - RULES), f"adjacent on the map, not in the rules: {_fmt(drawn - RULES)}"
    assert len(drawn) == 111


def test_every_area_is_on_the_map_and_the_grid_is_fully_labelled():
    g = geometry.load_geometry(board=BOARD)
    assert set(g.cells.values()) == set(AREAS)
    assert set(g.cells) == {(x, y) for x in range(g.width) for y in range(g.height)}
    kinds = [a.kind for a in AREAS.values()]
    assert (kinds.count("land"), kinds.count("sea"), kinds.count("port")) == (34, 11, 0)


@pytest.mark.parametrize("area_id", sorted(AREAS))
def test_every_area_is_one_connected_piece(area_id):
    cells = set(geometry.area_cells(board=BOARD)[area_id])
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == cells


def test_rivers_separate_and_the_two_bridges_join():
    separated = geometry.touching_pairs(BOARD) - geometry.drawn_adjacency(BOARD)
    assert separated == RIVERS_NO_BRIDGE
    assert RIVERS_NO_BRIDGE <= geometry.river_pairs(BOARD)
    assert geometry.bridge_pairs(BOARD) == BRIDGES
    assert BRIDGES <= RULES and not (RIVERS_NO_BRIDGE & RULES)
    g = geometry.load_geometry(board=BOARD)
    for e in g.river_edges:
        sides = geometry._sides_in(g.cells, e)
        assert all(s and AREAS[s].kind == "land" for s in sides) and sides[0] != sides[1], (e, sides)


def test_islands_touch_no_land_and_the_arbor_only_the_redwyne_straights():
    islands = {a.id for a in AREAS.values() if a.island}
    assert islands == {"pyke", "dragonstone", "the-arbor"}
    for pair in geometry.touching_pairs(BOARD):
        for island in islands & pair:
            (other,) = pair - {island}
            assert AREAS[other].kind == "sea", (island, other)
    arbor = {next(iter(p - {"the-arbor"})) for p in geometry.touching_pairs(BOARD) if "the-arbor" in p}
    assert arbor == {"redwyne-straights"}


def test_the_south_differs_from_the_second_edition_as_the_reference_says():
    """Reference section 2.2/2.3: the merged Summer Sea, the longer Sunset Sea, the larger
    Redwyne Straights, Dorne without Salt Shore, Three Towers, Prince's Pass and The Boneway."""
    gone = {"salt-shore", "three-towers", "princes-pass", "the-boneway", "west-summer-sea", "east-summer-sea"}
    assert not gone & set(AREAS)
    assert set(AREAS) - set(AGOT2) == {"summer-sea"}
    for pair in [("highgarden", "sunset-sea"), ("sunset-sea", "redwyne-straights"), ("sunset-sea", "oldtown"),
                 ("redwyne-straights", "summer-sea"), ("summer-sea", "sunspear"),  # the rulebook's examples
                 ("yronwood", "sunspear"), ("dornish-marches", "kingswood"), ("dornish-marches", "storms-end"),
                 ("dornish-marches", "sea-of-dorne"), ("redwyne-straights", "starfall"),
                 ("redwyne-straights", "yronwood"), ("sea-of-dorne", "shipbreaker-bay"),
                 ("summer-sea", "shipbreaker-bay"), ("crackclaw-point", "the-narrow-sea")]:
        assert _pair(*pair) in RULES, pair
    # Highgarden's coast lies wholly on the longer Sunset Sea (the rulebook's Sunset Sea-Oldtown
    # leaves no room for the 2nd edition's Highgarden-Redwyne Straights on a flat map)
    for pair in [("highgarden", "redwyne-straights"), ("storms-end", "summer-sea"), ("oldtown", "starfall")]:
        assert _pair(*pair) not in RULES, pair
    neighbours = {a: {b for p in RULES if a in p for b in p - {a}} for a in AREAS}
    assert neighbours["sunset-sea"] == {"bay-of-ice", "flints-finger", "ironmans-bay", "the-golden-sound",
                                        "searoad-marches", "highgarden", "oldtown", "redwyne-straights"}
    assert neighbours["sunspear"] == {"yronwood", "sea-of-dorne", "summer-sea"}


def test_between_areas_on_both_boards_the_pairs_are_the_second_editions():
    """Reference 2.3: apart from the south's new pairs, the 1st edition's adjacency is the 2nd's;
    the one 2nd-edition pair it lacks is Highgarden-Redwyne Straights (the rulebook's Sunset
    Sea-Oldtown leaves it no room; docs/agot1.md, Board)."""
    shared = set(AREAS) & set(AGOT2)
    changed = {"sunset-sea", "redwyne-straights", "sea-of-dorne", "shipbreaker-bay", "dornish-marches",
               "starfall", "yronwood", "storms-end", "kingswood", "highgarden"}
    agot2 = {p for p in geometry.load_adjacency() if p <= shared}
    agot1 = {p for p in RULES if p <= shared}
    assert agot2 - agot1 == {frozenset({"highgarden", "redwyne-straights"})}
    assert all(p & changed for p in agot1 - agot2), _fmt(agot1 - agot2)


def test_same_westeros_north_of_the_reach():
    """The grid is the 2nd edition's where the boards agree: rows 0-31 are cell for cell the
    same, reading each 2nd-edition port as its sea."""
    g1, g2 = geometry.load_geometry(board=BOARD), geometry.load_geometry()
    assert (g1.width, g1.height) == (g2.width, g2.height)
    for (x, y), a2 in g2.cells.items():
        if y < 32:
            expected = AGOT2[a2].port_sea if AGOT2[a2].kind == "port" else a2
            assert g1.cells[(x, y)] == expected, (x, y)


def test_the_printed_icons_of_the_first_edition():
    values = list(AREAS.values())
    assert sum(a.castle == "stronghold" for a in values) == 8
    assert sum(a.castle == "castle" for a in values) == 10
    assert sum(a.supply for a in values) == 21
    assert sum(a.power for a in values) == 17
    assert {a.id: a.home_of for a in values if a.home_of} == {
        "winterfell": "stark", "pyke": "greyjoy", "lannisport": "lannister",
        "dragonstone": "baratheon", "highgarden": "tyrell"}
    # the rulebook's own mentions
    assert AREAS["blackwater"].supply == 2 and AREAS["riverrun"].supply == AREAS["seagard"].supply == 1
    assert AREAS["harrenhal"].castle == "castle" and AREAS["stoney-sept"].castle is None
    assert AREAS["dragonstone"].power == 1


def test_reconstructed_parts_are_marked():
    raw = json.loads((geometry.DATA_ROOT / BOARD / "areas.json").read_text("utf-8"))
    marked = {a["id"] for a in raw if a.get("reconstructed")}
    assert {"oldtown", "sunspear", "yronwood", "starfall", "dornish-marches", "kingswood"} <= marked
    notes = json.loads((geometry.DATA_ROOT / BOARD / "adjacency.json").read_text("utf-8"))["notes"]
    for note in notes:
        assert note["reconstructed"] is True and note["reason"]
        assert (_pair(*note["pair"]) in RULES) is note["adjacent"], note["pair"]
    noted = {_pair(*n["pair"]) for n in notes}
    assert {_pair("sunset-sea", "oldtown"), _pair("crackclaw-point", "the-narrow-sea"),
            _pair("redwyne-straights", "yronwood")} <= noted


def test_area_anchors_lie_inside_their_area_and_apart():
    g = geometry.load_geometry(board=BOARD)
    anchors = area_anchors(BOARD)
    assert set(anchors) == set(AREAS)
    for aid, pts in anchors.items():
        expected = {"label", "units", "order"} | ({"power"} if AREAS[aid].kind == "land" else set())
        assert set(pts) == expected, aid
        for name, (x, y) in pts.items():
            gx, gy = x / geometry.CELL, y / geometry.CELL
            around = {(int(gx + dx), int(gy + dy)) for dx in (-0.01, 0.01) for dy in (-0.01, 0.01)}
            assert all(g.cells.get(c) == aid for c in around), (aid, name, (x, y))
        points = [tuple(p) for p in pts.values()]
        assert len(set(points)) == len(points), (aid, pts)


def test_an_unknown_board_is_refused():
    with pytest.raises(ValueError, match="unknown board"):
        geometry.load_areas(board="agot3")

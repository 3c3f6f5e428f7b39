"""The drawing is the board: the map geometry agrees with the rules' adjacency.

Source of truth: ``game/data/agot2/adjacency.json`` (2nd ed. rulebook, 地图 / The Game Board;
rivers and bridges as in ``game/data/agot2/README.md``). The geometry is
``game/data/agot2/map/grid.txt`` + ``legend.json``, read by ``game.boards.render``.
"""

import pytest

from game.boards import geometry
from game.boards.anchors import area_anchors

AREAS = geometry.load_areas()
RULES = geometry.load_adjacency()

#: Rivers with no bridge: the two areas touch on the board but are NOT adjacent.
RIVERS_NO_BRIDGE = {
    frozenset(("winterfell", "greywater-watch")),
    frozenset(("riverrun", "the-mountains-of-the-moon")),
    frozenset(("harrenhal", "the-mountains-of-the-moon")),
    frozenset(("three-towers", "starfall")),
}
#: Bridges: a river runs between them but a bridge makes them adjacent.
BRIDGES = {
    frozenset(("seagard", "the-twins")),
    frozenset(("crackclaw-point", "the-mountains-of-the-moon")),
}


def _fmt(pairs):
    return sorted(tuple(sorted(p)) for p in pairs)


def test_drawn_adjacency_is_exactly_the_rules_adjacency():
    drawn = geometry.drawn_adjacency()
    assert not (RULES - drawn), f"adjacent in the rules, not on the map: {_fmt(RULES - drawn)}"
    assert not (drawn - RULES), f"adjacent on the map, not in the rules: {_fmt(drawn - RULES)}"
    assert len(drawn) == 143


def test_every_area_is_on_the_map_and_nothing_else():
    on_map = set(geometry.load_geometry().cells.values())
    assert on_map == set(AREAS)
    kinds = [a.kind for a in AREAS.values()]
    assert (kinds.count("land"), kinds.count("sea"), kinds.count("port")) == (38, 12, 8)


def test_the_grid_is_fully_labelled():
    g = geometry.load_geometry()
    assert set(g.cells) == {(x, y) for x in range(g.width) for y in range(g.height)}


@pytest.mark.parametrize("area_id", sorted(AREAS))
def test_every_area_is_one_connected_piece(area_id):
    cells = {xy for xy, a in geometry.load_geometry().cells.items() if a == area_id}
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == cells


def test_touching_but_not_adjacent_only_across_the_four_rivers():
    separated = geometry.touching_pairs() - geometry.drawn_adjacency()
    assert separated == RIVERS_NO_BRIDGE
    for pair in separated:
        assert all(AREAS[a].kind == "land" for a in pair)


def test_rivers_are_drawn_between_the_river_pairs_and_bridges_join():
    assert RIVERS_NO_BRIDGE <= geometry.river_pairs()
    assert geometry.bridge_pairs() == BRIDGES
    assert BRIDGES <= RULES
    assert not (RIVERS_NO_BRIDGE & RULES)


def test_rivers_run_only_between_two_land_areas():
    g = geometry.load_geometry()
    for (x1, y1), (x2, y2) in g.river_edges:
        if y1 == y2:
            sides = (g.cells.get((x1, y1 - 1)), g.cells.get((x1, y1)))
        else:
            sides = (g.cells.get((x1 - 1, y1)), g.cells.get((x1, y1)))
        assert all(s and AREAS[s].kind == "land" for s in sides), ((x1, y1), (x2, y2), sides)
        assert sides[0] != sides[1], ((x1, y1), (x2, y2), sides)


def test_islands_have_no_land_neighbour():
    islands = [a for a in AREAS.values() if a.island]
    assert {a.id for a in islands} == {"pyke", "dragonstone", "the-arbor"}
    for island in islands:
        for pair in geometry.touching_pairs():
            if island.id in pair:
                (other,) = pair - {island.id}
                assert AREAS[other].kind != "land", (island.id, other)


@pytest.mark.parametrize("port", sorted(a for a in AREAS if AREAS[a].kind == "port"))
def test_each_port_touches_only_its_land_and_its_sea(port):
    touching = {next(iter(p - {port})) for p in geometry.touching_pairs() if port in p}
    assert touching == {AREAS[port].port_of, AREAS[port].port_sea}


def test_area_anchors_lie_inside_their_area():
    g = geometry.load_geometry()
    anchors = area_anchors()
    assert set(anchors) == set(AREAS)
    for aid, pts in anchors.items():
        expected = {"label", "units", "order"} | ({"power"} if AREAS[aid].kind == "land" else set())
        assert set(pts) == expected, aid
        for name, (x, y) in pts.items():
            gx, gy = x / geometry.CELL, y / geometry.CELL
            # a point on a cell edge or corner must be inside on every side
            around = {(int(gx + dx), int(gy + dy)) for dx in (-0.01, 0.01) for dy in (-0.01, 0.01)}
            assert all(g.cells.get(c) == aid for c in around), (aid, name, (x, y))


def test_anchors_are_spread_out_in_areas_with_room():
    for aid, pts in area_anchors().items():
        if AREAS[aid].kind == "port":
            continue
        points = [tuple(p) for p in pts.values()]
        assert len(set(points)) == len(points), (aid, pts)

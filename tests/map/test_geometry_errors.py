"""A broken map file gets a clear error naming the place (``geometry.parse_geometry``)."""

import pytest

from game.boards.geometry import MapDataError, parse_geometry

LEGEND = {"codes": {"Wf": "winterfell", "GW": "greywater-watch", "~i": "bay-of-ice"}}
GRID = "~iWfWf\n~iGWGW\n"


def test_a_small_valid_grid_parses():
    g = parse_geometry(GRID, {**LEGEND, "rivers": [{"id": "r", "path": [[1, 1], [3, 1]]}],
                              "bridges": [[[2, 1], [3, 1]]]})
    assert (g.width, g.height) == (3, 2)
    assert g.cells[(1, 0)] == "winterfell" and g.cells[(2, 1)] == "greywater-watch"
    assert len(g.river_edges) == 2 and len(g.bridge_edges) == 1


@pytest.mark.parametrize("grid, legend, message", [
    ("", LEGEND, "empty"),
    ("~iWfWf\n~iGW\n", LEGEND, "row 1 has 4 characters"),
    ("~iWfXx\n~iGWGW\n", LEGEND, "cell (2, 0) has unknown code 'Xx'"),
    (GRID, {"codes": {**LEGEND["codes"], "Zz": "atlantis"}}, "unknown area 'atlantis'"),
    (GRID, {**LEGEND, "rivers": [{"id": "r", "path": [[1, 1], [2, 2]]}]}, "not along a grid line"),
    (GRID, {**LEGEND, "rivers": [{"id": "r", "path": [[1, 1], [9, 1]]}]}, "outside the grid"),
    (GRID, {**LEGEND, "rivers": [{"id": "r", "path": [[2, 0], [2, 1]]}]}, "between two areas"),
    (GRID, {**LEGEND, "rivers": [{"id": "r", "path": [[1, 1], [3, 1]]}],
            "bridges": [[[0, 0], [1, 0]]]}, "not one unit edge of a river"),
    (GRID, {**LEGEND, "anchors": {"atlantis": {"units": [1, 1]}}}, "unknown area 'atlantis'"),
])
def test_bad_map_files_are_rejected_with_the_place(grid, legend, message):
    with pytest.raises(MapDataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_geometry(grid, legend)

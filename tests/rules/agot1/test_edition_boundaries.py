"""One engine, two editions: a 1st-edition game never reads the 2nd edition's board or cards.

``game.rules.agot.data.board()`` without an edition is the 2nd edition's board (for callers
outside the engine); inside the engine every call names the state or the edition. With
``DEFAULT_EDITION = None`` a call without one raises, so whole 1st-edition bot games, their views
and their log prove that no rule of the 1st edition silently used 2nd-edition data."""

import pytest

from game.rules.agot import RULESET_1E as R
from game.rules.agot import data
from game.rules.agot.log import describe
from game.rules.agot.selfplay import game_seed, play_game


@pytest.fixture
def strict():
    old = data.DEFAULT_EDITION
    data.DEFAULT_EDITION = None
    try:
        yield
    finally:
        data.DEFAULT_EDITION = old


def test_strict_mode_catches_a_call_without_edition(strict):
    with pytest.raises(KeyError):
        data.board()
    assert data.board("agot1").edition == "agot1"


@pytest.mark.parametrize("players,level", [(3, "basic"), (4, "random"), (5, "mixed")])
def test_whole_games_views_and_log_name_their_edition(strict, players, level):
    seen = {"views": 0}

    def look(before, actor, action, after):
        for viewer in (None, actor):
            v = R.view(after, viewer)
            for e in v["events"][-3:]:
                describe(e, "en", "agot1")
                describe(e, "zh-hans", "agot1")
        for d in R.pending(after):
            dict(d.options)  # computed options (lazy) read the edition's board too
        seen["views"] += 1

    g = play_game(players, game_seed(3, players), level, check=True, on_state=look, ruleset="agot1")
    assert g["reason"] != "unfinished" and seen["views"] == g["actions"]


def test_the_2nd_edition_is_untouched_by_the_switches():
    """The 2nd edition's profile keeps every 2nd-edition rule (the switches default to it)."""
    from game.rules.agot.edition import AGOT2, Edition

    defaults = {f: getattr(Edition, f) for f in Edition.__dataclass_fields__ if hasattr(Edition, f)}
    assert {f: getattr(AGOT2, f) for f in defaults} == defaults

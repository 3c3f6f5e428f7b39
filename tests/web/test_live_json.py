"""The live path's JSON text (game/live/jsontext.py, orjson): for everything the site sends it is
exactly the standard library's compact text (``separators=(",", ":")``, ``ensure_ascii=False``),
checked on generated values; what orjson does not take is still encoded, by the standard
library; what JSON cannot hold is still a TypeError. The whole payloads are compared with
``json.dumps`` all game long in tests/web/test_live_push_path.py."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.live import jsontext


def _std(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


_scalars = st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text()
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=5)
    | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=8) | st.integers(-1000, 1000), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(_values)
def test_the_same_text_as_the_standard_library(value):
    assert jsontext.dumps(value) == _std(value)


def test_characters_the_site_sends():
    value = {"text": "史塔克家族进军 → 临冬城 \u2028 \"quoted\" \\ / \x00\x1f\t\n", "n": [1, -2, 0], 7: True, "none": None}
    assert jsontext.dumps(value) == _std(value)
    assert jsontext.dumps("\x00events-mark") == _std("\x00events-mark")  # the payloads' splice mark


def test_what_orjson_refuses_is_still_encoded():
    for value in ({"seed": 2**70}, {"chat": "\ud800 lone"}):
        assert jsontext.dumps(value) == _std(value)


def test_what_json_cannot_hold_is_a_type_error():
    with pytest.raises(TypeError):
        jsontext.dumps({"areas": {"winterfell"}})

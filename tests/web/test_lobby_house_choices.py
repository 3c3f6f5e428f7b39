"""The create form offers only the houses in play with the chosen player count: the
house select's options are those of the submitted (or initial) count, ``data-seats`` carries
every count's houses for the page's script, and hostile player counts and houses are refused
with a message beside the field, never a 500, and write nothing."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from game.rules import get_ruleset

pytestmark = pytest.mark.django_db


def _offered(html: str) -> list[str]:
    select = re.search(r'<select name="house".*?</select>', html, re.S).group(0)
    return re.findall(r'<option value="([^"]*)"', select)


def _seats_attr(html: str) -> dict:
    return json.loads(unescape(re.search(r'<select name="house" data-seats="([^"]*)"', html).group(1)))


def test_the_form_offers_the_houses_of_the_initial_count_and_carries_every_count(client_for, make_user):
    rules = get_ruleset("agot2")
    html = client_for(make_user("host")).get(reverse("lobby_create")).content.decode()
    assert _offered(html) == ["", *rules.seats(3, {})]
    seats = _seats_attr(html)
    assert set(seats) == {"3", "4", "5", "6"}
    for n, choices in seats.items():
        assert [h for h, _ in choices] == ["", *rules.seats(int(n), {})]
        assert all(isinstance(label, str) and label for _, label in choices)


def test_chinese_labels_in_the_seats_data(client_for, make_user):
    c = client_for(make_user("host"))
    c.cookies["django_language"] = "zh-hans"
    seats = _seats_attr(c.get(reverse("lobby_create")).content.decode())
    assert dict(seats["6"])["martell"] == "马泰尔"


@pytest.mark.parametrize(
    "players,house,offered_count",
    [("3", "martell", 3), ("5", "martell", 5), ("abc", "stark", 3), ("99", "stark", 3), ("-1", "tyrell", 3),
     ("3", "<script>alert(1)</script>", 3), ("3", "x" * 500, 3)],
)
def test_hostile_counts_and_houses_are_refused_beside_the_field(client_for, make_user, snapshot, players, house, offered_count):
    c = client_for(make_user("host"))
    before = snapshot()
    r = c.post(reverse("lobby_create"), {"name": "x", "players": players, "house": house})
    assert r.status_code == 400
    assert r.context["form"].errors
    html = r.content.decode()
    assert _offered(html) == ["", *get_ruleset("agot2").seats(offered_count, {})]
    assert "<script>alert(1)</script>" not in html
    assert snapshot() == before


def test_a_house_in_play_at_the_submitted_count_is_offered_again_after_another_error(client_for, make_user):
    r = client_for(make_user("host")).post(reverse("lobby_create"), {"name": "x" * 61, "players": "6", "house": "martell"})
    assert r.status_code == 400
    html = r.content.decode()
    assert "martell" in _offered(html)
    assert re.search(r'<option value="martell" selected>', html)

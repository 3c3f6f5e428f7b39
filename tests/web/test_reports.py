"""Reports: a chat line, a player (their page) or a game, with a reason, by people who may see
it; one open report per reporter and subject; floods stopped per person and per address (429);
every refusal writes nothing."""

from __future__ import annotations

import pytest

from game.live import chat
from game.models import Report, UserAddress
from game.site import addresses

from .live_helpers import start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_lobby, client_for):
    game, users = start_game(make_lobby, 3)
    line = chat.post_chat(game.pk, users["lannister"], "public", "you are all idiots")
    return game, users, line


def post(c, query: str, **data):
    return c.post(f"/report/?{query}", {"reason": "abuse", "text": "", **data}, REMOTE_ADDR="192.0.2.9")


def test_a_chat_line_is_reported_with_its_author_and_game(table, client_for):
    game, users, line = table
    c = client_for(users["stark"])
    page = c.get(f"/report/?line={line['id']}")
    assert page.status_code == 200 and "you are all idiots" in page.content.decode()
    r = post(c, f"line={line['id']}", text="insults everyone")
    assert r.status_code == 302 and r["Location"] == f"/game/{game.pk}/"
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.game_id, report.line_id) == (users["stark"], users["lannister"], game.pk, line["id"])
    assert report.reason == "abuse" and report.text == "insults everyone" and report.status == "open"
    assert report.address == "192.0.2.9" and UserAddress.objects.filter(user=users["stark"], address="192.0.2.9").exists()
    # the same again: the first report, nothing new
    assert post(c, f"line={line['id']}").status_code == 302 and Report.objects.count() == 1


def test_a_player_and_a_game_are_reported(table, client_for):
    game, users, _ = table
    c = client_for(users["stark"])
    assert "report-player" in c.get(f"/u/{users['lannister'].username}/").content.decode()
    assert "report-player" not in c.get(f"/u/{users['stark'].username}/").content.decode()
    assert post(c, f"user={users['lannister'].username}", reason="cheating").status_code == 302
    page = c.get(f"/report/?game={game.pk}")
    assert users["baratheon"].username in page.content.decode() and users["stark"].username not in page.content.decode().split("id_player")[-1][:400]
    assert post(c, f"game={game.pk}", reason="stalling", player=str(users["baratheon"].pk)).status_code == 302
    assert post(c, f"game={game.pk}", reason="other").status_code == 302  # the game as a whole
    got = sorted((r.reason, r.reported_id, r.game_id) for r in Report.objects.all())
    assert got == sorted([("cheating", users["lannister"].pk, None), ("stalling", users["baratheon"].pk, game.pk), ("other", None, game.pk)])


def test_refusals_write_nothing(table, client, client_for, make_lobby, make_user):
    game, users, line = table
    c = client_for(users["stark"])
    private = chat.post_chat(game.pk, users["lannister"], "private", "psst", "baratheon")
    secret_game, secret_users = start_game(make_lobby, 2, ruleset="duke", is_private=True, password="hidden-pw1")
    secret_line = chat.post_chat(secret_game.pk, secret_users["dark"], "public", "hi")
    assert client.get(f"/report/?line={line['id']}")["Location"].startswith("/accounts/login/")  # visitors log in first
    assert client.post(f"/report/?line={line['id']}", {"reason": "abuse"}).status_code == 302
    for query in (f"line={private['id']}", f"line={secret_line['id']}", f"game={secret_game.pk}", "line=999999", "game=999999",
                  "user=nobody", "", "line=abc", "line=-1", "line=1" + "0" * 30, "user=a%00b", "game=" + "9" * 40):
        assert post(c, query).status_code == 404, query
    assert post(c, f"user={users['stark'].username}").status_code == 400  # oneself
    for bad in ({"reason": "nonsense"}, {"reason": ""}, {"text": "x" * 501}, {"reason": "abuse\x00"}, {"text": "a\x00b"}):
        assert post(c, f"line={line['id']}", **bad).status_code == 400, bad
    assert post(c, f"game={game.pk}", player=str(users["stark"].pk)).status_code == 400  # not a choice: oneself
    assert post(c, f"game={game.pk}", player="999999").status_code == 400
    assert Report.objects.count() == 0


def test_report_floods_stop_per_person_and_per_address(table, client_for, make_user, settings):
    settings.THROTTLE_REPORT_USER, settings.THROTTLE_REPORT_IP = (3, 3600), (5, 3600)
    from django.core.cache import cache

    cache.clear()
    game, users, _ = table
    c = client_for(users["stark"])
    targets = [make_user(f"t{i}") for i in range(8)]
    for t in targets[:3]:
        assert post(c, f"user={t.username}").status_code == 302
    r = post(c, f"user={targets[3].username}")
    assert r.status_code == 429 and int(r["Retry-After"]) > 0 and Report.objects.count() == 3
    # other accounts of the same address: two more, then the address's limit
    for i, t in enumerate(targets[4:6]):
        other = client_for(make_user(f"sock{i}"))
        assert post(other, f"user={t.username}").status_code == 302
    r = post(client_for(make_user("sock9")), f"user={targets[6].username}")
    assert r.status_code == 429 and Report.objects.count() == 5
    # another address is counted apart
    fresh = client_for(make_user("elsewhere"))
    assert fresh.post(f"/report/?user={targets[7].username}", {"reason": "spam"}, REMOTE_ADDR="198.51.100.1").status_code == 302


def test_addresses_are_kept_at_login(client, make_user):
    user = make_user("alice")
    r = client.post("/accounts/login/", {"username": "alice", "password": "pw-long-enough-1"}, REMOTE_ADDR="2001:db8:1:2::5")
    assert r.status_code == 302
    assert list(UserAddress.objects.filter(user=user).values_list("address", flat=True)) == ["2001:db8:1:2::/64"]
    other = make_user("alt")
    addresses.record(other, "2001:db8:1:2::/64")
    shared = addresses.sharing(user)
    assert shared == [{"address": "2001:db8:1:2::/64", "accounts": [{"id": other.pk, "name": "alt", "username": "alt", "active": True}]}]

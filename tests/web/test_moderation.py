"""Moderation: the "Moderators" group and its exact permissions, the queue and a report's context,
each action (dismiss, warn, mute, unmute, ban, unban) done and logged with its reason, and every
action refused, changing nothing, to someone without its permission."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import Group, Permission

from game.live import chat, snapshots
from game.models import Action, Game, ModerationAction, Mute, Report
from game.site import addresses, moderation

from .live_helpers import connect, start_game

pytestmark = pytest.mark.django_db(transaction=True)

MODERATOR_PERMS = ["ban_user", "change_report", "mute_user", "see_addresses", "view_moderationaction", "view_report", "warn_user"]


@pytest.fixture(autouse=True)
def _setup(live_settings):
    """The group as its data migration makes it (a transactional test's flush empties the tables
    the migrations filled)."""
    import importlib

    from django.apps import apps

    importlib.import_module("game.migrations.0018_community_moderators_group").create_group(apps, None)
    snapshots.CACHE.clear()


@pytest.fixture
def moderator(make_user):
    user = make_user("mod")
    user.groups.add(Group.objects.get(name="Moderators"))
    return user


@pytest.fixture
def reported(make_lobby, make_user):
    """A game of three, a chat of 25 lines with one insult by Lannister in the middle, reported by
    Stark: ``(game, users, report)``."""
    game, users = start_game(make_lobby, 3)
    lines = []
    for i in range(25):
        who = users["lannister"] if i == 12 else users["baratheon" if i % 2 else "stark"]
        lines.append(chat.post_chat(game.pk, who, "public", "you idiots" if i == 12 else f"line {i}"))
    report = Report.objects.create(reporter=users["stark"], reported=users["lannister"], game=game, line_id=lines[12]["id"], reason="abuse", address="192.0.2.1")
    return game, users, report


def snapshot():
    return (
        sorted(Report.objects.values_list("pk", "status")), ModerationAction.objects.count(),
        sorted(Mute.objects.values_list("user_id", "until")), sorted(type_user().objects.values_list("pk", "is_active")),
    )


def type_user():
    from django.contrib.auth import get_user_model

    return get_user_model()


def test_the_moderators_group_holds_exactly_the_moderation_permissions():
    perms = sorted(Group.objects.get(name="Moderators").permissions.values_list("codename", flat=True))
    assert perms == MODERATOR_PERMS


def test_the_pages_are_for_moderators_only(reported, moderator, client, client_for, make_user):
    game, users, report = reported
    paths = ["/moderation/", f"/moderation/report/{report.pk}/", f"/moderation/user/{users['lannister'].username}/", "/moderation/log/"]
    for path in paths:
        assert client.get(path)["Location"].startswith("/accounts/login/"), path
        assert client_for(users["stark"]).get(path).status_code == 403, path
        assert client_for(moderator).get(path).status_code == 200, path
    assert "moderation-link" in client_for(moderator).get("/").content.decode()
    assert "moderation-link" not in client_for(users["stark"]).get("/").content.decode()


def test_a_report_shows_its_context(reported, moderator, client_for, make_user):
    game, users, report = reported
    addresses.record(users["lannister"], "203.0.113.7")
    alt = make_user("lannister-alt")
    addresses.record(alt, "203.0.113.7")
    page = client_for(moderator).get(f"/moderation/report/{report.pk}/").content.decode()
    chat_part = page.split('id="report-chat"')[1].split("</ol>")[0]
    assert chat_part.count("<li") == 21 and "you idiots" in chat_part and "line 2<" in chat_part and "line 1<" not in chat_part
    assert 'class="reported"' in chat_part
    assert "lannister-alt" in page.split('id="shared-addresses"')[1]
    queue = client_for(moderator).get("/moderation/").content.decode()
    assert f'data-report="{report.pk}"' in queue
    # without see_addresses, no addresses
    viewer = make_user("viewer")
    viewer.user_permissions.add(Permission.objects.get(codename="view_report"))
    assert 'id="shared-addresses"' not in client_for(viewer).get(f"/moderation/report/{report.pk}/").content.decode()


def act(c, **data):
    return c.post("/moderation/act/", {"reason": "see the chat", **data})


def test_dismiss_and_warn(reported, moderator, client_for):
    game, users, report = reported
    c = client_for(moderator)
    r = act(c, report=str(report.pk), kind="warn")
    assert r.status_code == 302
    report.refresh_from_db()
    assert report.status == "actioned" and report.handled_by == moderator
    logged = ModerationAction.objects.get()
    assert (logged.kind, logged.target, logged.report, logged.reason, logged.moderator) == ("warn", users["lannister"], report, "see the chat", moderator)
    # the warned player sees it on their pages until they acknowledge it
    player = client_for(users["lannister"])
    assert "moderation-warning" in player.get("/").content.decode()
    assert player.post("/accounts/warnings/seen/", {"next": "https://evil.example/"})["Location"] == "/"
    assert "moderation-warning" not in player.get("/").content.decode()
    # a handled report is not handled again
    assert act(c, report=str(report.pk), kind="dismiss").status_code == 400
    other = Report.objects.create(reporter=users["baratheon"], reported=users["stark"], reason="spam")
    assert act(c, report=str(other.pk), kind="dismiss").status_code == 302
    assert Report.objects.get(pk=other.pk).status == "dismissed" and ModerationAction.objects.count() == 2
    log = c.get("/moderation/log/").content.decode()
    assert log.count("<tr data-kind") == 2 and "see the chat" in log


def test_mute_refuses_chat_until_unmuted(reported, moderator, client_for):
    game, users, report = reported
    c = client_for(moderator)
    assert act(c, report=str(report.pk), kind="mute", minutes="90").status_code == 302
    mute = Mute.objects.get(user=users["lannister"])
    assert mute.active and mute.by == moderator
    from game.rules import IllegalAction

    with pytest.raises(IllegalAction) as e:
        chat.post_chat(game.pk, users["lannister"], "public", "and again")
    assert e.value.code == "chat.muted" and e.value.params["minutes"] == 90
    assert act(c, user=users["lannister"].username, kind="unmute").status_code == 302
    chat.post_chat(game.pk, users["lannister"], "public", "sorry")
    assert [a.kind for a in ModerationAction.objects.order_by("pk")] == ["mute", "unmute"]
    for bad in ("0", "43201", "x", ""):
        assert act(c, user=users["stark"].username, kind="mute", minutes=bad).status_code == 400, bad
    assert not Mute.objects.filter(user=users["stark"]).exists()


def test_ban_hands_the_running_games_to_the_stand_in_and_shuts_the_door(reported, moderator, client_for, client):
    game, users, report = reported
    other, other_users = start_game(lambda **kw: _lobby_with(users["lannister"], **kw), 2, ruleset="duke")
    from game.models import Lobby, Seat
    from game.site import lobbies

    waiting = lobbies.create_lobby(users["lannister"], name="Waiting", players=3)  # their own, not started
    theirs = lobbies.create_lobby(users["stark"], name="Joined", players=3)
    lobbies.join_lobby(theirs.pk, users["lannister"], invited=True)
    assert act(client_for(moderator), report=str(report.pk), kind="ban").status_code == 302
    assert Lobby.objects.get(pk=waiting.pk).status == "cancelled"
    assert not Seat.objects.filter(lobby=theirs, user=users["lannister"]).exists()
    lannister = type_user().objects.get(pk=users["lannister"].pk)
    assert not lannister.is_active
    for g, seat in ((game, "lannister"), (other, [h for h, u in other_users.items() if u.pk == lannister.pk][0])):
        g = Game.objects.get(pk=g.pk)
        assert seat in g.stand_ins
        assert Action.objects.filter(game=g, actor="").order_by("-number").values_list("action", flat=True)[0] == {"type": "stand_in", "seat": seat}
    r = client.post("/accounts/login/", {"username": lannister.username, "password": "pw-long-enough-1"})
    assert r.status_code != 302 or "/accounts/login/" in r["Location"]  # the login is refused
    assert not client.session.get("_auth_user_id")
    assert act(client_for(moderator), user=lannister.username, kind="unban").status_code == 302
    assert type_user().objects.get(pk=lannister.pk).is_active


def _lobby_with(user, players=2, seated=2, **kwargs):
    """An open lobby of ``user``'s with one more player."""
    from game.models import Profile
    from game.site import lobbies

    lobby = lobbies.create_lobby(user, name="Second", players=players, **kwargs)
    other = type_user().objects.create_user(f"second-{lobby.pk}", password="pw-long-enough-1")
    Profile.objects.create(user=other, display_name=other.username)
    lobbies.join_lobby(lobby.pk, other, invited=True)
    return lobby


@pytest.mark.asyncio
async def test_a_ban_closes_the_players_open_socket(reported, moderator, application):
    game, users, report = reported
    ws, _ = await connect(application, game.pk, users["lannister"])
    await ws.send_json_to({"type": "my_games", "id": 1})  # the page follows the person's group
    await ws.receive_json_from(timeout=5)
    await sync_to_async(moderation.act)(moderator, "ban", target=users["lannister"], report=report, reason="insults")
    closed = None
    for _ in range(10):
        out = await ws.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            closed = out["code"]
            break
    assert closed == 4403


def test_actions_outside_ones_permissions_change_nothing(reported, moderator, client_for, make_user):
    game, users, report = reported
    reviewer = make_user("reviewer")  # may read the queue, nothing more
    reviewer.user_permissions.add(Permission.objects.get(codename="view_report"))
    muter = make_user("muter")
    muter.user_permissions.add(*Permission.objects.filter(codename__in=["view_report", "mute_user"]))
    staff = make_user("staffer")
    type_user().objects.filter(pk=staff.pk).update(is_staff=True)
    before = snapshot()
    for who, kind in ((reviewer, "ban"), (reviewer, "dismiss"), (reviewer, "warn"), (reviewer, "mute"), (muter, "ban"), (muter, "unban"),
                      (users["stark"], "ban")):
        assert act(client_for(who), report=str(report.pk), kind=kind, minutes="5").status_code == 403, (who, kind)
    assert act(client_for(moderator), user="staffer", kind="ban").status_code == 400  # staff are not moderated here
    assert act(client_for(moderator), user="mod", kind="mute", minutes="5").status_code == 400  # nor oneself
    assert act(client_for(moderator), report=str(report.pk), kind="ban", reason="").status_code == 400  # a reason is kept
    assert act(client_for(moderator), report=str(report.pk), kind="erase").status_code == 400
    assert act(client_for(moderator), user="nobody", kind="ban").status_code == 400
    assert act(client_for(moderator), report="999999", kind="dismiss").status_code == 400
    assert client_for(moderator).get("/moderation/act/").status_code == 405
    assert snapshot() == before
    with pytest.raises(moderation.ModerationError) as e:
        moderation.act(reviewer, "ban", target=users["lannister"], reason="x")
    assert e.value.forbidden and snapshot() == before

"""Guest, login and lobby abuse.

* Throttles per client IP (``game.site.throttle``, counted in Django's cache): guest accounts,
  failed logins (also per username), wrong lobby passwords. Over the limit: HTTP 429, a translated
  message on the form, nothing written, no password checked. Under it: works. Each IP (each IPv6
  /64) has its own budget; ``X-Forwarded-For`` counts only behind the proxy (its last address).
* A cap on the open lobbies one user created.
* Names unique up to case, width, invisible characters, spaces and look-alike letters, across
  guests, registration and claimed accounts (forms and the database), and guests marked where
  names are shown (chat lines, seats).

The limits are the settings' defaults (5 guests per hour, 10 failed logins per IP and 5 per
username per 15 minutes, 10 wrong passwords per IP and lobby, 3 open lobbies).
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_login_failed
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from game.models import Lobby, Profile, name_key
from game.site import lobbies

pytestmark = pytest.mark.django_db
User = get_user_model()


def _client(ip: str = "203.0.113.7", **extra) -> Client:
    return Client(REMOTE_ADDR=ip, **extra)


def _errors(response) -> list[str]:
    form = response.context["form"]
    return [str(e) for errs in form.errors.values() for e in errs]


def _guest(c: Client, name: str, **extra):
    return c.post(reverse("guest"), {"display_name": name}, **extra)


# --- guest creation ------------------------------------------------------------------------------
def test_guests_over_the_limit_per_ip_are_refused_with_429_and_nothing_written():
    c = _client()
    for i in range(5):
        r = _guest(c, f"Wanderer {i}")
        assert r.status_code == 302, r.content[:300]
        c.logout()
    users, profiles = User.objects.count(), Profile.objects.count()
    r = _guest(c, "Wanderer 6")
    assert r.status_code == 429
    assert any(re.fullmatch(r"Too many guest accounts.*Try again in \d+ minutes?\.", e) for e in _errors(r))
    assert 0 < int(r["Retry-After"]) <= 3600
    assert (User.objects.count(), Profile.objects.count()) == (users, profiles)
    assert "_auth_user_id" not in c.session


def test_the_guest_limit_message_is_translated():
    c = _client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    for i in range(5):
        _guest(c, f"旅人{i}")
        c.logout()
    r = _guest(c, "旅人六")
    assert r.status_code == 429
    text = " ".join(_errors(r))
    assert "Too many" not in text and "游客账号过多" in text and "分钟后再试" in text


def test_each_ip_has_its_own_guest_budget():
    a, b = _client("198.51.100.1"), _client("198.51.100.2")
    for i in range(5):
        assert _guest(a, f"Alpha {i}").status_code == 302
        a.logout()
    assert _guest(a, "Alpha 6").status_code == 429
    assert _guest(b, "Beta 1").status_code == 302


def test_refused_guest_forms_do_not_spend_the_budget(make_user):
    make_user("Taken")
    c = _client()
    for _ in range(8):
        assert _guest(c, "taken").status_code == 400
    assert _guest(c, "Fresh").status_code == 302


def test_a_forged_forwarded_header_is_ignored_unless_behind_the_proxy(settings):
    settings.BEHIND_HTTPS_PROXY = False
    for i in range(5):
        c = _client("192.0.2.10", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}")
        assert _guest(c, f"Forger {i}").status_code == 302
    c = _client("192.0.2.10", HTTP_X_FORWARDED_FOR="10.0.0.99")
    assert _guest(c, "Forger 6").status_code == 429


def test_behind_the_proxy_the_last_forwarded_address_is_the_client(settings):
    settings.BEHIND_HTTPS_PROXY = True
    # the client may prepend anything; the proxy appends the address it saw (the last one)
    for i in range(5):
        c = _client("10.1.1.1", HTTP_X_FORWARDED_FOR=f"1.2.3.{i}, 192.0.2.20")
        assert _guest(c, f"Proxied {i}").status_code == 302
    c = _client("10.1.1.1", HTTP_X_FORWARDED_FOR="1.2.3.99, 192.0.2.20")
    assert _guest(c, "Proxied 6").status_code == 429
    c = _client("10.1.1.1", HTTP_X_FORWARDED_FOR="192.0.2.21")  # another client, same proxy
    assert _guest(c, "Proxied 7").status_code == 302


@pytest.mark.parametrize("forwarded", ["", "garbage", "1.2.3.4, not-an-ip", ",,,", "999.1.1.1", "\u202e1.2.3.4", "x" * 10_000])
def test_hostile_forwarded_headers_never_fail(settings, forwarded):
    settings.BEHIND_HTTPS_PROXY = True
    r = _guest(_client("10.1.1.1", HTTP_X_FORWARDED_FOR=forwarded), "Someone")
    assert r.status_code == 302


def test_the_client_ip_of_a_websocket_scope(settings):
    from game.live.clients import client_ip

    scope = {"type": "websocket", "client": ("10.0.0.5", 5555), "headers": [(b"x-forwarded-for", b"1.1.1.1, 192.0.2.30")]}
    assert client_ip(scope) == "10.0.0.5"
    settings.BEHIND_HTTPS_PROXY = True
    assert client_ip(scope) == "192.0.2.30"
    assert client_ip({"type": "websocket", "client": None, "headers": []}) == "unknown"


def test_ipv6_addresses_of_one_64_network_share_a_budget():
    for i in range(5):
        assert _guest(_client(f"2001:db8:1:2::{i + 1:x}"), f"Six {i}").status_code == 302
    assert _guest(_client("2001:db8:1:2:ffff::1"), "Six 6").status_code == 429
    assert _guest(_client("2001:db8:1:3::1"), "Six 7").status_code == 302


def test_a_limit_switched_off_counts_nothing(settings):
    settings.THROTTLE_GUEST = None
    for i in range(7):
        assert _guest(_client(), f"Unlimited {i}").status_code == 302


def test_limits_come_from_the_environment():
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    probe = (
        "import json, gotweb.settings as s; print(json.dumps([s.THROTTLE_GUEST, s.THROTTLE_LOGIN_IP, "
        "s.THROTTLE_LOGIN_USER, s.THROTTLE_LOBBY_PASSWORD, s.LOBBY_OPEN_PER_USER, s.BEHIND_HTTPS_PROXY]))"
    )
    names = ("THROTTLE_GUEST", "THROTTLE_LOGIN_IP", "THROTTLE_LOGIN_USER", "THROTTLE_LOBBY_PASSWORD",
             "LOBBY_OPEN_PER_USER", "BEHIND_HTTPS_PROXY")
    clean = {k: v for k, v in os.environ.items() if k not in names}
    root = Path(__file__).resolve().parents[2]

    def run(**env):
        out = subprocess.run([sys.executable, "-c", probe], cwd=root, env={**clean, **env}, check=True,
                             capture_output=True, text=True)
        return json.loads(out.stdout)

    assert run() == [[5, 3600], [10, 900], [5, 900], [10, 900], 3, False]
    set_ = run(THROTTLE_GUEST="2/60", THROTTLE_LOGIN_IP="off", LOBBY_OPEN_PER_USER="off", BEHIND_HTTPS_PROXY="1")
    assert set_ == [[2, 60], None, [5, 900], [10, 900], None, True]


# --- login ---------------------------------------------------------------------------------------
def _login(c: Client, username: str, password: str):
    return c.post(reverse("login"), {"username": username, "password": password})


def test_failed_logins_over_the_limit_per_ip_are_refused_with_429_even_with_the_right_password(make_user):
    make_user("alice")
    c = _client()
    for i in range(10):  # different usernames: the per-IP limit, not the per-username one
        assert _login(c, f"nobody{i}", "wrong-password").status_code == 200
    failed = []
    user_login_failed.connect(lambda **kw: failed.append(kw), weak=False, dispatch_uid="abuse-test")
    try:
        r = _login(c, "alice", "pw-long-enough-1")
    finally:
        user_login_failed.disconnect(dispatch_uid="abuse-test")
    assert r.status_code == 429
    assert any(re.fullmatch(r"Too many failed logins\. Try again in \d+ minutes?\.", e) for e in _errors(r))
    assert 0 < int(r["Retry-After"]) <= 900
    assert "_auth_user_id" not in c.session
    assert failed == []  # no password was checked
    # another address still logs in
    other = _client("203.0.113.99")
    assert _login(other, "alice", "pw-long-enough-1").status_code == 302


def test_under_the_login_limit_the_right_password_works(make_user):
    make_user("alice")
    c = _client()
    for _ in range(4):
        assert _login(c, "alice", "nope").status_code == 200
    assert _login(c, "alice", "pw-long-enough-1").status_code == 302
    assert c.session["_auth_user_id"]


def test_one_username_is_limited_across_addresses(make_user):
    make_user("alice")
    make_user("bob")
    for i in range(5):
        assert _login(_client(f"198.51.100.{i + 1}"), "alice", "guess").status_code == 200
    fresh = _client("198.51.100.77")
    r = _login(fresh, "ALICE", "pw-long-enough-1")  # the username up to case counts too
    assert r.status_code == 429
    r = _login(fresh, "alice", "pw-long-enough-1")
    assert r.status_code == 429 and "_auth_user_id" not in fresh.session
    assert _login(fresh, "bob", "pw-long-enough-1").status_code == 302


def test_a_successful_login_forgives_the_usernames_failures(make_user):
    make_user("alice")
    c = _client()
    for _ in range(4):
        _login(c, "alice", "nope")
    assert _login(c, "alice", "pw-long-enough-1").status_code == 302
    c.logout()
    for _ in range(4):
        assert _login(c, "alice", "nope").status_code == 200
    assert _login(c, "alice", "pw-long-enough-1").status_code == 302


def _log_out(c: Client) -> None:
    """Log out through the site's page, as a browser does (the test client's ``logout()`` would
    also drop every cookie)."""
    assert c.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in c.session


def _lock_out(username: str, guesses: int = 5) -> None:
    """Strangers fail ``guesses`` logins as ``username``, each from an address of its own."""
    for i in range(guesses):
        assert _login(_client(f"198.51.100.{i + 1}"), username, "guess").status_code == 200


def test_a_browser_that_logged_in_before_is_not_locked_out_by_strangers_guesses(make_user):
    """The per-username limit lets strangers lock an account out on purpose; the owner's own
    browser, holding the signed device cookie of an earlier login, still logs in."""
    make_user("alice")
    owner = _client("203.0.113.50")
    r = _login(owner, "alice", "pw-long-enough-1")
    assert r.status_code == 302 and r.cookies["login_device"]["httponly"]
    _log_out(owner)
    _lock_out("alice")
    assert _login(_client("198.51.100.77"), "alice", "pw-long-enough-1").status_code == 429  # a new browser
    assert _login(owner, "alice", "pw-long-enough-1").status_code == 302
    assert owner.session["_auth_user_id"]


def test_a_device_cookie_has_a_budget_of_its_own_and_then_counts_as_none(make_user):
    """Failures from a browser with the device cookie count against the cookie; over its limit the
    username's budget applies (a stolen cookie buys one more budget of guesses, not more)."""
    make_user("alice")
    owner = _client("203.0.113.50")
    assert _login(owner, "alice", "pw-long-enough-1").status_code == 302
    _log_out(owner)
    for _ in range(5):  # the cookie's budget
        assert _login(owner, "alice", "nope").status_code == 200
    assert _login(_client("198.51.100.77"), "alice", "pw-long-enough-1").status_code == 302  # the username's is untouched
    for _ in range(5):  # now counted per username
        assert _login(owner, "alice", "nope").status_code == 200
    assert _login(owner, "alice", "pw-long-enough-1").status_code == 429
    assert "_auth_user_id" not in owner.session


def test_another_accounts_or_a_tampered_device_cookie_does_not_help(make_user):
    make_user("alice")
    make_user("bob")
    bobs = _client("203.0.113.60")
    assert _login(bobs, "bob", "pw-long-enough-1").status_code == 302
    _log_out(bobs)
    _lock_out("alice")
    assert _login(bobs, "alice", "pw-long-enough-1").status_code == 429  # bob's cookie names bob
    forged = _client("203.0.113.61")
    value = bobs.cookies["login_device"].value
    for tampered in (value.replace("bob:", "alice:", 1), "alice:abc", "alice:abc:x" + value[-8:], "x" * 5000, "alice:\xe9\x7f\x01", ":::"):
        forged.cookies["login_device"] = tampered
        assert _login(forged, "alice", "pw-long-enough-1").status_code == 429


def test_login_with_hostile_input_never_fails_with_500():
    c = _client()
    for data in ({}, {"username": "x" * 100_000, "password": "y"}, {"username": "\x00\u202e", "password": ""},
                 {"username": ["a", "b"], "password": "p"}):
        r = c.post(reverse("login"), data)
        assert r.status_code in (200, 429)


# --- lobby passwords -----------------------------------------------------------------------------
@pytest.fixture
def private_lobby(make_lobby):
    return make_lobby(players=4, is_private=True, password="open sesame")


def _join(c: Client, lobby, password: str):
    return c.post(reverse("lobby_join", args=[lobby.pk]), {"house": "", "password": password})


def test_wrong_lobby_passwords_over_the_limit_are_refused_with_429_and_nothing_written(
    private_lobby, make_user, snapshot
):
    c = _client()
    c.force_login(make_user("joiner"))
    for _ in range(10):
        r = _join(c, private_lobby, "guess")
        assert r.status_code == 400 and "Wrong password." in _errors_of(r)
    before = snapshot()
    r = _join(c, private_lobby, "open sesame")
    assert r.status_code == 429
    assert re.search(r"Too many wrong passwords for this lobby\. Try again in \d+ minutes?\.", _errors_of(r))
    assert 0 < int(r["Retry-After"]) <= 900
    assert snapshot() == before


def _errors_of(response) -> str:
    form = response.context["join_form"]
    return " ".join(str(e) for errs in form.errors.values() for e in errs)


def test_lobby_password_budgets_are_per_ip_and_per_lobby(make_lobby, private_lobby, make_user):
    other_lobby = make_lobby(players=4, is_private=True, password="other")
    c = _client("198.51.100.5")
    c.force_login(make_user("joiner"))
    for _ in range(10):
        _join(c, private_lobby, "guess")
    assert _join(c, private_lobby, "open sesame").status_code == 429
    assert _join(c, other_lobby, "other").status_code == 302  # another lobby: its own budget
    d = _client("198.51.100.6")
    d.force_login(make_user("friend"))
    assert _join(d, private_lobby, "open sesame").status_code == 302  # another address
    assert private_lobby.seats.count() == 2


def test_under_the_lobby_password_limit_the_right_password_works(private_lobby, make_user):
    c = _client()
    c.force_login(make_user("joiner"))
    for _ in range(9):
        _join(c, private_lobby, "guess")
    assert _join(c, private_lobby, "open sesame").status_code == 302


# --- open lobbies per user -----------------------------------------------------------------------
def _create(c: Client, name: str):
    return c.post(reverse("lobby_create"), {"name": name, "players": 3, "house": ""})


def test_a_user_may_have_three_open_lobbies(make_user, snapshot):
    c = _client()
    user = make_user("host")
    c.force_login(user)
    for i in range(3):
        assert _create(c, f"Lobby {i}").status_code == 302
    before = snapshot()
    r = _create(c, "One too many")
    assert r.status_code == 400
    assert any("You already have 3 open lobbies." in e for e in _errors(r))
    assert snapshot() == before
    with pytest.raises(lobbies.LobbyError):
        lobbies.create_lobby(user, name="Around the form", players=3)
    assert snapshot() == before
    # a cancelled or started lobby no longer counts
    first = Lobby.objects.filter(creator=user).order_by("pk").first()
    lobbies.cancel_lobby(first.pk, user)
    assert _create(c, "After cancelling").status_code == 302
    # another user has their own cap
    other = make_user("other")
    lobbies.create_lobby(other, name="Mine", players=3)


def test_the_open_lobby_cap_is_a_setting(make_user, settings):
    settings.LOBBY_OPEN_PER_USER = 1
    user = make_user("host")
    lobbies.create_lobby(user, name="One", players=3)
    with pytest.raises(lobbies.LobbyError, match="1 open lobby"):
        lobbies.create_lobby(user, name="Two", players=3)
    settings.LOBBY_OPEN_PER_USER = None
    lobbies.create_lobby(user, name="Two", players=3)


# --- names ---------------------------------------------------------------------------------------
LOOK_ALIKES = ["alice", "ALICE", "Alice ", "ａｌｉｃｅ", "al\u200bice", "Al\u00adice", "\u202eAlice", "\u0430lice", "A\ufe0flice"]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_guest_cannot_take_a_registered_players_name(make_user, name):
    make_user("Alice")
    users = User.objects.count()
    r = _guest(_client(), name)
    assert r.status_code == 400
    assert any("already taken" in e for e in _errors(r))
    assert User.objects.count() == users


def test_a_guest_cannot_take_another_guests_name_in_another_case_or_spacing():
    assert _guest(_client("192.0.2.1"), "Jon  Snow").status_code == 302
    assert Profile.objects.get(is_guest=True).display_name == "Jon Snow"  # spaces collapsed
    for name in ("jon snow", "JON\u3000SNOW", "Jon\u200d Snow"):
        assert _guest(_client("192.0.2.2"), name).status_code == 400, name


def test_stored_names_lose_their_invisible_characters():
    assert _guest(_client(), "Ar\u200bya\u2060").status_code == 302
    assert Profile.objects.get(is_guest=True).display_name == "Arya"
    assert _guest(_client("192.0.2.3"), "\u200b\u200b\u3164").status_code == 400  # nothing visible


def test_chinese_names_stay_distinct_and_usable():
    assert _guest(_client("192.0.2.4"), "小明Tom").status_code == 302
    assert _guest(_client("192.0.2.5"), "小红").status_code == 302
    assert _guest(_client("192.0.2.6"), "小明TOM").status_code == 400


@pytest.mark.parametrize("name", ["ALICE", "ａｌｉｃｅ", "\u0430lice"])
def test_registration_cannot_take_a_guests_name(make_user, name):
    make_user("alice", guest=True)
    r = _client().post(reverse("register"), {"username": name, "password1": "a-Long-pass-9", "password2": "a-Long-pass-9"})
    assert r.status_code == 400
    assert User.objects.filter(profile__is_guest=False).count() == 0


def test_registration_names_are_at_most_30_characters():
    r = _client().post(reverse("register"), {"username": "x" * 31, "password1": "a-Long-pass-9", "password2": "a-Long-pass-9"})
    assert r.status_code == 400 and User.objects.count() == 0


def test_a_claim_cannot_take_someone_elses_name_but_may_keep_its_own(make_user):
    make_user("Sansa")
    guest = make_user("Arya", guest=True)
    c = _client()
    c.force_login(guest)
    data = {"password1": "a-Long-pass-9", "password2": "a-Long-pass-9"}
    r = c.post(reverse("claim"), {"username": "SANSA", **data})  # Django's own check: case
    assert r.status_code == 400
    r = c.post(reverse("claim"), {"username": "S\u0430nsa", **data})  # a Cyrillic a
    assert r.status_code == 400 and any("already taken" in e for e in _errors(r))
    guest.refresh_from_db()
    assert guest.profile.is_guest
    r = c.post(reverse("claim"), {"username": "arya", **data})
    assert r.status_code == 302
    profile = Profile.objects.get(user=guest)
    assert not profile.is_guest and profile.username_key == "arya"
    # the claimed login name is now reserved too, whatever the display name
    assert _guest(_client("192.0.2.9"), "ARYA").status_code == 400


def test_a_claimed_login_name_cannot_be_taken_as_a_display_name(make_user):
    guest = make_user("Nymeria", guest=True)
    c = _client()
    c.force_login(guest)
    data = {"password1": "a-Long-pass-9", "password2": "a-Long-pass-9"}
    assert c.post(reverse("claim"), {"username": "direwolf", **data}).status_code == 302
    assert _guest(_client("192.0.2.10"), "DireWolf").status_code == 400
    assert _guest(_client("192.0.2.11"), "nymeria").status_code == 400


def test_the_database_refuses_two_profiles_with_one_name_key(make_user):
    make_user("Alice")
    user = User.objects.create(username="guest-dup")
    with pytest.raises(IntegrityError), transaction.atomic():
        Profile.objects.create(user=user, is_guest=True, display_name="ＡＬＩＣＥ")
    assert name_key("ＡＬＩＣＥ") == Profile.objects.get(display_name="Alice").name_key


def test_bots_need_no_unique_name(make_lobby):
    a, b = make_lobby(players=3), make_lobby(players=3)
    lobbies.add_bot(a.pk, a.creator)
    lobbies.add_bot(b.pk, b.creator)
    bots = Profile.objects.filter(is_bot=True)
    assert [p.display_name for p in bots] == ["Bot 1 (basic)", "Bot 1 (basic)"]
    assert all(p.name_key is None for p in bots)


# --- guests marked where names are shown ---------------------------------------------------------
def test_guests_are_marked_in_seats_and_chat_lines(make_lobby, make_user):
    from game.live.chat import chat_history, post_chat
    from game.live.seats import seats_info

    guest = make_user("Hodor", guest=True)
    lobby = make_lobby(players=3)
    lobbies.join_lobby(lobby.pk, guest, house="stark")
    lobbies.add_bot(lobby.pk, lobby.creator)
    lobbies.start_lobby(lobby.pk, lobby.creator)
    game = Lobby.objects.get(pk=lobby.pk).game
    info = {s["player"]: s for s in seats_info(game, "en")}
    assert info["Hodor"]["guest"] is True
    assert info[lobby.creator.username]["guest"] is False
    assert info["Bot 1 (basic)"]["guest"] is False  # a bot is marked as a bot, not a guest
    line = post_chat(game.pk, guest, "public", "Hodor!")
    assert line["guest"] is True and line["author"] == "Hodor"
    line = post_chat(game.pk, lobby.creator, "public", "hello")
    assert line["guest"] is False
    assert [m["guest"] for m in chat_history(game.pk, "stark")] == [True, False]
    assert lobbies.lobby_state(lobby)["seats"][1]["guest"] is True

    c = Client()
    c.force_login(guest)
    page = c.get(reverse("game_play", args=[game.pk])).content.decode()
    assert 'Hodor <span class="tag tag-guest">guest</span>' in page
    lobby_page = c.get(reverse("lobby_detail", args=[lobby.pk])).content.decode()
    assert 'Hodor <span class="tag tag-guest">guest</span>' in lobby_page


# --- the migration that made names unique ----------------------------------------------------------
@pytest.fixture
def latest_schema_after():
    """The database migrated forward to the latest migrations after the test, whatever happened:
    a test that migrates back must not leave later tests an old schema."""
    yield
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_look_alike_names_deterministically(latest_schema_after):
    """0006_unique_names: registered accounts (oldest first) keep their names, then guests (oldest
    first) keep theirs while free, else get "<name> 2", "<name> 3"...; a guest may not keep a
    registered username; bots keep their shared names."""
    import datetime

    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("game", "0005_decisions_since")], [("game", "0006_unique_names")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldUser, OldProfile = old.get_model("auth", "User"), old.get_model("game", "Profile")
    OldLobby, OldSeat = old.get_model("game", "Lobby"), old.get_model("game", "Seat")
    t0 = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)

    def person(username, shown, guest, day):
        u = OldUser.objects.create(username=username, date_joined=t0 + datetime.timedelta(days=day))
        OldProfile.objects.create(user=u, is_guest=guest, display_name=shown)
        return u

    person("guest-1", "alice", True, 0)  # the oldest, but a guest
    person("Alice", "Alice", False, 5)
    person("guest-2", "ＡＬＩＣＥ", True, 1)
    person("guest-3", "Bob\u200b", True, 2)
    person("bob", "bob", False, 6)
    person("Dave", "Daveth", False, 7)  # a claimed guest: shown as Daveth, logs in as Dave
    person("guest-4", "dave", True, 3)
    host = person("host", "host", False, 8)
    lobby = OldLobby.objects.create(name="L", players=3, creator=host)
    for i in range(2):
        bot = person(f"bot-{i}", "Bot 1 (basic)", True, 9)
        OldSeat.objects.create(lobby=lobby, user=bot, bot="basic")

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    shown = dict(new.get_model("game", "Profile").objects.values_list("user__username", "display_name"))
    assert shown == {
        "Alice": "Alice", "bob": "bob", "Dave": "Daveth", "host": "host",
        "guest-1": "alice 2", "guest-2": "ＡＬＩＣＥ 3", "guest-3": "Bob 2", "guest-4": "dave 2",
        "bot-0": "Bot 1 (basic)", "bot-1": "Bot 1 (basic)",
    }
    NewProfile = new.get_model("game", "Profile")
    assert set(NewProfile.objects.filter(is_bot=True).values_list("user__username", flat=True)) == {"bot-0", "bot-1"}
    assert NewProfile.objects.get(user__username="Dave").username_key == "dave"


# --- simultaneous requests (PostgreSQL; tests/web/test_postgres.py runs them there) ---------------
def _race(n: int, fn) -> list:
    import threading

    from django.db import connection

    barrier = threading.Barrier(n)
    results: list = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = fn(i)
        except lobbies.LobbyError as e:
            results[i] = str(e.message)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.fixture
def concurrent_db():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL's concurrent connections (tests/web/test_postgres.py runs it there)")


@pytest.mark.django_db(transaction=True)
def test_simultaneous_creations_cannot_pass_the_open_lobby_cap(concurrent_db, make_user):
    user = make_user("host")
    for i in range(2):
        lobbies.create_lobby(user, name=f"L{i}", players=3)
    results = _race(4, lambda i: lobbies.create_lobby(user, name=f"Race {i}", players=3))
    assert sum(1 for r in results if isinstance(r, Lobby)) == 1
    assert Lobby.objects.filter(creator=user, status="open").count() == 3


@pytest.mark.django_db(transaction=True)
def test_simultaneous_guests_cannot_share_a_name(concurrent_db):
    results = _race(4, lambda i: _guest(_client(f"192.0.2.{50 + i}"), "Twin" if i % 2 else "TWIN").status_code)
    assert sorted(results) == [302, 400, 400, 400]
    assert Profile.objects.filter(name_key=name_key("twin")).count() == 1
    assert User.objects.count() == 1

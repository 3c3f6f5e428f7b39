"""Bot levels on the site: the lobby seats a ``strong`` bot only where the ruleset has one, a
strong bot thinks in a real worker process (spawned, shut down after) with the game's budget and
off the game's lock, stand-ins play strong when the budget allows, and the home page starts a
game against bots in one request."""

from __future__ import annotations

import pytest
from django.urls import reverse

from game.live import bot_pool
from game.live.apply import bot_act
from game.models import Game, Seat
from game.rules import base, get_ruleset, register, unregister
from game.site import bot_games, lobbies

pytestmark = pytest.mark.django_db(transaction=True)

WEAK = "toyweak"


@pytest.fixture
def weak_toy(live_settings):
    register(WEAK, "tests.web.test_bot_levels:WEAK_RULESET")
    yield get_ruleset(WEAK)
    unregister(WEAK)


@pytest.fixture
def pool(settings):
    """One worker process, a short budget; the workers are stopped after the test."""
    settings.GAME_BOT_WORKERS = 1
    settings.GAME_BOT_BUDGET = 0.2
    yield settings
    bot_pool.shutdown()
    assert not bot_pool.started()


def _weak_ruleset():
    """The toy ruleset (Twenty-one) with only the random and basic bots."""
    from tests.web.toy_ruleset import TwentyOne

    class WeakTwentyOne(TwentyOne):
        id = WEAK
        bot_levels = ("random", "basic")

    return WeakTwentyOne()


WEAK_RULESET = _weak_ruleset()


def test_levels_come_from_the_ruleset(weak_toy):
    assert base.bot_levels(get_ruleset("duke")) == ("random", "basic", "strong")
    assert base.bot_levels(weak_toy) == ("random", "basic")
    assert lobbies.bot_levels("duke") == ["basic", "strong", "random"]
    assert lobbies.bot_levels(WEAK) == ["basic", "random"]


def test_a_lobby_seats_a_strong_bot_only_where_the_game_has_one(weak_toy, make_lobby, snapshot):
    duke = make_lobby(players=2, ruleset="duke")
    seat = lobbies.add_bot(duke.pk, duke.creator, level="strong")
    assert seat.bot == "strong"
    from game.models import display_name

    assert display_name(seat.user) == "Bot 1 (strong)"
    weak = make_lobby(players=2, ruleset=WEAK)
    before = snapshot()
    with pytest.raises(lobbies.LobbyError) as e:
        lobbies.add_bot(weak.pk, weak.creator, level="strong")
    assert e.value.field == "level"
    with pytest.raises(lobbies.LobbyError):
        lobbies.add_bot(weak.pk, weak.creator, level="genius")
    assert snapshot() == before


def test_the_lobby_page_offers_the_games_levels(weak_toy, make_lobby, client):
    duke = make_lobby(players=2, ruleset="duke")
    weak = make_lobby(players=2, ruleset=WEAK)
    client.force_login(duke.creator)
    assert 'value="strong"' in client.get(reverse("lobby_detail", args=[duke.pk])).content.decode()
    client.force_login(weak.creator)
    page = client.get(reverse("lobby_detail", args=[weak.pk])).content.decode()
    assert 'value="basic"' in page and 'value="strong"' not in page


def test_a_strong_bot_thinks_in_a_worker_process(pool, live_settings, make_lobby):
    lobby = make_lobby(players=2, ruleset="duke")
    lobbies.add_bot(lobby.pk, lobby.creator, level="strong")
    lobbies.start_lobby(lobby.pk, lobby.creator)
    game = Game.objects.get(lobby=lobby)
    bot = Seat.objects.get(lobby=lobby, user__profile__is_bot=True).house
    rules = game.rules
    from game.live import snapshots

    moved = 0
    for _ in range(6):  # setup turns, then the bot's first decisions of play
        state = snapshots.state_at(Game.objects.get(pk=game.pk))
        (decision,) = rules.pending(state)
        if decision.actor == bot:
            assert bot_act(game.pk) is not None
            moved += 1
        else:
            from game.live.apply import act

            act(game.pk, lobby.creator, decision.options["actions"][0], Game.objects.get(pk=game.pk).version)
    assert moved >= 2
    assert bot_pool.started()  # the strong level went to the pool (basic would not start it)


def test_a_bot_that_thought_about_an_old_version_writes_nothing(live_settings, settings, make_lobby, monkeypatch):
    settings.GAME_BOT_WORKERS = 0
    from game.live import apply

    monkeypatch.setattr(apply.secrets, "randbits", lambda bits: 1)  # a game whose "dark" sets up first
    lobby = make_lobby(players=2, ruleset="duke")
    lobbies.add_bot(lobby.pk, lobby.creator, level="basic", house="dark")
    lobbies.start_lobby(lobby.pk, lobby.creator)
    game = Game.objects.get(lobby=lobby)
    real = bot_pool.think

    def think_while_a_note_lands(*args, **kwargs):
        Game.objects.filter(pk=game.pk).update(version=game.version + 1000)  # another write came first
        return real(*args, **kwargs)

    monkeypatch.setattr(bot_pool, "think", think_while_a_note_lands)
    from game.live import snapshots

    state = snapshots.state_at(game)
    assert rules_actor(game, state) is not None  # the bot is awaited
    assert bot_act(game.pk) is None
    assert game.actions.count() == 0


def rules_actor(game, state):
    bots = set(Seat.objects.filter(lobby_id=game.lobby_id).exclude(bot="").values_list("house", flat=True))
    return next((d.actor for d in game.rules.pending(state) if d.actor in bots), None)


def test_budgets_and_the_stand_ins_level(settings):
    settings.GAME_BOT_BUDGET, settings.GAME_BOT_BUDGET_CORRESPONDENCE, settings.GAME_BOT_STRONG_MIN = 2.0, 10.0, 0.5
    live = Game(time_control={"kind": "live", "bank": 600, "increment": 5}, clocks={"a": {"left": 600.0, "since": None}})
    assert bot_pool.budget_for(Game(time_control={"kind": "deadline", "per_move": 3600}), "a") == 10.0
    assert bot_pool.budget_for(Game(time_control={"kind": "none"}), "a") == 2.0
    short = Game(time_control={"kind": "live", "bank": 600, "increment": 5}, clocks={"a": {"left": 10.0, "since": None}})
    assert bot_pool.budget_for(short, "a", now=0) == pytest.approx(0.5)
    assert bot_pool.budget_for(live, "a", now=0) == 2.0
    assert bot_pool.stand_in_level(("random", "basic", "strong"), 2.0) == "strong"
    assert bot_pool.stand_in_level(("random", "basic", "strong"), 0.4) == "basic"
    assert bot_pool.stand_in_level(("random", "basic"), 10.0) == "basic"


def test_play_against_bots_in_one_request(client, make_user, live_settings):
    user = make_user("alone")
    client.force_login(user)
    home = client.get(reverse("lobby_list")).content.decode()
    assert 'id="play-bots-form"' in home
    response = client.post(reverse("play_bots"), {"game": "duke", "level": "strong"})
    game = Game.objects.get(lobby__creator=user)
    assert response.status_code == 302 and response["Location"] == game.lobby.play_url
    assert game.status == Game.Status.RUNNING and game.lobby.is_private
    assert sorted(Seat.objects.filter(lobby=game.lobby).values_list("bot", flat=True)) == ["", "strong"]


def test_a_long_name_is_cut_to_a_lobby_name(client, make_user, live_settings):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("x" * 150)
    client.force_login(user)
    client.post(reverse("play_bots"), {"game": "duke", "level": "basic"})
    assert len(Game.objects.get(lobby__creator=user).lobby.name) == 60


def test_anonymous_visitors_are_asked_to_play_as_guests(client):
    html = client.get(reverse("lobby_list")).content.decode()
    assert 'id="play-bots-form"' not in html and reverse("guest") + "?next=/" in html
    assert client.post(reverse("play_bots"), {"game": "duke"}).status_code == 302  # to the login
    assert not Game.objects.exists()


def test_play_against_bots_in_chinese(client, make_user):
    client.force_login(make_user("alone"))
    client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    html = client.get(reverse("lobby_list")).content.decode()
    assert "与电脑玩家对战" in html and "强级电脑玩家" in html and "公爵战棋，2 人" in html


def test_play_against_bots_refuses_what_is_not_offered(client, make_user, live_settings, snapshot):
    client.force_login(make_user("alone"))
    before = snapshot()
    for data in ({"game": "chess", "level": "basic"}, {"game": "duke", "level": "genius"}):
        response = client.post(reverse("play_bots"), data)
        assert response.status_code == 302 and response["Location"] == reverse("lobby_list")
    assert snapshot() == before
    assert client.get(reverse("play_bots")).status_code == 405


def test_a_missing_strong_level_falls_back_to_basic(weak_toy, settings, make_user):
    settings.GAME_AGAINST_BOTS = [(WEAK, 2)]
    lobby, played = bot_games.start_against_bots(make_user("alone"), WEAK, "strong", "x")
    assert played == "basic"
    assert list(Seat.objects.filter(lobby=lobby).exclude(bot="").values_list("bot", flat=True)) == ["basic"]


def _strong_duke_awaiting_its_bot(make_lobby):
    """A Duke game of a person and a strong bot, played by the person until the bot is awaited."""
    from game.live import snapshots
    from game.live.apply import act

    lobby = make_lobby(players=2, ruleset="duke")
    lobbies.add_bot(lobby.pk, lobby.creator, level="strong")
    lobbies.start_lobby(lobby.pk, lobby.creator)
    game = Game.objects.get(lobby=lobby)
    bot = Seat.objects.get(lobby=lobby, user__profile__is_bot=True).house
    for _ in range(4):
        game = Game.objects.get(pk=game.pk)
        (decision,) = game.rules.pending(snapshots.state_at(game))
        if decision.actor == bot:
            return game
        act(game.pk, lobby.creator, decision.options["actions"][0], game.version)
    raise AssertionError("the bot is never awaited")


def test_a_rescue_plays_at_once_and_never_searches(live_settings, settings, make_lobby, monkeypatch):
    """The scheduler's rescue of an overdue strong bot: no search (its thread would hold every
    other deadline), the basic bot's move at once."""
    settings.GAME_BOT_WORKERS = 1
    game = _strong_duke_awaiting_its_bot(make_lobby)
    asked = []
    real = bot_pool.think
    monkeypatch.setattr(bot_pool, "think", lambda *a, **k: asked.append(a[3]) or real(*a, **k))
    assert bot_act(game.pk, rescue=True) == game.version + 1
    assert asked == ["basic"]
    assert not bot_pool.started()  # no worker was asked


def test_a_rescue_leaves_a_search_under_way_to_answer(live_settings, settings, make_lobby):
    settings.GAME_BOT_WORKERS = 1
    game = _strong_duke_awaiting_its_bot(make_lobby)
    with bot_pool.searching((game.pk, game.version)):
        assert bot_pool.in_flight((game.pk, game.version))
        assert bot_act(game.pk, rescue=True) is None
        assert Game.objects.get(pk=game.pk).version == game.version  # nothing written
    assert not bot_pool.in_flight((game.pk, game.version))
    assert bot_act(game.pk, rescue=True) == game.version + 1  # the search gone: the rescue plays


@pytest.mark.parametrize("limit", ["THROTTLE_BOT_GAME_USER", "THROTTLE_BOT_GAME_IP"])
def test_games_against_bots_are_limited(client, make_user, live_settings, settings, limit):
    """Each game's bots think on the server: a person (or an address) starts at most a few an hour;
    past it the home page says so and nothing is created."""
    setattr(settings, limit, (2, 3600))
    client.force_login(make_user("eager"))
    for _ in range(2):
        assert client.post(reverse("play_bots"), {"game": "duke", "level": "basic"}).status_code == 302
    games = Game.objects.count()
    response = client.post(reverse("play_bots"), {"game": "duke", "level": "basic"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("lobby_list")
    assert "many games against bots" in response.content.decode()
    assert Game.objects.count() == games == 2

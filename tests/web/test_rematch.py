""""Play again" on a finished game (game.site.rematch, POST /game/<id>/rematch/): the first player
opens a lobby like the game's own with its bots, the others are seated in it without a password,
a table of one person and bots starts at once, the open pages of the table are told; refusals
change nothing."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from tests.web.live_helpers import connect, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_settings")]


def _finish(game) -> None:
    from game.models import Game

    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, result={"winner": "stark"})
    game.refresh_from_db()


def _post(client, game):
    return client.post(reverse("game_rematch", args=[game.pk]))


def test_the_first_player_opens_a_lobby_like_the_games_own(make_lobby, client_for):
    from game.models import Lobby
    from game.site import lobbies

    tc = {"kind": "live", "bank": 900, "increment": 10, "max_timeouts": 2}
    lobby = make_lobby(players=4, seated=3, name="Friday table", is_private=True, password="pw", time_control=tc,
                       options={"tides_of_battle": True})
    lobbies.add_bot(lobby.pk, lobby.creator, level="basic")
    lobbies.start_lobby(lobby.pk, lobby.creator)
    game = Lobby.objects.get(pk=lobby.pk).game
    _finish(game)
    second = lobby.seats.exclude(user=lobby.creator).filter(bot="").first().user
    r = _post(client_for(second), game)
    again = Lobby.objects.get(rematch_of=game)
    assert r.status_code == 302 and r["Location"] == again.get_absolute_url()
    assert (again.name, again.ruleset, again.players, again.is_private, again.has_password) == ("Friday table", "agot2", 4, True, False)
    assert again.options == Lobby.objects.get(pk=lobby.pk).options and again.options["tides_of_battle"] is True
    assert again.time_control == lobby.time_control and again.status == Lobby.Status.OPEN
    assert again.creator == second
    seats = list(again.seats.order_by("pk").values_list("user_id", "bot", "house"))
    assert seats[0] == (second.pk, "", "") and [b for _, b, _ in seats[1:]] == ["basic"]  # houses drawn again
    # the other players are seated in it, a private lobby without its password
    for seat in lobby.seats.filter(bot="").exclude(user=second):
        c = client_for(seat.user)
        assert c.get(again.get_absolute_url()).status_code == 404  # not theirs to see before
        r = _post(c, game)
        assert r.status_code == 302 and r["Location"] == again.get_absolute_url()
        assert again.seats.filter(user=seat.user).exists()
        assert c.get(again.get_absolute_url()).status_code == 200
        assert _post(c, game)["Location"] == again.get_absolute_url()  # asked twice: back to it
    assert again.seats.count() == 4 and Lobby.objects.filter(rematch_of=game).count() == 1


def test_one_person_and_bots_play_again_at_once(make_user, client_for):
    from game.models import Game, Lobby
    from game.site import bot_games

    user = make_user("solo")
    lobby, _ = bot_games.start_against_bots(user, "agot2", "basic", "Solo against bots")
    game = Game.objects.get(lobby=lobby)
    _finish(game)
    r = _post(client_for(user), game)
    again = Lobby.objects.get(rematch_of=game)
    assert again.status == Lobby.Status.STARTED and again.is_private
    assert r["Location"] == reverse("game_play", args=[again.game.pk])
    assert sorted(again.seats.values_list("bot", flat=True)) == ["", "basic", "basic"]


def test_refusals_change_nothing(make_lobby, make_user, client_for, client, snapshot):
    from game.models import Lobby

    game, users = start_game(make_lobby, players=3)
    player = next(iter(users.values()))
    before = snapshot()
    r = _post(client_for(player), game)  # not over yet
    assert r.status_code == 302 and r["Location"] == reverse("game_play", args=[game.pk])
    _finish(game)
    stranger = make_user("stranger")
    r = _post(client_for(stranger), game)  # a spectator of a public game held no seat
    assert r["Location"] == reverse("game_play", args=[game.pk])
    assert _post(client, game)["Location"].startswith(reverse("login"))  # a visitor: log in first
    assert client_for(player).get(reverse("game_rematch", args=[game.pk])).status_code == 405
    assert client_for(player).post(reverse("game_rematch", args=[999_999])).status_code == 404
    assert snapshot() == before and not Lobby.objects.filter(rematch_of=game).exists()


def test_refusal_messages(make_lobby, make_user, client_for):
    game, users = start_game(make_lobby, players=3)
    c = client_for(next(iter(users.values())))
    page = c.post(reverse("game_rematch", args=[game.pk]), follow=True).content.decode()
    assert "This game is not over yet." in page
    _finish(game)
    page = client_for(make_user("stranger")).post(reverse("game_rematch", args=[game.pk]), follow=True).content.decode()
    assert "Only the players of this game can play it again." in page


def test_a_private_game_is_a_404_to_strangers(make_lobby, make_user, client_for):
    game, _ = start_game(make_lobby, players=3, is_private=True)
    _finish(game)
    assert _post(client_for(make_user("stranger")), game).status_code == 404


def test_a_rematch_started_without_you_and_a_cancelled_one(make_lobby, client_for):
    from game.models import Lobby
    from game.site import lobbies

    game, users = start_game(make_lobby, players=3)
    _finish(game)
    a, b, c = users.values()
    _post(client_for(a), game)
    again = Lobby.objects.get(rematch_of=game)
    lobbies.cancel_lobby(again.pk, a)
    _post(client_for(b), game)  # the cancelled one is let go: b opens another
    again = Lobby.objects.get(rematch_of=game)
    assert again.creator == b and again.status == Lobby.Status.OPEN
    lobbies.add_bot(again.pk, b)
    lobbies.add_bot(again.pk, b)
    lobbies.start_lobby(again.pk, b)
    page = client_for(c).post(reverse("game_rematch", args=[game.pk]), follow=True).content.decode()
    assert "The rematch has started without you." in page
    assert not again.seats.filter(user=c).exists()
    # nothing left to offer c, on the game's page or on "My games"
    assert 'id="rematch-box"' not in client_for(c).get(reverse("game_play", args=[game.pk])).content.decode()
    assert 'action="' + reverse("game_rematch", args=[game.pk]) not in client_for(c).get(reverse("my_games")).content.decode()


def test_the_page_offers_it_to_the_players_only(make_lobby, make_user, client_for):
    game, users = start_game(make_lobby, players=3)
    a, b, _ = users.values()
    html = client_for(a).get(reverse("game_play", args=[game.pk])).content.decode()
    assert 'id="rematch-box" hidden' in html  # shown by the page's script when the game ends
    _finish(game)
    html = client_for(a).get(reverse("game_play", args=[game.pk])).content.decode()
    assert 'id="rematch-box"' in html and 'id="rematch-box" hidden' not in html and ">Play again<" in html
    assert 'id="rematch-box"' not in client_for(make_user("watcher")).get(reverse("game_play", args=[game.pk])).content.decode()
    _post(client_for(a), game)
    assert ">Join the rematch<" in client_for(b).get(reverse("game_play", args=[game.pk])).content.decode()
    assert ">Go to the rematch<" in client_for(a).get(reverse("game_play", args=[game.pk])).content.decode()
    html = client_for(b).get(reverse("game_play", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    assert ">加入再来一局<" in html


async def test_the_tables_open_pages_are_told(application, make_lobby, make_user):
    from game.site import rematch

    game, users = await sync_to_async(start_game)(make_lobby, players=3)
    await sync_to_async(_finish)(game)
    a, b, _ = users.values()
    watcher = await sync_to_async(make_user)("watcher")
    player_ws, _ = await connect(application, game.pk, b)
    watcher_ws, _ = await connect(application, game.pk, watcher)
    lobby = await sync_to_async(rematch.play_again)(game.pk, a)
    told = await player_ws.receive_json_from(timeout=5)
    assert told == {"type": "rematch", "lobby": lobby.pk}
    assert await watcher_ws.receive_nothing(timeout=0.5)  # the rematch is the table's
    await player_ws.disconnect()
    await watcher_ws.disconnect()


def test_a_rematch_against_bots_counts_as_a_game_against_bots(make_user, client_for, settings):
    """Its bots think on the server: past THROTTLE_BOT_GAME_USER, nothing is opened."""
    from game.models import Game, Lobby
    from game.site import bot_games

    settings.THROTTLE_BOT_GAME_USER = (1, 3600)
    user = make_user("eager")
    c = client_for(user)
    games = []
    for _ in range(2):
        lobby, _ = bot_games.start_against_bots(user, "duke", "basic", "Duel")
        games.append(Game.objects.get(lobby=lobby))
        _finish(games[-1])
    assert _post(c, games[0])["Location"].startswith("/game/")  # the first: a new game
    page = c.post(reverse("game_rematch", args=[games[1].pk]), follow=True).content.decode()
    assert "many games against bots" in page and not Lobby.objects.filter(rematch_of=games[1]).exists()


def test_the_home_page_offers_the_rematches_waiting_for_you(make_lobby, make_user, client_for):
    """A player away from the finished game finds its rematch under "Your games" and joins it from
    there; a stranger does not see it; once joined, it is one of their lobbies."""
    game, users = start_game(make_lobby, players=3, is_private=True)
    _finish(game)
    a, b, _ = users.values()
    _post(client_for(a), game)
    home = reverse("lobby_list")
    html = client_for(b).get(home).content.decode()
    action = reverse("game_rematch", args=[game.pk])
    assert f'action="{action}"' in html and "opened a rematch of Test lobby." in html and "1 / 3 players" in html
    assert f'action="{action}"' not in client_for(a).get(home).content.decode()  # already seated
    assert f'action="{action}"' not in client_for(make_user("stranger")).get(home).content.decode()
    assert "的再来一局" in client_for(b).get(home, HTTP_ACCEPT_LANGUAGE="zh-CN").content.decode()
    _post(client_for(b), game)
    html = client_for(b).get(home).content.decode()
    assert f'action="{action}"' not in html and 'id="rematches"' not in html and "Test lobby" in html


def test_two_players_at_once_open_one_rematch(make_lobby, postgres_only):
    """Two players press "Play again" at the same moment (two threads, two PostgreSQL connections):
    the game's row lock makes one of them open the lobby and the other join it: one rematch, both
    seated, whichever came first."""
    import threading

    from django.db import connection, connections

    from game.models import Lobby
    from game.site import rematch

    def run(game_id, user, barrier, done, errors):
        try:
            barrier.wait(timeout=30)
            done.append(rematch.play_again(game_id, user).pk)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
        finally:
            connections.close_all()

    for _ in range(3):
        game, users = start_game(make_lobby, players=3)
        _finish(game)
        pair = list(users.values())[:2]
        barrier, errors, done = threading.Barrier(2), [], []
        threads = [threading.Thread(target=run, args=(game.pk, u, barrier, done, errors)) for u in pair]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not errors, errors
        again = Lobby.objects.get(rematch_of=game)
        assert done == [again.pk, again.pk]
        assert set(again.seats.filter(bot="").values_list("user_id", flat=True)) == {u.pk for u in pair}
    assert connection.vendor == "postgresql"

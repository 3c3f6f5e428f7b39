"""The table's votes (game/live/votes.py): pause, extend, end, replace, swap; each a few notes of
the game's log, pushed with the seat status; unanimous among the people who vote (the stand-ins
and bots abstain without blocking); every refusal changes nothing. The race of two ballots
resolving one vote at once runs on PostgreSQL (test_live_postgres.py runs this file there)."""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections

from game.live import apply, bots, clocks, payloads, scheduler, seats, snapshots, stand_ins, vacancies, votes
from game.models import Action, Game, GameRating, Lobby, Seat
from game.rules import IllegalAction

from .live_helpers import connect, drain, legal_json, start_game

pytestmark = pytest.mark.django_db(transaction=True)

LIVE = {"kind": "live", "bank": 600, "increment": 5, "max_timeouts": 2}


@pytest.fixture(autouse=True)
def _setup(live_settings):
    live_settings.GAME_AWAY_AFTER = 0
    live_settings.GAME_VOTE_TIME = 300
    live_settings.GAME_VOTE_REST = 300
    snapshots.CACHE.clear()
    yield
    bots.wait_for_bots()


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def logged(game) -> list[dict]:
    """The site's notes of the game's log, in order."""
    return list(Action.objects.filter(game=game, actor="").order_by("number").values_list("action", flat=True))


def fingerprint(game):
    g = fresh(game)
    seats_ = sorted(Seat.objects.filter(lobby_id=g.lobby_id).values_list("house", "user_id"))
    return g.version, g.table, g.clocks, g.stand_ins, g.status, str(g.deadline), seats_, Action.objects.filter(game=g).count()


def refused(code, fn, *args, **kwargs):
    with pytest.raises(IllegalAction) as e:
        fn(*args, **kwargs)
    assert e.value.code == code, e.value.code
    return e.value


def test_a_pause_stops_every_clock_until_its_end(make_lobby, clock):
    game, users = start_game(make_lobby, 3, time_control=LIVE)
    status = votes.propose(game.pk, users["stark"], "pause", minutes=5)
    v = status["table"]["vote"]
    assert v["kind"] == "pause" and v["by"] == "stark" and v["yes"] == ["stark"] and v["minutes"] == 5
    assert v["voters"] == ["baratheon", "lannister", "stark"] and v["awaiting"] == ["baratheon", "lannister"]
    assert fresh(game).deadline.timestamp() == pytest.approx(clock.t + 300)  # the vote's expiry comes first
    clock.t += 10
    votes.ballot(game.pk, users["lannister"], v["n"], True)
    assert all(c["running"] for c in seats.game_seat_status(game.pk)["clocks"].values())  # not yet
    clock.t += 10
    status = votes.ballot(game.pk, users["baratheon"], v["n"], True)
    assert status["table"]["vote"] is None and status["table"]["pause"]["until"] == pytest.approx(clock.t + 300)
    assert not any(c["running"] for c in status["clocks"].values())
    assert [c["remaining"] for c in status["clocks"].values()] == [580.0] * 3
    g = fresh(game)
    assert g.deadline.timestamp() == pytest.approx(clock.t + 300)
    kinds = [n["type"] for n in logged(game)]
    assert kinds == ["vote_open", "vote_yes", "vote_yes", "vote_pass"]
    # during the pause a player may still act, and it costs nobody time; nobody is handed to a bot
    clock.t += 100
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark"))
    refused("stand_in.paused", stand_ins.hand_to_bot, game.pk, users["stark"], "lannister")
    g = fresh(game)
    assert clocks.remaining(g.clocks, "lannister", clock.t + 1000) == 580.0
    assert clocks.remaining(g.clocks, "stark", clock.t) == 585.0  # the increment of its decision
    # the scheduler ends it on time: the awaited clocks run again, the pause counted in no wait
    waited = g.awaited_since["lannister"]
    assert scheduler.run_once(clock.t + 199) == 0
    clock.t += 200
    assert scheduler.run_once(clock.t) == 1
    g = fresh(game)
    assert logged(game)[-1] == {"type": "pause_end"} and "pause" not in g.table
    assert g.clocks["lannister"]["since"] == clock.t and g.clocks["stark"]["since"] is None
    assert g.awaited_since["lannister"] == pytest.approx(waited + 300)
    assert g.deadline.timestamp() == pytest.approx(clock.t + 580)


def test_the_asker_may_end_the_pause_early(make_lobby, clock):
    game, users = start_game(make_lobby, 2, ruleset="duke", time_control=LIVE)
    n = votes.propose(game.pk, users["light"], "pause", minutes=60)["table"]["vote"]["n"]
    votes.ballot(game.pk, users["dark"], n, True)
    before = fingerprint(game)
    refused("vote.not_yours", votes.resume, game.pk, users["dark"])
    assert fingerprint(game) == before
    clock.t += 30
    status = votes.resume(game.pk, users["light"])
    assert status["table"]["pause"] is None and logged(game)[-1] == {"type": "pause_end", "seat": "light"}
    refused("vote.not_paused", votes.resume, game.pk, users["light"])


def test_a_no_fails_the_vote_and_changes_nothing_but_the_log(make_lobby, clock):
    game, users = start_game(make_lobby, 3, time_control=LIVE)
    g = fresh(game)
    n = votes.propose(game.pk, users["stark"], "extend")["table"]["vote"]["n"]
    status = votes.ballot(game.pk, users["baratheon"], n, False)
    assert status["table"]["vote"] is None
    after = fresh(game)
    assert after.clocks == g.clocks and after.stand_ins == g.stand_ins and not after.table.get("extended")
    assert logged(game)[-1] == {"type": "vote_fail", "seat": "baratheon", "vote": n, "kind": "extend", "why": "refused"}
    # the asker rests before asking again; the others may ask
    e = refused("vote.too_soon", votes.propose, game.pk, users["stark"], "pause")
    assert 0 < e.params["wait"] <= 301
    votes.propose(game.pk, users["lannister"], "pause")
    clock.t += 301
    refused("vote.open_already", votes.propose, game.pk, users["stark"], "end")


def test_a_vote_expires_unchanged(make_lobby, clock):
    game, users = start_game(make_lobby, 3, time_control=LIVE)
    n = votes.propose(game.pk, users["stark"], "extend")["table"]["vote"]["n"]
    assert scheduler.run_once(clock.t + 299) == 0
    assert scheduler.run_once(clock.t + 300) == 1
    g = fresh(game)
    assert "vote" not in g.table and {clocks.remaining(g.clocks, s, clock.t + 300) for s in g.clocks} == {300.0}
    assert logged(game)[-1] == {"type": "vote_fail", "vote": n, "kind": "extend", "why": "expired"}
    assert g.deadline.timestamp() == pytest.approx(clock.t + 600)  # back to the clocks alone
    refused("vote.gone", votes.ballot, game.pk, users["lannister"], n, True)


def test_extend_adds_time_to_every_clock_once(make_lobby, clock, live_settings):
    live_settings.GAME_EXTEND_LIVE = 120
    game, users = start_game(make_lobby, 3, time_control=LIVE)
    n = votes.propose(game.pk, users["stark"], "extend")["table"]["vote"]["n"]
    votes.ballot(game.pk, users["lannister"], n, True)
    clock.t += 50
    status = votes.ballot(game.pk, users["baratheon"], n, True)
    assert [c["remaining"] for c in status["clocks"].values()] == [670.0] * 3 and status["table"]["extended"]
    refused("vote.extended_already", votes.propose, game.pk, users["lannister"], "extend")


def test_a_correspondence_extension_is_one_more_deadline(make_lobby, clock):
    tc = {"kind": "deadline", "per_move": 3600, "vacation": 0, "max_timeouts": 3}
    game, users = start_game(make_lobby, 2, ruleset="duke", time_control=tc)
    status = votes.propose(game.pk, users["light"], "extend")
    assert status["table"]["vote"]["until"] == pytest.approx(clock.t + 3600)  # a vote lasts a deadline
    status = votes.ballot(game.pk, users["dark"], status["table"]["vote"]["n"], True)
    assert {c["remaining"] for c in status["clocks"].values()} == {7200.0}


def test_ending_the_game_scores_it_by_the_rules_and_leaves_it_unrated(make_lobby, client):
    game, users = start_game(make_lobby, 3)
    n = votes.propose(game.pk, users["baratheon"], "end")["table"]["vote"]["n"]
    votes.ballot(game.pk, users["stark"], n, True)
    votes.ballot(game.pk, users["lannister"], n, True)
    g = fresh(game)
    assert g.status == "finished" and g.result["reason"] == "agreed_end" and g.result["winner"] == "stark"
    assert g.finished_at is not None and g.deadline is None
    assert Lobby.objects.get(pk=g.lobby_id).status == "finished"
    assert GameRating.objects.get(game=g).reason == "ended_early"
    assert logged(game)[-1] == {"type": "vote_pass", "seat": "baratheon", "vote": n, "kind": "end", "end": True}
    # a game is its log: rebuilt from the start it ends the same way
    snapshots.CACHE.clear()
    g.snapshot_version = -1
    state = snapshots.state_at(g)
    assert g.rules.result(state) == g.result
    page = client.get(f"/game/{g.pk}/export.json").json()
    assert page["result"]["reason"] == "agreed_end"
    # votes in a finished game are refused
    refused("game.over", votes.propose, game.pk, users["stark"], "pause")
    refused("game.over", votes.ballot, game.pk, users["stark"], n, True)


def test_stand_ins_and_bots_abstain_without_blocking(make_lobby):
    game, users = start_game(make_lobby, 3)
    stand_ins.hand_to_bot(game.pk, users["stark"], "lannister")
    n = votes.propose(game.pk, users["stark"], "end")["table"]["vote"]
    assert n["awaiting"] == ["baratheon"]  # lannister's stand-in need not answer
    status = votes.ballot(game.pk, users["baratheon"], n["n"], True)
    assert fresh(game).status == "finished" and status["table"]["vote"] is None


def test_a_stand_ins_person_may_still_say_no(make_lobby):
    game, users = start_game(make_lobby, 3)
    stand_ins.hand_to_bot(game.pk, users["stark"], "lannister")
    n = votes.propose(game.pk, users["stark"], "end")["table"]["vote"]["n"]
    votes.ballot(game.pk, users["lannister"], n, False)
    assert fresh(game).status == "running" and logged(game)[-1]["why"] == "refused"


def test_a_game_with_bots_votes_among_its_people(make_lobby, make_user):
    from game.site import lobbies

    lobby = make_lobby(players=3, seated=2)
    lobbies.add_bot(lobby.pk, lobby.creator, level="random")
    lobbies.start_lobby(lobby.pk, lobby.creator)
    game = Game.objects.get(lobby=lobby)
    people = {s.house: s.user for s in Seat.objects.filter(lobby=lobby, bot="")}
    bot_seat = Seat.objects.exclude(bot="").get(lobby=lobby).house
    asker, other = sorted(people)
    v = votes.propose(game.pk, people[asker], "end")["table"]["vote"]
    assert bot_seat not in v["voters"] and v["awaiting"] == [other]


def test_replace_opens_the_seat_for_a_new_person(make_lobby, make_user):
    game, users = start_game(make_lobby, 3)
    n = votes.propose(game.pk, users["stark"], "replace", seat="lannister")["table"]["vote"]
    assert n["voters"] == ["baratheon", "stark"]
    refused("vote.not_voter", votes.ballot, game.pk, users["lannister"], n["n"], False)
    status = votes.ballot(game.pk, users["baratheon"], n["n"], True)
    g = fresh(game)
    assert status["table"]["vacant"] == ["lannister"] and g.stand_ins == {"lannister": "basic"}
    assert not Seat.objects.filter(lobby_id=g.lobby_id, house="lannister").exists()
    assert seats.seat_of(g, users["lannister"]) is None  # a spectator now
    refused("act.not_a_player", apply.act, game.pk, users["lannister"], legal_json(game.pk, "lannister"))
    assert GameRating.objects.filter(game=g).count() == 0
    # the replaced player does not come back; a seated one cannot take a second seat
    refused("seat.replaced", vacancies.fill_seat, game.pk, users["lannister"], "lannister")
    refused("seat.seated", vacancies.fill_seat, game.pk, users["stark"], "lannister")
    refused("seat.not_open", vacancies.fill_seat, game.pk, make_user("x"), "stark")
    refused("seat.login", vacancies.fill_seat, game.pk, None, "lannister")
    newcomer = make_user("newcomer")
    status = vacancies.fill_seat(game.pk, newcomer, "lannister")
    assert status["table"]["vacant"] == [] and logged(game)[-1] == {"type": "seat_filled", "seat": "lannister"}
    assert seats.seat_of(fresh(game), newcomer) == "lannister"
    refused("seat.not_open", vacancies.fill_seat, game.pk, make_user("late"), "lannister")
    stand_ins.take_back(game.pk, newcomer)  # the newcomer plays from now on
    assert fresh(game).stand_ins == {}
    apply.act(game.pk, newcomer, legal_json(game.pk, "lannister"))
    assert fresh(game).table["replaced"] == ["lannister"]


def test_an_open_seat_is_taken_from_the_game_page(make_lobby, make_user, client, client_for):
    game, users = start_game(make_lobby, 2, ruleset="duke")
    status = votes.propose(game.pk, users["light"], "replace", seat="dark")
    assert status["table"]["vote"] is None and status["table"]["vacant"] == ["dark"]  # only light votes: passed at once
    assert client.post(f"/game/{game.pk}/take/dark/")["Location"].startswith("/accounts/login/")
    assert client.get(f"/game/{game.pk}/take/dark/").status_code == 405
    before = fingerprint(game)
    c = client_for(users["dark"])  # the replaced player
    assert c.post(f"/game/{game.pk}/take/dark/")["Location"] == f"/game/{game.pk}/"
    assert "another player takes your seat" in c.get(f"/game/{game.pk}/").content.decode()
    assert client_for(users["light"]).post(f"/game/{game.pk}/take/light/").status_code == 302
    assert client_for(make_user("late")).post(f"/game/{game.pk}/take/nobody/").status_code == 302
    assert client_for(make_user("later")).post(f"/game/{game.pk + 99}/take/dark/").status_code == 404
    assert fingerprint(game) == before
    newcomer = make_user("newcomer")
    front = client_for(newcomer).get("/").content.decode()
    assert f'<li data-game="{game.pk}">' in front.split('id="seats-to-take"')[1]  # the front page lists it
    page = client_for(newcomer).get(f"/game/{game.pk}/").content.decode()
    assert f'"take": "/game/{game.pk}/take/SEAT/"' in page
    assert client_for(newcomer).post(f"/game/{game.pk}/take/dark/").status_code == 302
    assert 'id="seats-to-take"' not in client_for(newcomer).get("/").content.decode()
    assert seats.seat_of(fresh(game), newcomer) == "dark"


def test_a_player_may_ask_to_be_replaced(make_lobby):
    game, users = start_game(make_lobby, 2, ruleset="duke")
    status = votes.propose(game.pk, users["light"], "replace", seat="light")
    assert status["table"]["vote"]["yes"] == [] and status["table"]["vote"]["awaiting"] == ["dark"]
    status = votes.ballot(game.pk, users["dark"], status["table"]["vote"]["n"], True)
    assert status["table"]["vacant"] == ["light"]


def test_swap_houses_in_round_one(make_lobby):
    game, users = start_game(make_lobby, 3)
    v = votes.propose(game.pk, users["stark"], "swap", seat="lannister")["table"]["vote"]
    votes.ballot(game.pk, users["lannister"], v["n"], True)
    assert fresh(game).table.get("vote")  # baratheon must agree too
    votes.ballot(game.pk, users["baratheon"], v["n"], True)
    g = fresh(game)
    assert seats.seat_of(g, users["stark"]) == "lannister" and seats.seat_of(g, users["lannister"]) == "stark"
    assert logged(game)[-1] == {"type": "vote_pass", "seat": "stark", "vote": v["n"], "kind": "swap", "target": "lannister"}
    apply.act(game.pk, users["stark"], legal_json(game.pk, "lannister"))  # plays Lannister now


def test_swap_is_refused_once_an_answer_is_hidden_and_fails_if_one_came_meanwhile(make_lobby):
    game, users = start_game(make_lobby, 3)
    v = votes.propose(game.pk, users["stark"], "swap", seat="lannister")["table"]["vote"]
    votes.ballot(game.pk, users["lannister"], v["n"], True)
    apply.act(game.pk, users["baratheon"], legal_json(game.pk, "baratheon"))  # its orders face-down
    votes.ballot(game.pk, users["baratheon"], v["n"], True)
    assert logged(game)[-1]["why"] == "not_now"
    assert seats.seat_of(fresh(game), users["stark"]) == "stark"
    refused("vote.not_now", votes.propose, game.pk, users["lannister"], "swap", seat="stark")


def test_swap_is_not_offered_by_the_duke(make_lobby):
    game, users = start_game(make_lobby, 2, ruleset="duke")
    refused("vote.not_now", votes.propose, game.pk, users["light"], "swap", seat="dark")


def test_refusals_change_nothing(make_lobby, make_user, clock):
    game, users = start_game(make_lobby, 3)  # no time control
    stranger = make_user("stranger")
    before = fingerprint(game)
    refused("vote.bad_kind", votes.propose, game.pk, users["stark"], "kick")
    refused("vote.bad_kind", votes.propose, game.pk, users["stark"], ["pause"])
    refused("vote.not_a_player", votes.propose, game.pk, stranger, "end")
    refused("vote.not_a_player", votes.propose, game.pk, None, "end")
    refused("vote.untimed", votes.propose, game.pk, users["stark"], "pause")
    refused("vote.untimed", votes.propose, game.pk, users["stark"], "extend")
    refused("vote.bad_seat", votes.propose, game.pk, users["stark"], "replace", seat="martell")
    refused("vote.bad_seat", votes.propose, game.pk, users["stark"], "replace", seat={"x": 1})
    refused("vote.bad_seat", votes.propose, game.pk, users["stark"], "swap", seat="stark")
    refused("game.not_found", votes.propose, 987654, users["stark"], "end")
    refused("vote.gone", votes.ballot, game.pk, users["stark"], 1, True)
    refused("vote.not_paused", votes.resume, game.pk, users["stark"])
    assert fingerprint(game) == before
    n = votes.propose(game.pk, users["stark"], "end")["table"]["vote"]["n"]
    before = fingerprint(game)
    refused("vote.bad_value", votes.ballot, game.pk, users["lannister"], n, "yes")
    refused("vote.bad_value", votes.ballot, game.pk, users["lannister"], n, 1)
    refused("vote.gone", votes.ballot, game.pk, users["lannister"], n + 1, True)
    refused("vote.gone", votes.ballot, game.pk, users["lannister"], True, True)
    refused("vote.gone", votes.ballot, game.pk, users["lannister"], str(n), True)
    refused("vote.already", votes.ballot, game.pk, users["stark"], n, True)
    refused("vote.already", votes.ballot, game.pk, users["stark"], n, False)
    refused("vote.not_a_player", votes.ballot, game.pk, stranger, n, True)
    refused("vote.open_already", votes.propose, game.pk, users["lannister"], "end")
    assert fingerprint(game) == before
    votes.ballot(game.pk, users["lannister"], n, True)
    refused("vote.already", votes.ballot, game.pk, users["lannister"], n, True)


def test_pause_minutes_are_checked(make_lobby, live_settings):
    live_settings.GAME_PAUSE_MAX = 1800
    game, users = start_game(make_lobby, 2, ruleset="duke", time_control=LIVE)
    before = fingerprint(game)
    for bad in (0, 31, -1, 2.5, "10", True, [10]):
        e = refused("vote.bad_minutes", votes.propose, game.pk, users["light"], "pause", minutes=bad)
        assert e.params["limit"] == 30
    assert fingerprint(game) == before
    assert votes.propose(game.pk, users["light"], "pause")["table"]["vote"]["minutes"] == 10


@pytest.mark.asyncio
async def test_a_vote_reaches_every_page_in_its_language(make_lobby, make_user):
    game, users = await sync_to_async(start_game)(make_lobby, 2, ruleset="duke", time_control=LIVE)
    from gotweb.asgi import application

    light, _ = await connect(application, game.pk, users["light"])
    dark, _ = await connect(application, game.pk, users["dark"], lang="zh-hans")
    watcher, _ = await connect(application, game.pk, await sync_to_async(make_user)("watcher"))
    await watcher.send_json_to({"type": "propose", "id": 1, "kind": "pause"})
    answer = await watcher.receive_json_from(timeout=5)
    assert answer == {"type": "result", "id": 1, "ok": False, "error": answer["error"]} and answer["error"]["code"] == "vote.not_a_player"
    await light.send_json_to({"type": "propose", "id": 2, "kind": "pause", "minutes": 3})
    got = await drain(light)
    assert {"type": "result", "id": 2, "ok": True} in got
    pushed = [m for m in got if m["type"] in ("state", "patch")][-1]
    vote = pushed["seats"]["table"]["vote"]
    assert vote["kind"] == "pause" and vote["awaiting"] == ["dark"]
    zh = [m for m in await drain(dark) if m["type"] in ("state", "patch")][-1]
    assert zh["seats"]["table"]["vote"]["n"] == vote["n"]
    await dark.send_json_to({"type": "vote", "id": 3, "vote": vote["n"], "yes": True})
    got = await drain(dark)
    assert {"type": "result", "id": 3, "ok": True} in got
    last = [m for m in got if m["type"] in ("state", "patch")][-1]
    assert last["seats"]["table"]["pause"]["by"] == "light"
    watched = [m for m in await drain(watcher) if m["type"] in ("state", "patch")]
    assert watched[-1]["seats"]["table"]["pause"] is not None
    text = await sync_to_async(lambda: payloads.payload(fresh(game), "dark", "zh-hans"))()
    assert any("暂停" in line["text"] for line in text["log"])
    text = await sync_to_async(lambda: payloads.payload(fresh(game), None, "en"))()
    assert [line["text"] for line in text["log"][-3:]] == [
        "Vote: Light asks to pause the game for 3 minutes.", "Dark votes yes.",
        "The table agreed: the game is paused for 3 minutes; clocks and deadlines stop.",
    ]
    await dark.send_json_to({"type": "vote", "id": 4, "vote": vote["n"], "yes": True})
    answer = (await drain(dark))[0]
    assert answer["ok"] is False and answer["error"]["code"] == "vote.gone" and "投票" in answer["error"]["message"]
    for ws in (light, dark, watcher):
        await ws.disconnect()


def _race(n_threads: int, work) -> list:
    errors, results = [], []
    barrier = threading.Barrier(n_threads)

    def run(i):
        try:
            barrier.wait(timeout=30)
            results.append(work(i))
        except IllegalAction as e:
            results.append(e.code)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return results


def test_two_last_ballots_at_once_decide_the_vote_once(make_lobby, postgres_only):
    """Two votes resolving at once across connections: in each of 4 games, the two last
    ballots arrive together (two threads, two PostgreSQL connections): both are counted, one
    after the other under the row's lock, and exactly one ``vote_pass`` is written."""
    for _ in range(4):
        game, users = start_game(make_lobby, 3, time_control=LIVE)
        n = votes.propose(game.pk, users["stark"], "extend")["table"]["vote"]["n"]
        voters = [users["lannister"], users["baratheon"]]
        results = _race(2, lambda i: votes.ballot(game.pk, voters[i], n, True) and "ok")
        assert results == ["ok", "ok"]
        kinds = [a["type"] for a in logged(game)]
        assert kinds.count("vote_pass") == 1 and kinds[-1] == "vote_pass"
        g = fresh(game)
        assert g.table["extended"] and "vote" not in g.table
    assert connection.vendor == "postgresql"


def test_a_last_ballot_and_the_expiry_at_once(make_lobby, postgres_only):
    """The scheduler's expiry and a last "no" (or a last "yes") at the same moment: whichever
    takes the lock first decides; the other finds the vote gone or not due. One decision."""
    for yes in (False, True, False, True):
        game, users = start_game(make_lobby, 2, ruleset="duke", time_control=LIVE)
        n = votes.propose(game.pk, users["light"], "extend")["table"]["vote"]["n"]
        g = fresh(game)
        at = g.table["vote"]["until"]
        work = [lambda: scheduler.run_once(at), lambda: votes.ballot(game.pk, users["dark"], n, yes) and "voted"]
        results = _race(2, lambda i: work[i]())
        decided = [a for a in logged(game) if a["type"] in ("vote_pass", "vote_fail")]
        assert len(decided) == 1, (results, decided)
        assert "vote" not in fresh(game).table
        assert set(results) <= {0, 1, "voted", "vote.gone"}
    assert connection.vendor == "postgresql"

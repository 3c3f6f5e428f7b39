"""A moderator gives a started game's seat to someone else in the admin: the old
player's open sockets lose the seat's view at once (closed: 4409, their page loads again as a
spectator; 4403 for a private game they may no longer see), and the old player can no longer act,
also through the optimistic write's remembered seat (PostgreSQL: run there by
test_live_postgres.py)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from game.live import apply, rows, snapshots
from game.models import Action, Game, Seat
from game.rules import IllegalAction

from .live_helpers import connect, drain, legal_json, start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_settings")]


class _Form(HTMLParser):
    """The fields of the admin's change form as a browser would post them."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[name] = a.get("value", "on")
            else:
                self.data[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select] = a.get("value", "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self.data[self._textarea] += data


def give_seat(lobby_id: int, house: str, user) -> None:
    """A moderator gives ``house``'s seat of the lobby to ``user`` through the admin's change form."""
    mod = get_user_model().objects.filter(username="mod").first() or get_user_model().objects.create_superuser(
        "mod", "mod@example.org", "pw-long-enough-1"
    )
    c = Client()
    c.force_login(mod)
    url = reverse("admin:game_lobby_change", args=[lobby_id])
    form = _Form()
    form.feed(c.get(url).content.decode())
    seat = Seat.objects.get(lobby_id=lobby_id, house=house)
    index = next(k.split("-")[1] for k, v in form.data.items() if k.startswith("seats-") and k.endswith("-id") and v == str(seat.pk))
    form.data[f"seats-{index}-user"] = str(user.pk)
    form.data["_save"] = "Save"
    response = c.post(url, form.data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Seat.objects.get(pk=seat.pk).user_id == user.pk


async def _closed_with(ws) -> int:
    while True:
        out = await ws.receive_output(timeout=10)
        if out["type"] == "websocket.close":
            return out["code"]


@pytest.mark.parametrize("private", [False, True])
async def test_the_old_players_sockets_lose_the_seat_at_once(application, make_lobby, make_user, private):
    kwargs = {"is_private": True, "password": "pw"} if private else {}
    game, users = await sync_to_async(start_game)(make_lobby, 3, **kwargs)
    old, new = users["stark"], await sync_to_async(make_user)("newcomer")
    old_ws, first = await connect(application, game.pk, old)
    assert first["viewer"] == "stark"
    others, _ = await connect(application, game.pk, users["lannister"])

    await sync_to_async(give_seat)(game.lobby_id, "stark", new)
    assert await _closed_with(old_ws) == (4403 if private else 4409)
    assert not [m for m in await drain(others) if m.get("type") == "websocket.close"]  # others go on

    mine, state = await connect(application, game.pk, new)
    assert state["viewer"] == "stark" and any(p.get("options") for p in state["pending"] if p["actor"] == "stark")
    if not private:  # the old player comes back as a spectator, who cannot act
        again, state = await connect(application, game.pk, old)
        assert state["viewer"] is None and not any(p.get("options") for p in state["pending"])
        await again.send_json_to({"type": "act", "id": 1, "action": await sync_to_async(legal_json)(game.pk, "stark")})
        got = next(m for m in await drain(again, 1.0) if m["type"] == "result")
        assert got["ok"] is False and got["error"]["code"] == "act.spectator"
        await again.disconnect()
    for ws in (mine, others):
        await ws.disconnect()


@pytest.fixture
def fresh_caches():
    snapshots.CACHE.clear()
    rows._LAST_ROW.clear()
    rows._SEAT_OF.clear()


def test_the_old_player_cannot_act_through_a_remembered_seat(make_lobby, make_user, fresh_caches):
    """The old player acted before (so this process remembers their seat, and on PostgreSQL an
    act would be one compare-and-swap); after the reassignment their act is refused and nothing
    is written, in whichever way it is tried, and the new player acts."""
    game, users = start_game(make_lobby, 3)
    old, new = users["stark"], make_user("newcomer")
    for house in ("stark", "lannister", "baratheon"):  # everyone's orders: seats and row remembered
        apply.act(game.pk, users[house], legal_json(game.pk, house), None)
    # play on until Stark is awaited again, without Stark
    for i in range(400):
        game.refresh_from_db()
        awaited = [d.actor for d in game.rules.pending(snapshots.state_at(game))]
        if "stark" in awaited:
            break
        apply.act(game.pk, users[awaited[0]], legal_json(game.pk, awaited[0], seed=i), game.version)
    else:
        raise AssertionError("Stark was never awaited again")
    apply.act(game.pk, users["stark"], legal_json(game.pk, "stark", seed=99), None)  # remembered once more
    for i in range(400):
        game.refresh_from_db()
        awaited = [d.actor for d in game.rules.pending(snapshots.state_at(game))]
        if "stark" in awaited:
            break
        apply.act(game.pk, users[awaited[0]], legal_json(game.pk, awaited[0], seed=100 + i), game.version)
    else:
        raise AssertionError("Stark was never awaited again")

    give_seat(game.lobby_id, "stark", new)
    other = next(h for h in awaited if h != "stark") if len(awaited) > 1 else None
    if other:  # another player's act first: this process's copy of the row is current again
        apply.act(game.pk, users[other], legal_json(game.pk, other), None)
    game.refresh_from_db()
    before = (game.version, Action.objects.filter(game=game).count())
    with pytest.raises(IllegalAction) as refused:
        apply.act(game.pk, old, legal_json(game.pk, "stark", seed=7), game.version)
    assert refused.value.code == "act.not_a_player"
    game.refresh_from_db()
    assert (game.version, Action.objects.filter(game=game).count()) == before
    v = apply.act(game.pk, new, legal_json(game.pk, "stark", seed=7), game.version)
    assert v == before[0] + 1
    assert Action.objects.get(game=game, number=v).user_id == new.pk
    assert Game.objects.get(pk=game.pk).version == v

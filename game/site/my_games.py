"""``/my/games/``: the signed-in person's games (a guest's too). Running games first, the ones
awaiting their decision at the top, each with whose turn it is and the time left on the awaited
seats' clocks or deadlines (:func:`game.live.deadlines.deadline_of`); then the lobbies they sit in
that have not started; finished games below with
their result. Only one's own games: the page takes no id.

The header's badge counts the running games awaiting the person
(:func:`game.live.seats.awaiting_count`, put in
every page's context by :func:`header_badge`); the lobby-list socket (``/ws/lobbies/``,
:mod:`game.site.lobby_consumer`) pushes the new count (``{"type": "my_games", "awaiting": n}``)
whenever it may have changed.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from game.live.deadlines import deadline_of
from game.live.seats import awaiting_count
from game.models import Game, Lobby, Seat, display_name, language_key

from . import rematch

FINISHED_SHOWN = 50  #: finished games listed, newest first


def _awaits(game: Game, house: str) -> bool:
    """Whether ``game`` awaits ``house``'s decision from its person (not from a stand-in bot)."""
    return (
        game.status == Game.Status.RUNNING
        and house in (game.awaited_since or {})
        and house not in (game.stand_ins or {})
    )


def _my_seats(user):
    """The user's people's seats in started games (bots' seats are no one's)."""
    return Seat.objects.filter(user=user, bot="", lobby__game__isnull=False).exclude(house="")


def header_badge(request: HttpRequest) -> dict:
    """Context processor: ``my_games_awaiting`` (int) for a signed-in person, else nothing."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"my_games_awaiting": awaiting_count(user)}


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """The page: the running games, the lobbies the person sits in that have not started
    (``waiting``: each with ``filled``, its seats taken) and the finished games. Rows: ``{"game", "name", "ruleset", "my_house", "mine" (awaits me), "awaited"
    ([{"house", "player", "me", "deadline" (aware datetime or None: shown as the time left)}])}``;
    finished rows have ``"winner"`` (a house name, empty for a draw), ``"won"`` and ``"rematch"``
    (:func:`game.site.rematch.button_states`)."""
    seats = list(_my_seats(request.user).select_related("lobby__game"))
    games = {s.lobby.game.pk: (s.lobby.game, s) for s in seats}
    lobby_ids = [g.lobby_id for g, _ in games.values()]
    everyone = {}
    for s in Seat.objects.filter(lobby_id__in=lobby_ids).select_related("user__profile"):
        everyone[(s.lobby_id, s.house)] = s
    lang = language_key()
    running, finished = [], []
    for game, mine in games.values():
        names = game.rules.seat_names()
        house_name = lambda h: names.get(h, {}).get(lang, h)  # noqa: E731
        row = {
            "game": game,
            "name": mine.lobby.name,
            "ruleset": game.rules.names[lang],
            "my_house": house_name(mine.house),
            "mine": _awaits(game, mine.house),
        }
        if game.status == Game.Status.RUNNING:
            row["awaited"] = [
                {
                    "house": house_name(h),
                    "player": display_name(everyone[(game.lobby_id, h)].user) if (game.lobby_id, h) in everyone else "",
                    "me": h == mine.house,
                    "deadline": deadline_of(game, h),
                }
                for h in (game.awaited_since or {})
            ]
            running.append(row)
        else:
            winner = (game.result or {}).get("winner")
            shared = [] if winner else list((game.result or {}).get("winners") or [])  # the 1st edition's shared win
            row["winner"] = house_name(winner) if winner else " & ".join(house_name(w) for w in shared)
            row["won"] = winner == mine.house or mine.house in shared
            finished.append(row)
    states = rematch.button_states([r["game"] for r in finished], request.user)
    for r in finished:
        r["rematch"] = states[r["game"].pk]
    running.sort(key=lambda r: (not r["mine"], -r["game"].updated_at.timestamp()))
    finished.sort(key=lambda r: -r["game"].updated_at.timestamp())
    waiting = list(
        Lobby.objects.filter(status=Lobby.Status.OPEN, pk__in=Seat.objects.filter(user=request.user).values("lobby_id"))
        .annotate(filled=Count("seats"))
        .order_by("-created_at")[:FINISHED_SHOWN]
    )
    return render(request, "game/my_games.html", {"running": running, "waiting": waiting, "finished": finished[:FINISHED_SHOWN]})

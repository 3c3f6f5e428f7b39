"""Ratings: one per person and ruleset, updated when a rated game finishes.

**Which games are rated.** A finished game between people: every seat held by a person (no bot
seated by the creator) and every action in its log taken by a person (none by a stand-in bot,
:mod:`game.live.stand_ins`; a stand-in's actions are logged without a user). Any bot makes the
whole game unrated (``GameRating.reason`` ``"bots"`` or ``"stand_in"``): a rating measures
people against people, and one bot's weakness or strength would move everyone's. Guests are
people: their rating stays theirs when they claim their account (the same user row).

**Never a private game**: its result is its players' own, and a rating that moved would tell it
to everyone (``"private"``). Nor a game its players voted to end early (``"ended_early"``: a
result agreed to is no measure, and a pair of accounts could agree to any), nor one whose table
replaced a player (``"replaced"``: the seat's result is no one person's).

**Only established accounts, and not the same opponents over and over** (so that nobody can farm
a rating out of accounts made for the purpose, which cost a few seconds each):

* every player must be *established* when the game ends (``GameRating.reason``
  ``"new_account"`` otherwise): an account at least ``RATING_NEW_ACCOUNT_DAYS`` days old (default
  3) that has already finished ``RATING_NEW_ACCOUNT_GAMES`` games (default 3) against at least as
  many different people (bots do not count). A newcomer's first games are played as usual, only
  unrated: a farm of fresh accounts moves nobody's rating, and aging enough accounts with enough
  games among several people costs days and games per account, where a mail address (a
  throw-away one is free) would have cost nothing;
* no two of its players may already have played ``RATING_PAIR_GAMES`` rated games together
  (default 3) in the last ``RATING_PAIR_DAYS`` days (default 30) (``"repeat"`` otherwise): the
  same few accounts cannot feed each other points; friends who play each other more often than
  that still play, their further games unrated until the window moves on. A cap, not a weight:
  the rating systems below take each game whole, and a game that counts a little would still
  count.

**The maths** (maintained, MIT-licensed libraries):

* rulesets for more than two players (AGoT 2nd edition): openskill's Plackett-Luce model, the
  whole table ranked by the result's ``ranking`` (the winner first; AGoT's own tie-breaks);
  the shown ``score`` is the conservative ordinal ``1500 + 24 (mu - 3 sigma)``, so a newcomer
  shows 1500 and a player's number rises as the system becomes sure of them;
* two-player rulesets (The Duke): Glicko-2 (the ``glicko2`` package), each game one rating
  period of one opponent, a draw (``winner`` None) counting 0.5; ``score`` is the rating.

A ruleset added later is rated by the same rule (two players: Glicko-2; more: openskill), from
its result's ``ranking`` when it gives one, else the winner first and the others tied.

**When.** :func:`on_game_finished` receives :data:`game.live.signals.game_finished` inside the
transaction that writes the game's last action, so the ratings commit with the finish (or not at
all). It runs in a savepoint and never raises: a failure in the ratings (logged, recorded as
``reason="error"``) cannot stop a game from finishing; ``python manage.py rate_games`` rates the
finished games not rated yet (idempotent: a game is rated once, ``GameRating`` is its record).
"""

from __future__ import annotations

import datetime
import itertools
import logging
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from game.models import Action, Game, GameRating, Lobby, Rating, Seat
from game.rules import get_ruleset
from game.rules.base import AGREED_END, SITE

log = logging.getLogger(__name__)

START = 1500.0
#: openskill's numbers scaled to the shown score: 1500 + ALPHA * (mu - 3 sigma)
ALPHA = 24.0


def system(ruleset: str) -> str:
    """``"glicko2"`` for a two-player ruleset, ``"openskill"`` for any other."""
    return "glicko2" if get_ruleset(ruleset).max_players == 2 else "openskill"


def _openskill():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def new_rating(user, ruleset: str) -> Rating:
    """An unsaved newcomer's :class:`Rating` (score 1500)."""
    if system(ruleset) == "glicko2":
        return Rating(user=user, ruleset=ruleset, mu=START, sigma=350.0, vol=0.06, score=START)
    m = _openskill()
    r = m.rating()
    return Rating(user=user, ruleset=ruleset, mu=r.mu, sigma=r.sigma, score=_os_score(r.mu, r.sigma))


def _os_score(mu: float, sigma: float) -> float:
    return START + ALPHA * (mu - 3 * sigma)


def unrated_reason(game: Game, seats: list[Seat]) -> str:
    """Why ``game`` is not rated (``"private"``, ``"ended_early"``: its players voted to end it,
    ``"replaced"``: the table replaced a player, ``"bots"``, ``"stand_in"``, ``"same_person"``,
    ``"new_account"``, ``"repeat"``), or ``""``."""
    if game.lobby.is_private:
        return "private"
    if (game.result or {}).get("reason") == AGREED_END:
        return "ended_early"
    if (game.table or {}).get("replaced"):
        return "replaced"
    if any(s.bot for s in seats):
        return "bots"
    if len({s.user_id for s in seats}) != len(seats):
        return "same_person"
    if game.stand_ins or Action.objects.filter(game=game, user__isnull=True).exclude(actor=SITE).exists():
        return "stand_in"
    when = game.finished_at or timezone.now()
    if not all(established(s.user, when, exclude_lobby=game.lobby_id) for s in seats):
        return "new_account"
    if pair_cap_reached([s.user_id for s in seats], when):
        return "repeat"
    return ""


def established(user, when: datetime.datetime, exclude_lobby: int | None = None) -> bool:
    """Whether ``user`` may be rated in a game ending at ``when``: an account at least
    ``RATING_NEW_ACCOUNT_DAYS`` days old that has finished ``RATING_NEW_ACCOUNT_GAMES`` games
    (other than ``exclude_lobby``'s) against at least as many different people."""
    need = settings.RATING_NEW_ACCOUNT_GAMES
    if user.date_joined > when - datetime.timedelta(days=settings.RATING_NEW_ACCOUNT_DAYS):
        return False
    if need <= 0:
        return True
    lobbies = Seat.objects.filter(user=user, lobby__status=Lobby.Status.FINISHED).exclude(lobby_id=exclude_lobby).values("lobby_id")
    games = lobbies.count()
    opponents = Seat.objects.filter(lobby_id__in=lobbies, bot="").exclude(user=user).values("user_id").distinct().count()
    return games >= need and opponents >= need


def pair_cap_reached(user_ids: list[int], when: datetime.datetime) -> bool:
    """Whether two of ``user_ids`` have played ``RATING_PAIR_GAMES`` rated games together in the
    ``RATING_PAIR_DAYS`` days before ``when``."""
    since = when - datetime.timedelta(days=settings.RATING_PAIR_DAYS)
    rated = GameRating.objects.filter(rated=True, game__finished_at__gte=since).values("game__lobby_id")
    seats = Seat.objects.filter(lobby_id__in=rated, user_id__in=user_ids).values_list("lobby_id", "user_id")
    together: dict[int, set[int]] = {}
    for lobby_id, user_id in seats:
        together.setdefault(lobby_id, set()).add(user_id)
    counts: dict[tuple[int, int], int] = {}
    for people in together.values():
        for pair in itertools.combinations(sorted(people), 2):
            counts[pair] = counts.get(pair, 0) + 1
    return any(n >= settings.RATING_PAIR_GAMES for n in counts.values())


def ranks(result: dict[str, Any], seats: list[str]) -> list[int]:
    """1-based places of ``seats`` from a result: its ``ranking`` (a list of seats, best first)
    when it has one, else the ``winner`` first and everyone else tied second (a draw, winner
    None: all tied first). A shared win (``winners``, the 1st edition's last tie-break) puts
    every winner first, tied."""
    ranking = result.get("ranking")
    winners = result.get("winners") if isinstance(result.get("winners"), list) else []
    if isinstance(ranking, list) and set(ranking) >= set(seats):
        return [1 if s in winners else ranking.index(s) + 1 for s in seats]
    if winners:
        return [1 if s in winners else 2 for s in seats]
    winner = result.get("winner")
    if winner is None:
        return [1 for _ in seats]
    return [1 if s == winner else 2 for s in seats]


def rate_game(game: Game) -> GameRating:
    """Rate the finished ``game`` once (call inside a transaction; locks the ratings it
    changes): returns its :class:`GameRating` (the existing one when it was rated before)."""
    done = GameRating.objects.filter(game=game).first()
    if done is not None:
        return done
    seats = list(Seat.objects.filter(lobby_id=game.lobby_id).select_related("user").order_by("pk"))
    reason = unrated_reason(game, seats)
    if reason or not game.result:
        return GameRating.objects.create(game=game, rated=False, reason=reason or "no_result")
    ruleset = game.ruleset
    users = {s.house: s.user for s in seats}
    order = [s.house for s in seats]
    existing = {r.user_id: r for r in Rating.objects.select_for_update().filter(ruleset=ruleset, user_id__in=[u.pk for u in users.values()])}
    current = {h: existing.get(u.pk) or new_rating(u, ruleset) for h, u in users.items()}
    before = {h: r.score for h, r in current.items()}
    places = dict(zip(order, ranks(game.result, order)))
    if system(ruleset) == "glicko2":
        _glicko(current, places)
    else:
        _openskill_rate(current, places, order)
    changes = {}
    for h, r in current.items():
        r.games += 1
        r.wins += 1 if game.result.get("winner") == h or h in (game.result.get("winners") or []) else 0
        r.save()
        changes[h] = {"user": users[h].pk, "before": round(before[h], 1), "after": round(r.score, 1), "place": places[h]}
    return GameRating.objects.create(game=game, rated=True, changes=changes)


def _openskill_rate(current: dict[str, Rating], places: dict[str, int], order: list[str]) -> None:
    m = _openskill()
    teams = [[m.rating(mu=current[h].mu, sigma=current[h].sigma)] for h in order]
    new = m.rate(teams, ranks=[places[h] for h in order])
    for h, team in zip(order, new):
        r = current[h]
        r.mu, r.sigma = team[0].mu, team[0].sigma
        r.score = _os_score(r.mu, r.sigma)


def _glicko(current: dict[str, Rating], places: dict[str, int]) -> None:
    import glicko2

    a, b = list(current)
    old = {h: (current[h].mu, current[h].sigma) for h in (a, b)}
    for me, them in ((a, b), (b, a)):
        p = glicko2.Player(rating=current[me].mu, rd=current[me].sigma, vol=current[me].vol)
        outcome = 0.5 if places[me] == places[them] else (1.0 if places[me] < places[them] else 0.0)
        p.update_player([old[them][0]], [old[them][1]], [outcome])
        r = current[me]
        r.mu, r.sigma, r.vol, r.score = p.rating, p.rd, p.vol, p.rating


def on_game_finished(sender, game: Game, **kwargs) -> None:
    """The :data:`game.live.signals.game_finished` receiver: :func:`rate_game` in a savepoint;
    an unexpected failure is logged and recorded (``reason="error"``), never raised."""
    try:
        with transaction.atomic():
            rate_game(game)
    except Exception:  # the finish must not fail because of the ratings
        log.exception("rating game %s failed", game.pk)
        try:
            with transaction.atomic():
                GameRating.objects.get_or_create(game=game, defaults={"rated": False, "reason": "error"})
        except IntegrityError:  # pragma: no cover - recorded meanwhile
            pass


def leaderboard(ruleset: str, limit: int = 100):
    """The ``limit`` best :class:`Rating` rows of ``ruleset`` (by score), with their users."""
    return Rating.objects.filter(ruleset=ruleset).select_related("user__profile").order_by("-score", "-games", "pk")[:limit]

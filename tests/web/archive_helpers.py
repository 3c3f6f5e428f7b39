"""Helpers for the after-the-game tests: games played to the end through the real
service path (``apply.act`` for people, ``apply.bot_act`` for bot seats), every move a basic
bot's choice."""

from __future__ import annotations

from game.live import apply, bot_choice, snapshots
from game.models import Game


def next_move(game_id: int, salt: int = 0):
    """``(actor, JSON action, version)`` of the first awaited decision, or None when it is over."""
    game = Game.objects.get(pk=game_id)
    rules = game.rules
    state = snapshots.state_at(game)
    pending = rules.pending(state)
    if not pending:
        return None
    actor = pending[0].actor
    action = bot_choice.choose(rules, state, actor, "basic", game.version + salt)
    return actor, bot_choice.action_to_json(rules, action), game.version


def play_to_end(game_id: int, users: dict, salt: int = 0, limit: int = 3000) -> Game:
    """Play ``game_id`` to its end: seats in ``users`` (``{seat: user}``) act as people, any other
    seat through ``apply.bot_act``. Returns the finished game row."""
    for _ in range(limit):
        move = next_move(game_id, salt)
        if move is None:
            break
        actor, action, version = move
        if actor in users:
            apply.act(game_id, users[actor], action, version)
        else:
            assert apply.bot_act(game_id) is not None
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED, game.version
    return game


def start_duke(make_lobby, make_user, bot: bool = False, **kwargs):
    """A started game of The Duke: two people (or the host and a basic bot); ``(game, {seat: user})``."""
    from game.site import lobbies

    lobby = make_lobby(players=2, seated=1, ruleset="duke", **kwargs)
    if bot:
        lobbies.add_bot(lobby.pk, lobby.creator, level="basic")
    else:
        lobbies.join_lobby(lobby.pk, make_user(f"duke-{lobby.pk}"), invited=True)
    lobbies.start_lobby(lobby.pk, lobby.creator)
    lobby.refresh_from_db()
    users = {s.house: s.user for s in lobby.seats.select_related("user") if not s.bot}
    return lobby.game, users


def clear_caches() -> None:
    """Forget this process's game states and replay books: test databases reuse game ids."""
    from game.live import payloads, replay

    snapshots.CACHE.clear()
    replay.forget()
    with payloads.PAYLOADS.lock:
        payloads.PAYLOADS.items.clear()

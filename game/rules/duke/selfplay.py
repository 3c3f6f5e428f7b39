"""Self-play: bots play whole games of The Duke against each other (pure, deterministic).

The shared ``manage.py selfplay`` command calls :func:`play_games`. :func:`replay` folds an
action log back into states (a game is its log).
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Mapping, Sequence

from . import rng as R
from .actions import action_to_json, parse_action
from .ruleset import RULESET
from .state import State

__all__ = ["play_game", "play_games", "replay", "game_seed"]


def game_seed(seed: int, index: int) -> int:
    """The seed of game number ``index`` of a series started with ``seed`` (a 63-bit int)."""
    _, v = R.next_u64(R.seed_state(seed * 1_000_003 + index))
    return v >> 1


def _levels(bots: Sequence[str] | Mapping[str, str]) -> dict[str, str]:
    if isinstance(bots, Mapping):
        return {"light": bots["light"], "dark": bots["dark"]}
    light, dark = bots
    return {"light": light, "dark": dark}


def play_game(
    seed: int,
    bots: Sequence[str] | Mapping[str, str] = ("random", "random"),
    options: Mapping[str, Any] | None = None,
    on_state: Any = None,
    max_actions: int | None = None,
) -> dict[str, Any]:
    """Play one game; ``on_state(before, actor, action, after)`` is called after every action.

    Returns ``{"seed", "winner", "reason", "turns", "actions": [{"actor", "action"}], "options"}``.
    With ``max_actions``, play stops after that many actions: ``winner`` None, ``reason``
    ``"unfinished"`` (every game ends by itself; this only bounds test time).
    """
    levels = _levels(bots)
    state: State = RULESET.new_game(2, seed, options or {})
    log: list[dict[str, Any]] = []
    while RULESET.result(state) is None:
        if max_actions is not None and len(log) >= max_actions:
            break
        actor = RULESET.pending(state)[0].actor
        _, bot_seed = R.next_u64(R.seed_state(seed + 7919 * len(log)))
        action = RULESET.bot_action(state, actor, levels[actor], bot_seed)
        after = RULESET.apply(state, actor, action)
        if on_state is not None:
            on_state(state, actor, action, after)
        log.append({"actor": actor, "action": action_to_json(action)})
        state = after
    res = RULESET.result(state) or {"winner": None, "reason": "unfinished"}
    return {
        "seed": seed,
        "winner": res["winner"],
        "reason": res["reason"],
        "turns": state.turn,
        "actions": log,
        "options": dict(state.options),
    }


def play_games(
    n: int,
    seed: int,
    bots: Sequence[str] | Mapping[str, str] = ("random", "random"),
    options: Mapping[str, Any] | None = None,
    max_actions: int | None = None,
) -> Iterator[dict[str, Any]]:
    """Play ``n`` games (game ``i`` seeded with :func:`game_seed` ``(seed, i)``), yielding each
    game's :func:`play_game` dict as it ends. ``bots`` is ``(light level, dark level)`` or a
    ``{seat: level}`` mapping; levels are ``"random"`` and ``"basic"``."""
    for i in range(n):
        yield play_game(game_seed(seed, i), bots, options, max_actions=max_actions)


def replay(seed: int, options: Mapping[str, Any] | None, actions: Iterable[Mapping[str, Any]]) -> Iterator[State]:
    """Every state of a game from its seed, options and ``[{"actor", "action"}]`` log, starting
    with the initial state. Raises :class:`IllegalAction` at the first action that is not legal."""
    state = RULESET.new_game(2, seed, options or {})
    yield state
    for entry in actions:
        state = RULESET.apply(state, entry["actor"], parse_action(entry["action"]))
        yield state

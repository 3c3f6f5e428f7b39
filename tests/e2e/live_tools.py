"""Helpers for tests against real daphne processes: set up players and a started game in the
server's own database, and compute legal moves from the stored log (read-only, like an observer).

``setup_game(env, players, bots)`` (``env``: the server's environment; the secret key defaults
to the one :func:`tests.e2e.conftest.start_server` gives) runs ``python tests/e2e/live_tools.py setup`` with the server's
environment: it creates the users, a logged-in session per player, a lobby (with bot seats),
starts it and prints ``{"game": id, "cookies": {house: "sessionid=..."}}``.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_script(script: str | Path, env: dict[str, str], *args: str, timeout: float = 300) -> dict:
    """Run ``python <script> <args>`` in the server's environment (``env`` over this process's,
    the secret key :func:`tests.e2e.conftest.start_server` gives) and return the JSON object of
    its last line of output. A child that fails raises AssertionError carrying its exit code and
    the end of its stderr (its traceback), so a failure in CI says what went wrong."""
    out = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=ROOT, env={**os.environ, "SECRET_KEY": "e2e-" + "x" * 40, **env}, capture_output=True, text=True, timeout=timeout,
    )
    assert out.returncode == 0, f"{Path(script).name} {' '.join(args)} exited {out.returncode}:\n{out.stderr[-4000:]}"
    return json.loads(out.stdout.strip().splitlines()[-1])


def setup_game(env: dict[str, str], players: int = 3, bots: int = 0, ruleset: str = "agot2") -> dict:
    return run_script(__file__, env, "setup", str(players), str(bots), ruleset)


def lobby_tool(env: dict[str, str], *args: str) -> dict:
    """``lobby_tool(env, "open")`` -> ``{"lobby": id}``: a new open 3-player lobby (its creator
    seated); ``lobby_tool(env, "join", id)`` -> ``{"version": v}``: a new user joins it. Run in
    a child process with the server's environment, so its group messages go through the
    server's channel layer like an HTTP view's."""
    return run_script(__file__, env, "lobby", *args)


def _rows(db_url: str, game_id: int):
    if db_url.startswith("sqlite"):
        con = sqlite3.connect(db_url[len("sqlite:///"):])
        try:
            game = con.execute("SELECT ruleset, players, options, seed FROM game_game WHERE id=?", (game_id,)).fetchone()
            acts = con.execute("SELECT actor, action FROM game_action WHERE game_id=? ORDER BY number", (game_id,)).fetchall()
        finally:
            con.close()
    else:
        import psycopg

        with psycopg.connect(db_url) as con:
            game = con.execute("SELECT ruleset, players, options, seed FROM game_game WHERE id=%s", (game_id,)).fetchone()
            acts = con.execute("SELECT actor, action FROM game_action WHERE game_id=%s ORDER BY number", (game_id,)).fetchall()
    load = lambda v: json.loads(v) if isinstance(v, str) else v  # noqa: E731
    return game[0], game[1], load(game[2]), game[3], [(a, load(x)) for a, x in acts]


def stored_log(db_url: str, game_id: int) -> list[tuple[str, dict]]:
    """The game's stored action log: ``[(actor, JSON action)]`` in order."""
    return _rows(db_url, game_id)[4]


def replay(db_url: str, game_id: int):
    """``(rules, state, version)`` rebuilt by the pure engine from the stored log."""
    from game.rules import get_ruleset
    from game.rules.base import step

    ruleset, players, options, seed, acts = _rows(db_url, game_id)
    rules = get_ruleset(ruleset)
    state = rules.new_game(players, seed, options)
    for actor, action in acts:  # the rules' actions and the site's notes (actor "")
        state = step(rules, state, actor, action)
    return rules, state, len(acts)


def legal_move(db_url: str, game_id: int, only: set[str] | None = None, seed: int = 0):
    """``(actor, JSON action, version)`` answering the first pending decision (of a seat in
    ``only``), or None when none is awaited."""
    from game.live import bot_choice

    rules, state, version = replay(db_url, game_id)
    for d in rules.pending(state):
        if only is None or d.actor in only:
            action = rules.bot_action(state, d.actor, "random", seed + version)
            return d.actor, bot_choice.action_to_json(rules, action), version
    return None


def session_cookie(user) -> str:
    """``"sessionid=..."``: a new logged-in session of ``user`` in the server's database, for a
    setup script run with the server's environment (Django set up) to hand to a browser."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    s = SessionStore()
    s[SESSION_KEY] = str(user.pk)
    s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    s[HASH_SESSION_KEY] = user.get_session_auth_hash()
    s.create()
    return f"{settings.SESSION_COOKIE_NAME}={s.session_key}"


def _setup(players: int, n_bots: int, ruleset: str) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gotweb.settings")
    django.setup()
    from django.contrib.auth import get_user_model

    from game.site import lobbies
    from game.models import Profile

    User = get_user_model()
    tag = os.urandom(3).hex()
    users = []
    for i in range(players - n_bots):
        u = User.objects.create_user(f"p{i}-{tag}", password="pw-long-enough-1")
        Profile.objects.create(user=u, display_name=f"Player {i + 1} {tag}")  # names are unique
        users.append(u)
    lobby = lobbies.create_lobby(users[0], name=f"Live {tag}", players=players, ruleset=ruleset)
    for u in users[1:]:
        lobbies.join_lobby(lobby.pk, u)
    for _ in range(n_bots):
        lobbies.add_bot(lobby.pk, users[0], level="basic")
    lobbies.start_lobby(lobby.pk, users[0])
    cookies = {}
    for seat in lobby.seats.filter(bot="").select_related("user"):
        cookies[seat.house] = session_cookie(seat.user)
    print(json.dumps({"game": lobby.game.pk, "cookies": cookies}))


def _lobby(what: str, *args: str) -> None:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gotweb.settings")
    django.setup()
    from django.contrib.auth import get_user_model

    from game.models import Lobby, Profile
    from game.site import lobbies

    user = get_user_model().objects.create_user(f"l-{os.urandom(4).hex()}", password="pw-long-enough-1")
    Profile.objects.create(user=user, display_name=user.username)
    if what == "open":
        lobby = lobbies.create_lobby(user, name=f"Open {user.username}", players=3, ruleset="agot2")
        print(json.dumps({"lobby": lobby.pk}))
    else:
        lobbies.join_lobby(int(args[0]), user)
        print(json.dumps({"version": Lobby.objects.get(pk=int(args[0])).version}))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if sys.argv[1] == "setup":
        _setup(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif sys.argv[1] == "lobby":
        _lobby(*sys.argv[2:])

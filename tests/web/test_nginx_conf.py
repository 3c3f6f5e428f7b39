"""The load balancer's configuration (``deploy/nginx.conf``, rendered by ``gotweb/nginx.py``):
every URL of a game, its page and socket alike, is routed by the game's id; the rendered text
is a configuration nginx accepts; bad arguments are refused. nginx itself in front of real
processes: ``tests/e2e/test_nginx_failover.py``."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from gotweb.nginx import TEMPLATE, main, render
from tests import nginx


def _routes(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.name


def _game_id(path: str) -> str | None:
    """The game id the template's ``map $uri $gotweb_game`` gives ``path`` (its first matching
    regular expression, as nginx reads them in order; PCRE's named groups read as Python's), or None."""
    body = TEMPLATE.read_text().split("map $uri $gotweb_game {", 1)[1].split("}", 1)[0]
    rules = [re.compile(m.group(1).replace("(?<", "(?P<")) for m in re.finditer(r"~(\S+)\s+\$id;", body)]
    assert len(rules) == 2
    return next((m.group("id") for r in rules if (m := r.match(path))), None)


def test_every_url_of_a_game_is_routed_by_its_id():
    game_urls = [(route, name) for route, name in _routes(get_resolver().url_patterns) if "<int:pk>" in route and route.startswith("game/")]
    assert {name for _, name in game_urls} >= {"game_play", "take_seat", "replay_index", "replay_step", "game_export"}
    for route, name in game_urls:
        kwargs = {"pk": 4711, **{k: "stark" if k == "seat" else 3 for k in re.findall(r"<\w+:(\w+)>", route) if k != "pk"}}
        path = reverse(name, kwargs=kwargs)
        assert _game_id(path) == "4711", path
    from game.routing import websocket_urlpatterns

    sockets = [str(p.pattern) for p in websocket_urlpatterns if "game_id" in str(p.pattern)]
    assert sockets == ["ws/game/<int:game_id>/"]
    assert _game_id("/ws/game/4711/") == "4711"
    for other in ("/", "/lobby/3/", "/ws/lobby/3/", "/ws/lobbies/", "/game/", "/games/12/", "/accounts/login/"):
        assert _game_id(other) is None, other


def test_the_rendered_configuration_names_every_server_twice():
    text = render("127.0.0.1:8080", ["127.0.0.1:8001", "10.0.0.2:8001"], fail_timeout=7, extra="add_header X-Test 1;")
    assert "@" not in "".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert text.count("server 127.0.0.1:8001 max_fails=1 fail_timeout=7s;") == 2  # the game's ring and the rest
    assert text.count("server 10.0.0.2:8001 max_fails=1 fail_timeout=7s;") == 2
    assert "listen 127.0.0.1:8080;" in text and "add_header X-Test 1;" in text
    assert "hash $gotweb_game consistent;" in text


@pytest.mark.parametrize(("listen", "servers", "fail_timeout"), [
    ("127.0.0.1:8080", [], 10),
    ("127.0.0.1:8080", ["127.0.0.1"], 10),
    ("127.0.0.1:8080", ["127.0.0.1:8001; include /etc/passwd"], 10),
    ("80; evil", ["127.0.0.1:8001"], 10),
    ("80", ["127.0.0.1:8001"], 0),
])
def test_bad_arguments_are_refused(listen, servers, fail_timeout):
    with pytest.raises(ValueError):
        render(listen, servers, fail_timeout=fail_timeout)


def test_the_command_line_prints_it_or_says_what_is_wrong(capsys):
    main(["--listen", "8080", "--server", "127.0.0.1:8001"])
    assert "listen 8080;" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["--server", "nowhere"])
    assert exc.value.code == 2 and "server: not host:port" in capsys.readouterr().err


@pytest.mark.skipif(nginx.binary() is None, reason=f"needs nginx (Debian package: {nginx.PACKAGE})")
def test_nginx_accepts_it(tmp_path):
    (tmp_path / "temp").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(render("127.0.0.1:8080", ["127.0.0.1:8001", "127.0.0.1:8002"]))
    out = subprocess.run([nginx.binary(), "-t", "-p", f"{tmp_path}/", "-c", str(conf), "-e", str(tmp_path / "error.log")],
                         capture_output=True, text=True, timeout=30, check=False)
    assert out.returncode == 0, out.stderr

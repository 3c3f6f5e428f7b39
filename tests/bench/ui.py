"""Benchmark: time in headless Chromium from navigation to an interactive AGoT map.

Run: ``python -m tests.bench.ui [runs] [--before REV]`` (default 7 runs). Starts daphne (SQLite,
in-memory layer, the UI harness on) on a free port, opens a fresh browser context per run (cold
HTTP cache) and measures, with the page's own clock (``performance.now()`` from navigation
start), ``interactive``: the renderer has the board inline, the overlay drawn and the decision
panel built: the later of the performance marks ``agot2:ready`` and ``agot2:first-state``, on

* ``harness start3``: the UI harness's start position as Stark (1280 x 900);
* ``harness crowded6``: the crowded late game at 1400 x 900;
* ``game page``: the live page ``/game/<id>/`` of a real 3-player game 150 actions in (its three
  seats people, no clock, so nothing changes between runs), seen by Stark's player at 1400 x 900:
  the page, its modules, the socket (or the first state embedded in the page), the board;
* baseline ``bare svg``: navigating to ``/boards/agot2.svg`` itself until its load event.

With ``--before REV`` the same pages are measured, interleaved run by run, on a second daphne
serving the source tree of git revision ``REV`` (``git archive`` into a temporary folder, the
same virtualenv): before and after in the same run, under the same load.

Prints the median and min/max of each, the ratio interactive / bare svg, where the game page's
time goes (median stages: HTML, DOMContentLoaded, the renderer's marks, and the waterfall of
what it fetched: each module, the board, its names, the catalogue, from request to response end),
and the sizes of what the screen downloads and of the board with every piece of crowded6 drawn
(the inline SVG's markup; target < 150 KB gzipped). Target (issues 6 and 15): under 1 s.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.daphne import free_port, launch  # noqa: E402

INTERACTIVE = """() => Math.max(...['agot2:ready', 'agot2:first-state'].map(n => performance.getEntriesByName(n)[0].startTime))"""
STAGES = """() => Object.fromEntries([
    ['html', performance.getEntriesByType('navigation')[0].responseEnd],
    ['domcontentloaded', performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd],
    ...performance.getEntriesByType('mark').map(m => [m.name, m.startTime])])"""
WATERFALL = """() => performance.getEntriesByType('resource').map(r => [
    r.name.replace(location.origin, '').replace(/\\?.*$/, ''), r.startTime, r.responseEnd])"""

# A game for the game page: three people (no bots, no clock), 150 actions of the basic bot's
# choices through the real apply path. Runs in the served tree (its own models and helpers).
SETUP = r"""
import json, os, sys
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gotweb.settings")
sys.path.insert(0, os.getcwd())
django.setup()
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from game.live import apply
from game.models import Game, Profile
from game.site import lobbies
from tests.web.archive_helpers import next_move

User = get_user_model()
users = {}
for house in ("stark", "lannister", "baratheon"):
    u = User.objects.create_user(f"bench-{house}", password="pw-long-enough-1")
    Profile.objects.create(user=u, display_name=f"Bench {house}")
    users[house] = u
lobby = lobbies.create_lobby(users["stark"], name="Bench", players=3, ruleset="agot2", house="stark", options={})
lobbies.join_lobby(lobby.pk, users["lannister"], house="lannister")
lobbies.join_lobby(lobby.pk, users["baratheon"], house="baratheon")
lobbies.start_lobby(lobby.pk, users["stark"])
game = Game.objects.get(lobby=lobby)
# the same game on every tree: a fixed seed, no snapshot or cached state of the drawn one
Game.objects.filter(pk=game.pk).update(seed=20261126, snapshot=None, snapshot_version=-1)
from game.live import snapshots
snapshots.CACHE.clear()
for _ in range(150):
    move = next_move(game.pk)
    if move is None:
        break
    actor, action, version = move
    apply.act(game.pk, users[actor], action, version)
while True:  # stop where Stark has a decision to make (the screen builds its panel)
    move = next_move(game.pk)
    if move is None or move[0] == "stark":
        break
    actor, action, version = move
    apply.act(game.pk, users[actor], action, version)
s = SessionStore()
s[SESSION_KEY] = str(users["stark"].pk)
s[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
s[HASH_SESSION_KEY] = users["stark"].get_session_auth_hash()
s.create()
game.refresh_from_db()
print(json.dumps({"game": game.pk, "version": game.version, "cookie": [settings.SESSION_COOKIE_NAME, s.session_key]}))
"""


class Site:
    """One daphne serving one source tree, with its game for the game page."""

    def __init__(self, name: str, tree: Path, tmp: Path) -> None:
        self.name, self.tree = name, tree
        env = {
            **os.environ,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECRET_KEY": "bench-" + "x" * 40,
            "STATIC_ROOT": str(tmp / f"static-{name}"),
            "DATABASE_URL": f"sqlite:///{tmp / f'db-{name}.sqlite3'}",
            "GOTWEB_UI_HARNESS": "1",
            "GAME_BOT_DELAY": "none",
        }
        env.pop("REDIS_URL", None)
        self.url, self.proc = launch(env, free_port(), tmp / f"daphne-{name}.log", cwd=tree)
        out = subprocess.run([sys.executable, "-c", SETUP], cwd=tree, env=env, capture_output=True, text=True, check=True)
        self.game = json.loads(out.stdout.strip().splitlines()[-1])
        self.times: dict[str, list[float]] = {}
        self.stages: list[dict] = []
        self.waterfalls: list[list] = []
        self.drawn = b""

    def add(self, key: str, seconds: float) -> None:
        self.times.setdefault(key, []).append(seconds)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def extract(rev: str, into: Path) -> Path:
    """The source tree of git revision ``rev`` (``git archive``), with this tree's compiled catalogues."""
    tree = into / f"tree-{rev[:12]}"
    tree.mkdir()
    data = subprocess.run(["git", "archive", "--format=tar", rev], cwd=ROOT, capture_output=True, check=True).stdout
    tar = tree / "src.tar"
    tar.write_bytes(data)
    with tarfile.open(tar) as t:
        t.extractall(tree, filter="data")
    tar.unlink()
    subprocess.run([sys.executable, "manage.py", "compilemessages", "-v0", "--ignore=.venv"], cwd=tree,
                   env={**os.environ, "DEBUG": "1"}, check=False, capture_output=True)
    return tree


def measure(browser, site: Site) -> None:
    def open_page(path: str, width: int, cookie: bool = False):
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        if cookie:
            name, value = site.game["cookie"]
            ctx.add_cookies([{"name": name, "value": value, "url": site.url}])
        page = ctx.new_page()
        page.goto(site.url + path, wait_until="commit")
        try:
            page.wait_for_selector("#board-root[data-ready='1'][data-version]", timeout=60_000)
        except Exception:
            print(f"{site.name} {path}: no interactive board; the page says:", page.inner_text("body")[:2000], file=sys.stderr)
            raise
        page.wait_for_function("() => performance.getEntriesByName('agot2:first-state').length > 0")
        return ctx, page

    ctx, page = open_page("/harness/agot2/?position=start3&viewer=stark", 1280)
    site.add("harness start3", page.evaluate(INTERACTIVE) / 1000)
    ctx.close()
    ctx, page = open_page("/harness/agot2/?position=crowded6&viewer=stark", 1400)
    site.add("harness crowded6", page.evaluate(INTERACTIVE) / 1000)
    site.drawn = page.evaluate("document.querySelector('svg.board').outerHTML").encode()
    ctx.close()
    ctx, page = open_page(f"/game/{site.game['game']}/", 1400, cookie=True)
    assert page.locator("#board-root").get_attribute("data-version") == str(site.game["version"])
    site.add("game page", page.evaluate(INTERACTIVE) / 1000)
    site.stages.append(page.evaluate(STAGES))
    site.waterfalls.append(page.evaluate(WATERFALL))
    ctx.close()
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.goto(site.url + "/boards/agot2.svg?lang=en", wait_until="load")
    site.add("baseline: bare svg", page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd") / 1000)
    ctx.close()


def report(sites: list[Site]) -> None:
    med = statistics.median
    print(f"{'':<22}" + "".join(f"{s.name:>34}" for s in sites))
    for key in sites[0].times:
        cells = []
        for s in sites:
            xs = s.times[key]
            cells.append(f"{med(xs):.3f} s ({min(xs):.3f}-{max(xs):.3f})")
        print(f"{key:<22}" + "".join(f"{c:>34}" for c in cells))
    if len(sites) == 2:
        a, b = sites
        for key in a.times:
            print(f"ratio {b.name}/{a.name} {key:<20} {med(b.times[key]) / med(a.times[key]):.2f}x")
    for s in sites:
        bare = med(s.times["baseline: bare svg"])
        worst = max(med(s.times[k]) for k in s.times if k != "baseline: bare svg")
        print(f"{s.name}: game page / bare svg {med(s.times['game page']) / bare:.2f}x; target < 1 s: {'met' if worst < 1 else 'NOT met'} (slowest median {worst:.3f} s)")
    for s in sites:
        print(f"\n{s.name}: where the game page's time goes (median ms from navigation start)")
        keys = [k for k in s.stages[0] if all(k in st for st in s.stages)]
        for k in sorted(keys, key=lambda k: med([st[k] for st in s.stages])):
            print(f"  {k:<28} {med([st[k] for st in s.stages]):7.0f}")
        rows: dict[str, list[tuple[float, float]]] = {}
        for w in s.waterfalls:
            for name, start, end in w:
                rows.setdefault(name, []).append((start, end))
        print("  fetched (request start -> response end, median ms):")
        for name, xs in sorted(rows.items(), key=lambda kv: med([x[0] for x in kv[1]])):
            if len(xs) * 2 >= len(s.waterfalls):
                print(f"    {med([x[0] for x in xs]):6.0f} -> {med([x[1] for x in xs]):6.0f}  {name}")


def sizes(site: Site) -> None:
    svg, data = site.svg, site.data
    js = [*(ROOT / "static/js/board").glob("*.js"), ROOT / "static/js/rulesets/agot2.js", ROOT / "static/js/icons.js"]
    js_raw = sum(p.stat().st_size for p in js if p.exists())
    pieces = [ROOT / "static/js/board/overlay.js", ROOT / "static/js/board/legend.js"]
    pieces_gz = sum(len(gzip.compress(p.read_bytes(), 9)) for p in pieces)
    drawn = site.drawn
    print(f"\nboard + pieces: the inline SVG with crowded6's overlay drawn {len(drawn) / 1024:.1f} KB raw, "
          f"{len(gzip.compress(drawn, 9)) / 1024:.1f} KB gzip -9; the pieces' code (overlay.js, legend.js) "
          f"{sum(p.stat().st_size for p in pieces) / 1024:.1f} KB raw, {pieces_gz / 1024:.1f} KB gzip; downloaded: SVG + pieces' code "
          f"{(len(gzip.compress(svg, 9)) + pieces_gz) / 1024:.1f} KB gzip (target < 150 KB)")
    print(f"board SVG {len(svg) / 1024:.1f} KB raw, {len(gzip.compress(svg, 9)) / 1024:.1f} KB gzip -9; "
          f"board data JSON {len(data) / 1024:.1f} KB raw, {len(gzip.compress(data, 9)) / 1024:.1f} KB gzip; renderer JS {js_raw / 1024:.1f} KB raw")


def main(argv: list[str] | None = None) -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="?", type=int, default=7)
    ap.add_argument("--before", metavar="REV", help="also measure the source tree of this git revision, interleaved")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="bench-ui-"))
    sites: list[Site] = []
    try:
        if args.before:
            sites.append(Site(f"before ({args.before[:10]})", extract(args.before, tmp), tmp))
        sites.append(Site("after (this tree)" if args.before else "this tree", ROOT, tmp))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for s in sites:  # warm each server (first render of the SVG, imports, the game's state)
                page = browser.new_page()
                page.goto(s.url + "/harness/agot2/?position=start3&viewer=stark")
                page.wait_for_selector("#board-root[data-ready='1'][data-version]", timeout=60_000)
                page.close()
                measure(browser, s)
                for k in s.times:
                    s.times[k].clear()
                s.stages.clear()
                s.waterfalls.clear()
            for _ in range(args.runs):
                for s in sites:
                    measure(browser, s)
            browser.close()
        last = sites[-1]
        last.svg = urllib.request.urlopen(last.url + "/boards/agot2.svg?lang=en").read()
        last.data = urllib.request.urlopen(last.url + "/boards/agot2.json?lang=en").read()
    finally:
        for s in sites:
            s.stop()
    report(sites)
    sizes(sites[-1])


if __name__ == "__main__":
    main()

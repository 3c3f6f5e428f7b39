"""Web Push in a real browser: with VAPID keys set, the game page of a player who has
allowed notifications registers the service worker at ``/sw.js`` (scope ``/``) and subscribes this
browser, handing the subscription to ``/push/subscribe/``. Headless chromium here has no push
service to reach (no network), so its ``pushManager.subscribe`` may fail: the page must then say
so in ``window.gotwebTurnAlert.push`` and go on with its in-page notifications, without an error.
The sending side is tested against a fake push service in ``tests/web/test_webpush.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .conftest import start_server, stop_server
from .test_clock_page import ROOT, SETUP

pytestmark = pytest.mark.e2e


@pytest.fixture
def push_server(tmp_path):
    from game.management.commands.webpush_keys import new_pair

    public, private = new_pair()
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "WEBPUSH_VAPID_PUBLIC_KEY": public,
        "WEBPUSH_VAPID_PRIVATE_KEY": private,
        "GAME_BOT_DELAY": "none",
    }
    url, proc = start_server(tmp_path, env, "daphne-push")
    yield url, env
    stop_server(proc)


def test_the_game_page_registers_the_service_worker_and_subscribes(browser, push_server, shots):
    base, env = push_server
    out = subprocess.run(
        [sys.executable, "-c", SETUP, json.dumps({"kind": "none"})],
        cwd=ROOT, env={**os.environ, "SECRET_KEY": "e2e-" + "x" * 40, **env}, capture_output=True, text=True, check=True,
    )
    info = json.loads(out.stdout.strip().splitlines()[-1])
    ctx = browser.new_context(locale="en-US", permissions=["notifications"])
    ctx.add_cookies([{"name": info["cookie"][0], "value": info["cookie"][1], "url": base}])
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{base}/game/{info['game']}/")
        config = json.loads(page.locator("#game-config").text_content())
        assert config["push"]["key"] == env["WEBPUSH_VAPID_PUBLIC_KEY"] and config["push"]["worker"] == "/sw.js"
        page.wait_for_function("() => window.gotwebTurnAlert && window.gotwebTurnAlert.push", timeout=30_000)
        outcome = page.evaluate("window.gotwebTurnAlert.push")
        assert outcome == "subscribed" or outcome.startswith("unavailable"), outcome  # never refused by our server
        scope = page.evaluate("navigator.serviceWorker.getRegistration('/').then((r) => r && r.scope)")
        assert scope == f"{base}/"
        page.screenshot(path=shots("01-game-page-with-push"), full_page=True)
        assert errors == []
    finally:
        ctx.close()

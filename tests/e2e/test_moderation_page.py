"""In a real browser, a report from the chat to a moderator's action: at a table of two guests and
a bot, Lannister (the host) insults the table; Stark reports the line from its "Report" link; a
moderator, on a 390 px phone, finds the report in the queue, opens it, gives a reason and mutes
Lannister for 60 minutes from the report's page (whose fields are a tap high); Lannister's next
chat line is then refused on the game page with the mute's message, in sight under the chat's
form. Screenshots:
``test-results/test_a_reported_line_leads_to_a_mute/``."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if __name__ == "__main__":  # run as the setup script in the server's environment
    sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import start_server, stop_server  # noqa: E402
from tests.e2e.live_tools import run_script, session_cookie  # noqa: E402
from tests.e2e.pages import guests_at_a_table  # noqa: E402

pytestmark = pytest.mark.e2e


def test_a_reported_line_leads_to_a_mute(browser, tmp_path, shots):
    from playwright.sync_api import expect

    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "GAME_BOT_DELAY": "0.2"}
    base, proc = start_server(tmp_path, env, "daphne-moderation")
    try:
        host, arya, errors = guests_at_a_table(browser, base, "Mind your words")
        # the host insults the table; Stark reports the line from its link
        host.locator(".side-tab[data-tab='chat']").click()
        host.fill("#chat-text", "you are all fools")
        host.locator("#chat-form button[type=submit]").click()
        line = arya.locator("#chat-messages li", has_text="you are all fools")
        expect(line).to_be_visible()
        arya.goto(base + line.locator(".chat-report").get_attribute("href"))
        expect(arya.locator(".reported-line")).to_have_text("you are all fools")
        arya.select_option("#id_reason", "abuse")
        arya.fill("#id_text", "Insults in the public chat.")
        arya.get_by_role("button", name="Send the report").click()
        expect(arya.locator(".messages")).to_be_visible()

        # a moderator on a phone: the queue, the report, a reason, Mute
        cookie = run_script(__file__, env, "moderator")["cookie"]
        name, value = cookie.split("=", 1)
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="en-US")
        ctx.add_cookies([{"name": name, "value": value, "url": base}])
        mod = ctx.new_page()
        mod.set_default_timeout(15_000)
        mod.on("pageerror", lambda e: errors.append(str(e)))
        mod.goto(base + "/moderation/")
        mod.locator("main a[href*='/moderation/report/']").first.click()
        expect(mod.locator(".report-text")).to_contain_text("Insults in the public chat.")
        for field in ("input[name=reason]", "input[name=minutes]"):
            assert mod.locator(f".moderation-act {field}").bounding_box()["height"] >= 44, field
        assert mod.evaluate("document.documentElement.scrollWidth") <= 390
        mod.screenshot(path=shots("01-report-390px"), full_page=True)
        mod.fill(".moderation-act input[name=reason]", "Insults at the table")
        mod.fill(".moderation-act input[name=minutes]", "60")
        mod.get_by_role("button", name="Mute").click()
        expect(mod.locator(".messages")).to_be_visible()
        mod.screenshot(path=shots("02-after-the-mute"), full_page=True)

        # the host's next line is refused, with the mute's message
        host.fill("#chat-text", "and again")
        host.locator("#chat-form button[type=submit]").click()
        expect(host.locator("#chat-error")).to_contain_text("muted")
        expect(host.locator("#chat-error")).to_be_in_viewport()  # not scrolled away in the chat tab
        expect(host.locator("#chat-messages li", has_text="and again")).to_have_count(0)
        host.screenshot(path=shots("03-the-host-muted"), full_page=True)
        assert errors == []
        ctx.close()
    finally:
        stop_server(proc)


def _moderator() -> None:
    """A moderator (the "Moderators" group of migration 0018) and their session cookie."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gotweb.settings")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from game.models import Profile

    user = get_user_model().objects.create_user(f"mod-{os.urandom(3).hex()}", password="pw-long-enough-1")
    Profile.objects.create(user=user, display_name=f"Maester {os.urandom(2).hex()}")
    user.groups.add(Group.objects.get(name="Moderators"))
    print(json.dumps({"cookie": session_cookie(user)}))


if __name__ == "__main__":
    if sys.argv[1] == "moderator":
        _moderator()

"""In a real browser: a guest is visibly marked as a guest wherever their name is
shown on the game page (the seat list and each chat line), in English and in Chinese, so a guest
cannot pass for a registered player (and a chat line's author takes the colon of the page's
language); a look-alike of a taken name is refused on the guest form."""

from __future__ import annotations

import secrets

import pytest

from .pages import fill_with_bots_and_start, guest_creates_lobby

pytestmark = pytest.mark.e2e


def test_a_guest_is_marked_in_seats_and_chat(browser, live_server_url, shots):
    from playwright.sync_api import expect

    base = live_server_url
    name = f"Cersei {secrets.token_hex(2)}"
    host = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
    host.set_default_timeout(15_000)
    errors = []
    host.on("pageerror", lambda e: errors.append(str(e)))
    guest_creates_lobby(host, base, "Guests are marked", display_name=name)
    fill_with_bots_and_start(host, base, bots=2)

    seat = host.locator(".play-seats li", has_text=name)
    expect(seat.locator(".tag-guest")).to_have_text("guest")
    expect(host.locator(".play-seats .tag-guest")).to_have_count(1)  # bots are bots, not guests
    host.fill("#chat-text", "I am who I say I am")
    host.locator("#chat-form button").click()
    line = host.locator("#chat-messages .chat-line", has_text="I am who I say I am")
    # (generous: the page may be drawn before its socket opens, and the line sent once it does)
    expect(line.locator(".chat-meta")).to_contain_text(name, timeout=20_000)
    expect(line.locator(".chat-meta .tag-guest")).to_have_text("guest")
    assert line.locator(".chat-meta").text_content().endswith(": ")
    host.screenshot(path=shots("01-guest-marked"), full_page=True)

    # the same page in Chinese: the mark is translated (the chat history is drawn by the script)
    host.context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": base}])
    host.reload()
    expect(line.locator(".chat-meta .tag-guest")).to_have_text("游客")
    assert line.locator(".chat-meta").text_content().endswith("：")  # the full-width colon of a label
    expect(seat.locator(".tag-guest")).to_have_text("游客")
    host.screenshot(path=shots("02-guest-marked-zh"), full_page=True)
    assert errors == []

    # someone else cannot take that name in another case or width
    other = browser.new_context(locale="en-US").new_page()
    other.set_default_timeout(15_000)
    other.goto(base + "/accounts/guest/")
    other.fill("#id_display_name", name.upper().replace("C", "\uff23"))
    other.get_by_role("button", name="Play").click()
    expect(other.locator(".errorlist")).to_contain_text("already taken")

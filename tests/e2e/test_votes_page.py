"""In a real browser: at a live-clock AGoT table of two people and a bot, Lannister asks the table
(from the Players tab) to pause the game; both players' pages show the vote in their head, Stark
agrees with one click, and both pages show the pause (clocks stopped, the log's lines) until
Lannister, who asked, resumes the game; a choice being made in the form meanwhile is kept.
Stark then hides Lannister's chat lines from themselves and finds the report link of a line.
Screenshots: test-results/<test name>/."""

from __future__ import annotations

import re

import pytest

from .conftest import server_on_sqlite
from .pages import guests_at_a_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(tmp_path):
    with server_on_sqlite(tmp_path, "daphne-votes", GAME_BOT_DELAY="0.2") as (url, _env):
        yield url


def test_a_vote_to_pause_reaches_both_players(browser, server, shots):
    from playwright.sync_api import expect

    base = server
    host, arya, errors = guests_at_a_table(browser, base, "Shall we pause?")

    # the clocks run; nothing is being voted on, so the page's head has no table panel: asking the
    # table waits in the Players tab, where Lannister (the host) asks for a pause of 5 minutes
    expect(host.locator('#clock-bar [data-clock="stark"]')).to_have_class(re.compile(r"\brunning\b"))
    expect(host.locator("#table-ask")).to_be_attached()
    assert host.locator(".players-card #table-ask").count() == 1
    expect(host.locator("#table-panel")).to_be_hidden()
    expect(host.locator("#vote-kind")).to_be_hidden()  # the chat's tab is open first
    host.locator(".side-tab[data-tab='players']").click()
    expect(host.locator("#vote-kind")).to_have_value("pause")
    expect(host.locator("#report-game")).to_be_visible()
    host.fill("#vote-minutes", "5")
    host.locator("#vote-ask").click()
    for page in (host, arya):
        vote = page.locator("#table-vote")
        expect(vote).to_contain_text(re.compile(r"Vote: Lannister asks to pause the game for 5 minutes\."))
        expect(vote.locator(".vote-awaiting")).to_have_text("Waiting for: Stark")
        expect(page.locator("#log")).to_contain_text("Vote: Lannister asks to pause the game for 5 minutes.")
        expect(page.locator("#table-panel")).to_be_visible()  # in the head while the vote is open
    expect(host.locator("#vote-yes")).to_have_count(0)  # the asker has said yes already
    expect(host.locator("#vote-ask")).to_have_count(0)  # one vote at a time
    arya.screenshot(path=shots("01-arya-is-asked"), full_page=True)

    arya.locator("#vote-yes").click()
    for page in (host, arya):
        expect(page.locator("#table-pause")).to_contain_text("The game is paused (asked by Lannister)")
        expect(page.locator("#log")).to_contain_text("The table agreed: the game is paused for 5 minutes; clocks and deadlines stop.")
        expect(page.locator("#table-vote")).to_have_count(0)
        expect(page.locator("#clock-bar .clock.running")).to_have_count(0)
    expect(arya.locator("#vote-resume")).to_have_count(0)  # only the asker ends it early
    host.screenshot(path=shots("02-host-paused"), full_page=True)
    arya.screenshot(path=shots("03-arya-paused"), full_page=True)

    # while the pause runs its panel is drawn again every second; a choice being made in the
    # Players tab's form is kept through those renders
    arya.locator(".side-tab[data-tab='players']").click()
    arya.select_option("#vote-kind", "replace")
    expect(arya.locator("#vote-seat")).to_be_visible()
    before = arya.locator("#table-pause").inner_text()
    arya.wait_for_function("(t) => document.getElementById('table-pause').textContent !== t", arg=before)
    expect(arya.locator("#vote-kind")).to_have_value("replace")
    expect(arya.locator("#vote-seat")).to_be_visible()
    arya.locator(".side-tab[data-tab='chat']").click()

    host.locator("#vote-resume").click()
    for page in (host, arya):
        expect(page.locator("#log")).to_contain_text("Lannister ended the pause: clocks and deadlines run again.")
        expect(page.locator("#table-pause")).to_have_count(0)
    expect(host.locator("#clock-bar .clock.running").first).to_be_visible()

    expect(host.locator("#table-panel")).to_be_hidden()  # nothing left to show in the head
    expect(host.locator("#vote-ask")).to_be_visible()

    # chat: Stark hides Lannister's lines for themselves; a line can be reported
    host.locator(".side-tab[data-tab='chat']").click()
    host.fill("#chat-text", "sorry for the wait")
    host.locator("#chat-form button[type=submit]").click()
    line = arya.locator("#chat-messages li", has_text="sorry for the wait")
    expect(line).to_be_visible()
    expect(line.locator(".chat-report")).to_have_attribute("href", re.compile(r"^/report/\?line=\d+$"))
    report_href = line.locator(".chat-report").get_attribute("href")
    line.get_by_role("button", name="Hide").click()
    expect(arya.locator("#chat-messages li", has_text="sorry for the wait")).to_have_count(0)
    expect(arya.locator("#chat-hidden-count")).to_have_text("Players you hide: 1")
    host.fill("#chat-text", "still there?")
    host.locator("#chat-form button[type=submit]").click()
    expect(host.locator("#chat-messages li", has_text="still there?")).to_be_visible()
    # Stark's own line, sent after the host's was pushed, reaches her page after anything the
    # host's line would have brought (one game socket gets its pushes in order): then it is absent
    arya.fill("#chat-text", "here I am")
    arya.locator("#chat-form button[type=submit]").click()
    expect(arya.locator("#chat-messages li", has_text="here I am")).to_be_visible()
    expect(arya.locator("#chat-messages li", has_text="still there?")).to_have_count(0)
    arya.screenshot(path=shots("04-arya-hides-the-host"), full_page=True)
    # the line's report form: its text box in the fields' look, as wide as the select above it
    arya.goto(base + report_href)
    text, reason = arya.locator("main textarea").bounding_box(), arya.locator("main select").last.bounding_box()
    assert abs(text["x"] - reason["x"]) < 1 and abs(text["width"] - reason["width"]) < 1, (text, reason)
    assert errors == []

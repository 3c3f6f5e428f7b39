"""Small things of the table: the 1st edition's Raven says what it does (on a phone too); the
battle banner's icon stays with its words; every mail-settings checkbox has one size; the
Chinese screen says 回合 for a round, never 轮."""

import re
import secrets

import pytest


pytestmark = pytest.mark.e2e


def test_the_1st_edition_raven_explains_itself(harness, shots):
    gid = harness.new_game("agot1_raven3")
    page = harness.open(gid, "lannister", width=390, height=844, touch=True)
    text = page.locator(".decision .explain").inner_text()
    assert "Messenger Raven" in text and "replace one of your orders" in text and "wildling" not in text
    assert page.locator(".decision .explain").is_visible()  # not a hint: phones show it
    page.screenshot(path=shots("1-phone-raven"))
    zh = harness.open(gid, "lannister", width=1400, height=900, lang="zh-hans")
    assert "信鸦" in zh.locator(".decision .explain").inner_text()


def test_the_battle_banners_icon_stays_with_its_words(harness):
    gid = harness.new_game("combat3_tie")
    page = harness.open(gid, None, width=390, height=844, touch=True)
    icon, words = page.evaluate("""() => { const b = document.querySelector('.combat-banner');
        const i = b.querySelector('svg.icon').getBoundingClientRect(); const t = b.querySelector('.cb-text');
        const r = document.createRange(); r.selectNodeContents(t); const first = r.getClientRects()[0];
        return [i.top, first.top]; }""")
    assert abs(icon - words) < 12  # the icon on the words' first line, not alone above them


def test_mail_settings_checkboxes_are_one_size(harness_url, browser):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.goto(f"{harness_url}/accounts/register/")
    page.fill("#id_username", "mail" + secrets.token_hex(3))
    page.fill("#id_password1", "a-long-pass-123x")
    page.fill("#id_password2", "a-long-pass-123x")
    page.locator("form button[type=submit]").click()
    page.goto(f"{harness_url}/accounts/notifications/")
    sizes = page.evaluate("() => [...document.querySelectorAll('#notification-form input[type=checkbox]')].map(i => Math.round(i.getBoundingClientRect().width))")
    assert len(sizes) == 4 and len(set(sizes)) == 1, sizes
    ctx.close()


def test_one_word_for_a_round_in_chinese(harness):
    gid = harness.new_game("moves3")
    page = harness.open(gid, "stark", width=1400, height=900, lang="zh-hans")
    page.locator(".map-controls .legend-toggle").click()
    text = page.locator("body").inner_text()
    assert "回合" in text
    assert not re.search(r"第.{0,6}轮|本轮|每轮|下一轮", text)

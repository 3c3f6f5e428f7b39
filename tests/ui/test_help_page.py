"""The how-to-play page's board excerpts are drawn by the game screen's own code (help.js): the
board cropped to a part of Westeros with pieces, the last moves and a battle over it, and the
map's legend; in English and Chinese, on a desktop and on phones down to 320 px wide (nothing
scrolls sideways). Screenshots under test-results/."""

import pytest

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("lang,width", [("en", 1400), ("zh-hans", 390), ("zh-hans", 360), ("en", 320)])
def test_the_excerpts_are_drawn(harness_url, browser, shots, lang, width):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale="zh-CN" if lang.startswith("zh") else "en-US")
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{harness_url}/help/")
    if lang.startswith("zh"):
        page.evaluate("document.cookie = 'django_language=zh-hans; path=/'")
        page.reload()
    page.wait_for_selector("body[data-help-ready='1']")
    for name in ("pieces", "moves", "battle"):
        fig = page.locator(f"figure[data-excerpt='{name}']")
        assert fig.get_attribute("data-drawn") == "1"
        assert fig.locator(".ov-units").count() >= 3
    assert page.locator("figure[data-excerpt='pieces'] .ov-garrison").count() == 1
    assert page.locator("figure[data-excerpt='moves'] .ov-recent .rc-march").count() == 2
    assert page.locator("figure[data-excerpt='moves'] .ov-recent .rc-raid").count() == 1
    assert page.locator("figure[data-excerpt='battle'] .hl-combat").count() == 1
    assert page.locator("[data-legend] .map-legend .legend-list li").count() >= 10
    if lang.startswith("zh"):
        assert "游戏说明" in page.locator("h1").inner_text()
    page.screenshot(path=shots(f"help-{lang}-{width}"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    assert not errors
    ctx.close()

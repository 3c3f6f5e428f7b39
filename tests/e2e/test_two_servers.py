"""At scale: two daphne processes share PostgreSQL and Redis. A player on one process sees, live,
the seat taken by a player connected to the other one."""

from __future__ import annotations

import uuid
from urllib.parse import urlsplit

import pytest

from .conftest import start_server, stop_server
from .faults import throwaway_database

pytestmark = [pytest.mark.e2e, pytest.mark.redis, pytest.mark.postgres]


@pytest.fixture
def two_servers(tmp_path, postgres_url, redis_url):
    with throwaway_database(postgres_url) as db_url:
        env = {"DATABASE_URL": db_url, "REDIS_URL": redis_url, "REDIS_PREFIX": f"gotweb-e2e-{uuid.uuid4().hex[:8]}"}
        servers = [start_server(tmp_path, env, "daphne-a"), start_server(tmp_path, env, "daphne-b")]
        yield [url for url, _ in servers]
        for _, proc in servers:
            stop_server(proc)


def test_live_updates_cross_processes(browser, two_servers, shots):
    from playwright.sync_api import expect

    a, b = two_servers
    assert a != b
    host = browser.new_context(locale="en-US").new_page()
    guest = browser.new_context(locale="en-US").new_page()
    for page in (host, guest):
        page.set_default_timeout(15_000)

    host.goto(a + "/accounts/guest/")
    host.fill("#id_display_name", "Daenerys")
    host.get_by_role("button", name="Play").click()
    host.goto(a + "/lobby/new/")
    host.fill("#id_name", "Across the Narrow Sea")
    host.get_by_role("button", name="Create the lobby").click()
    path = urlsplit(host.url).path
    expect(host.locator("#conn-status")).to_have_attribute("data-state", "open")

    guest.goto(b + "/accounts/guest/?next=" + path)
    guest.fill("#id_display_name", "Jorah")
    guest.get_by_role("button", name="Play").click()
    expect(guest).to_have_url(b + path)
    guest.get_by_role("button", name="Join").click()
    expect(guest.locator("#seat-count")).to_have_text("2 / 3")

    expect(host.locator("#seats")).to_contain_text("Jorah")  # pushed from process b via Redis
    expect(host.locator("#seat-count")).to_have_text("2 / 3")
    host.screenshot(path=shots("host-on-a-sees-guest-on-b"), full_page=True)

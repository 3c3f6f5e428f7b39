"""Registration is limited per address as guests are (``THROTTLE_REGISTER``): past the limit the
page answers 429 with ``Retry-After``, says why, and creates nothing; other addresses are not
affected. Before: 30 accounts from one address in 13.6 s."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = {"password1": "a-Long-pass-9", "password2": "a-Long-pass-9"}


@pytest.fixture(autouse=True)
def _fresh_counts(settings):
    settings.THROTTLE_REGISTER = (5, 3600)
    cache.clear()
    yield
    cache.clear()


def _register(ip: str, name: str):
    return Client(REMOTE_ADDR=ip).post(reverse("register"), {"username": name, **PASSWORD})


def test_the_sixth_account_from_one_address_is_refused():
    codes = [_register("198.51.100.7", f"farm{i}").status_code for i in range(8)]
    assert codes == [302] * 5 + [429] * 3
    assert User.objects.count() == 5
    refused = _register("198.51.100.7", "farm9")
    assert int(refused["Retry-After"]) > 0 and "Too many accounts" in refused.content.decode()
    assert _register("198.51.100.8", "elsewhere").status_code == 302  # another address: its own budget


def test_a_form_refused_for_its_own_fields_does_not_spend_the_budget():
    for _ in range(6):
        r = Client(REMOTE_ADDR="198.51.100.9").post(reverse("register"), {"username": "x", "password1": "a", "password2": "b"})
        assert r.status_code == 400
    assert _register("198.51.100.9", "honest").status_code == 302


def test_the_limit_is_a_setting(settings):
    settings.THROTTLE_REGISTER = None
    assert [_register("198.51.100.10", f"open{i}").status_code for i in range(7)] == [302] * 7

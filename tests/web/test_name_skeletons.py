"""Names that look alike are one name (Unicode TR39 skeletons, from the confusables table that
``confusable_homoglyphs`` ships): ``LiIy`` (a capital I) and ``Liǀy`` (U+01C0) cannot register,
join as guests or be claimed beside ``Lily``, while names that only share letters stay apart."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from game.models import Profile, name_key, skeleton

pytestmark = pytest.mark.django_db
User = get_user_model()
LILY = ["LiIy", "Li\u01c0y", "L1ly", "LILY", "lily", "Ｌｉｌｙ", "L\u0456ly"]  # capital I, dental click, one, case, width, Cyrillic i
PASSWORD = {"password1": "a-Long-pass-9", "password2": "a-Long-pass-9"}


def _guest(name: str, ip: str) -> int:
    return Client(REMOTE_ADDR=ip).post(reverse("guest"), {"display_name": name}).status_code


@pytest.mark.parametrize("name", LILY)
def test_look_alikes_of_a_registered_name_are_refused_everywhere(make_user, name):
    make_user("Lily")
    users = User.objects.count()
    assert _guest(name, "192.0.2.20") == 400
    assert Client().post(reverse("register"), {"username": name, **PASSWORD}).status_code == 400
    assert User.objects.count() == users


def test_a_guest_named_like_someone_cannot_be_claimed_into_them(make_user):
    make_user("Lily")
    guest = make_user("Rose", guest=True)
    c = Client()
    c.force_login(guest)
    assert c.post(reverse("claim"), {"username": "LiIy", **PASSWORD}).status_code == 400
    guest.refresh_from_db()
    assert guest.profile.is_guest


def test_different_names_stay_apart():
    keys = {name_key(n) for n in ("Lily", "Lucy", "Bob", "Rob", "Dan", "Dav", "小明", "小红", "Ægir", "Sao", "São")}
    assert len(keys) == 11


def test_the_skeleton_is_the_tables():
    assert skeleton("\u0430") == "a" and skeleton("0") == "O" and skeleton("m") == "rn" and skeleton("\u01c0") == "l"
    assert skeleton("Lily") == "Lily"


def test_profiles_store_the_new_key(make_user):
    make_user("LiIy", guest=True)
    assert Profile.objects.get().name_key == name_key("Lily")

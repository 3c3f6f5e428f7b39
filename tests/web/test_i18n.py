"""English and simplified Chinese: the switcher, translated pages, a complete catalogue."""

from __future__ import annotations

import re
import shutil
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES"
MAKEMESSAGES_ARGS = [
    "-l", "zh_Hans", "--no-location", "--ignore=.venv", "--ignore=build", "--ignore=tests",
    "--ignore=game/rules", "--ignore=staticfiles",
]  # as in the Makefile's makemessages target


def po_entries(path: Path) -> list[dict]:
    """The entries of a .po file: {"msgid", "msgstr" (list), "flags"}; the header is skipped."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        fields: dict[str, str] = {}
        flags: list[str] = []
        current = None
        for line in block.splitlines():
            if line.startswith("#,"):
                flags += [f.strip() for f in line[2:].split(",")]
            m = re.match(r'^(msgid|msgid_plural|msgstr(?:\[\d+\])?) "(.*)"$', line)
            if m:
                current = m.group(1)
                fields[current] = m.group(2)
            elif line.startswith('"') and current:
                fields[current] += line[1:-1]
        if fields.get("msgid"):
            entries.append(
                {"msgid": fields["msgid"], "msgstr": [v for k, v in fields.items() if k.startswith("msgstr")], "flags": flags}
            )
    return entries


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_catalogue_is_complete(domain):
    entries = po_entries(LOCALE / f"{domain}.po")
    assert entries
    untranslated = [e["msgid"] for e in entries if not all(e["msgstr"])]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert untranslated == [] and fuzzy == []


@pytest.mark.skipif(not shutil.which("xgettext"), reason="needs GNU gettext (Debian package: gettext)")
def test_every_marked_string_is_in_the_catalogue(tmp_path):
    """makemessages on a copy of the project finds no string missing from the committed .po files."""
    for name in ("manage.py", "gotweb", "game", "templates", "static", "locale"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    for domain in ("django", "djangojs"):
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, *MAKEMESSAGES_ARGS],
            cwd=tmp_path, check=True, capture_output=True,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "gotweb.settings"},  # the copy has no tests/
        )
        fresh = {e["msgid"] for e in po_entries(tmp_path / "locale/zh_Hans/LC_MESSAGES" / f"{domain}.po")}
        committed = {e["msgid"] for e in po_entries(LOCALE / f"{domain}.po") if "fuzzy" not in e["flags"]}
        translated = {e["msgid"] for e in po_entries(LOCALE / f"{domain}.po") if all(e["msgstr"])}
        assert fresh - committed == set(), f"run `make makemessages` and translate: {sorted(fresh - committed)}"
        assert fresh <= translated


@pytest.fixture(autouse=True)
def _needs_compiled_catalogue(request):
    if request.node.get_closest_marker("django_db") and not (LOCALE / "django.mo").exists():
        pytest.skip("the catalogue is not compiled: msgfmt is missing (Debian package: gettext)")


@pytest.mark.django_db
def test_pages_in_chinese(client, make_lobby):
    lobby = make_lobby(players=3, house="stark")
    client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    html = client.get(reverse("lobby_list")).content.decode()
    assert 'lang="zh-hans"' in html and "可加入的对局" in html and "权力的游戏：桌游（第二版）" in html
    html = client.get(lobby.get_absolute_url()).content.decode()
    assert "史塔克" in html and "座位" in html


@pytest.mark.django_db
def test_language_switch_back_to_english(client):
    client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "Open games" in client.get(reverse("lobby_list")).content.decode()


@pytest.mark.django_db
def test_browser_language_is_used(client):
    html = client.get(reverse("lobby_list"), HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9").content.decode()
    assert "可加入的对局" in html


@pytest.mark.django_db
def test_error_messages_are_translated(client_for, make_lobby, make_user):
    lobby = make_lobby(players=3, seated=3)
    c = client_for(make_user("late"))
    c.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    html = c.post(reverse("lobby_join", args=[lobby.pk]), {"house": ""}).content.decode()
    assert "这个房间已满。" in html


@pytest.mark.django_db
def test_javascript_catalogue(client):
    client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    js = client.get(reverse("javascript-catalog")).content.decode()
    assert "\\u5df2\\u590d\\u5236" in js or "已复制" in js


#: how /boards/agot2.json is asked for, and whether the answer is in Chinese
BOARD_DATA_REQUESTS = [
    ("?lang=zh-hans", {}, True),
    ("?lang=en", {}, False),
    ("", {"HTTP_ACCEPT_LANGUAGE": "zh-CN,zh;q=0.9"}, True),
    ("", {}, False),
]


@pytest.mark.django_db
@pytest.mark.parametrize("query, headers, chinese", BOARD_DATA_REQUESTS)
def test_board_data_house_card_abilities_in_the_viewers_language(client, query, headers, chinese):
    """/boards/agot2.json serves each house card's ability in Chinese (ours) or English."""
    from game.rules.agot.data import board

    r = client.get("/boards/agot2.json" + query, **headers)
    assert r.status_code == 200 and r.json()["lang"] == ("zh-hans" if chinese else "en")
    cards = r.json()["house_cards"]
    for cid, c in board().house_cards.items():
        assert cards[cid]["ability"] == (c["ability_zh"] if chinese else c["ability"])
    blackfish = "在本次战斗中，你的单位不会因利剑符号、家族卡牌的文字效果或战局卡牌的骷髅符号而承受伤亡。"
    assert (cards["the-blackfish"]["ability"] == blackfish) is chinese
    assert cards["eddard-stark"]["ability"] is None


@pytest.mark.django_db
def test_board_data_follows_the_chosen_language(client):
    client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    cards = client.get("/boards/agot2.json").json()["house_cards"]
    assert cards["tywin-lannister"]["ability"] == "如果你赢得本次战斗，从权力池获得两枚权力标记。"


@pytest.mark.django_db
@pytest.mark.parametrize("query, headers, chinese", BOARD_DATA_REQUESTS)
def test_board_data_westeros_and_wildling_texts_in_the_viewers_language(client, query, headers, chinese):
    """/boards/agot2.json serves Westeros card effects (the rulebook's Chinese) and wildling card
    texts (ours) in Chinese for zh-hans, the reference's English otherwise."""
    from game.rules.agot.data import board

    r = client.get("/boards/agot2.json" + query, **headers)
    assert r.status_code == 200 and r.json()["lang"] == ("zh-hans" if chinese else "en")
    data = r.json()
    b = board()
    for cid, c in b.westeros_cards.items():
        assert data["westeros_cards"][cid]["effect"] == (c["effect_zh"] if chinese else c["effect"])
    for cid, c in b.wildling_cards.items():
        for short, key in (("lowest", "lowest_bidder"), ("everyone", "everyone_else"), ("highest", "highest_bidder")):
            assert data["wildling_cards"][cid][short] == (c[key + "_zh"] if chinese else c[key])
    storm = "玩家在本回合战略阶段，不能部署防御指令（包括特殊防御指令）。"
    assert (data["westeros_cards"]["storm-of-swords"]["effect"] == storm) is chinese
    king = data["wildling_cards"]["a-king-beyond-the-wall"]
    assert (king["lowest"] == "将己方势力标记移到所有势力条的末位。") is chinese
    assert (king["name"] == "塞外之王") is chinese
    if not chinese:
        assert king["lowest"] == "Its markers drop to last place on every influence track."


@pytest.mark.django_db
def test_board_data_card_texts_follow_the_chosen_language(client):
    client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    data = client.get("/boards/agot2.json").json()
    assert data["westeros_cards"]["last-days-of-summer"]["effect"] == "无事发生。执行下一张维斯特洛卡牌。"
    assert data["wildling_cards"]["skinchanger-scout"]["highest"] == "收回本次野人袭击中出价的所有权力标记，作为现有权力。"

"""Static files and the boards' files go out gzipped (gotweb/compress.py), also when WhiteNoise
serves them from the source folders as ``make run`` does; pages never are (BREACH)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.parametrize("path", ["/static/js/board/screen.js", "/static/css/agot2.css"])
def test_static_files_are_gzipped(client, path):
    r = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert r.status_code == 200 and r["Content-Encoding"] == "gzip" and "Accept-Encoding" in r["Vary"]
    raw = (ROOT / "static" / path.removeprefix("/static/")).read_bytes()
    assert gzip.decompress(_body(r)) == raw
    assert len(_body(r)) < len(raw) / 2
    plain = client.get(path)  # a client that takes no gzip gets the file as it is
    assert "Content-Encoding" not in plain and _body(plain) == raw


def test_the_board_is_gzipped(client):
    r = client.get("/boards/agot2.svg?lang=en", HTTP_ACCEPT_ENCODING="gzip")
    assert r["Content-Encoding"] == "gzip" and gzip.decompress(_body(r)).startswith(b"<svg")


@pytest.mark.django_db
def test_pages_are_not(client):
    r = client.get("/help/", HTTP_ACCEPT_ENCODING="gzip")
    assert r.status_code == 200 and "Content-Encoding" not in r

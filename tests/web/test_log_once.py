"""The server log prints every line once: Django's own "django" logger and the root
logger used to print each django.* record (runserver's and daphne's request lines, request
errors) twice. Checked in a fresh process with the project's settings, as ``make run`` starts it
(DEBUG=1), and in production mode."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import logging, django
django.setup()
logging.getLogger("django.request").warning("marker-request")
logging.getLogger("django.channels.server").info("marker-http-line")
logging.getLogger("django.server").info("marker-runserver-line")
logging.getLogger("game.live").warning("marker-game")
"""


@pytest.mark.parametrize("debug", ["1", "0"])
def test_each_log_line_is_printed_once(debug, tmp_path):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "gotweb.settings", "DEBUG": debug, "SECRET_KEY": "x" * 50,
           "ALLOWED_HOSTS": "127.0.0.1", "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    env.pop("LOG_LEVEL", None)
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    text = out.stderr + out.stdout
    for marker in ("marker-request", "marker-http-line", "marker-runserver-line", "marker-game"):
        assert text.count(marker) == 1, (marker, text)

"""Signals of live play, for the parts of the site that follow games without live play knowing
them (live play imports nothing of ``game.site``).

``game_finished``: sent by :func:`game.live.apply._apply_locked` inside the transaction that
writes a game's last action (``sender=Game``, ``game=`` the locked row, already ``finished`` with
its ``result``). A receiver's writes commit or roll back with the finish; a receiver must not
raise (one that might wraps its work in a savepoint: :mod:`game.site.ratings` does).
"""

from django.dispatch import Signal

game_finished = Signal()

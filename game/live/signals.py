"""Signals of live play, for the parts of the site that follow games without live play knowing
them (live play imports nothing of ``game.site``).

``game_finished``: sent by :func:`game.live.apply._apply_locked` inside the transaction that
writes a game's last action (``sender=Game``, ``game=`` the locked row, already ``finished`` with
its ``result``). A receiver's writes commit or roll back with the finish; a receiver must not
raise (one that might wraps its work in a savepoint: :mod:`game.site.ratings` does).
"""

from django.dispatch import Signal

game_finished = Signal()

#: sent after a game's change has committed (outside any transaction, in the committing thread):
#: a new action (:func:`game.live.apply._committed`) or a new game (:func:`game.live.apply.create_game`);
#: ``sender=Game``, ``game=`` the row as written (``version``, ``status``, ``awaited_since``,
#: ``stand_ins``, ``decisions_since``, ``lobby_id``). A receiver must be quick (it runs on the
#: act's path: hand the work to a thread) and must not raise.
game_committed = Signal()

#: sent when this process keeps nothing more of a game in memory (its last socket here closed,
#: :func:`game.live.memory.let_go`): ``sender=Game``, ``game_id=``. Receivers drop what they
#: remember of that game; they run on the event loop, so they must be quick and must not raise.
game_forgotten = Signal()

"""A running game: the one apply path (lock, validate, append, commit, notify), the game socket,
the hub, snapshots, the log's sentences, stand-ins, bots' turns, chat and limits.

May import: ``game.rules`` and ``game.models`` (and Django/Channels); never ``site``, ``boards``
or ``devtools``.
"""

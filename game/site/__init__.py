"""The site's pages and lobbies: HTTP views, forms, lobby operations, the lobby sockets, URLs.

May import: ``game.live``, ``game.models``, ``game.options`` and ``game.rules``; never ``boards``
or ``devtools``.
"""

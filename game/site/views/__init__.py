"""The site's HTTP pages, by subject: :mod:`.lobbies` (the lists of lobbies and of games to
watch, one lobby's pages and actions), :mod:`.accounts` (log in, register, play as guest, keep a
guest account) and :mod:`.play` (the live game page). The URLs are ``game/site/urls.py``.

Pages that belong to another subject live with it: the archive, leaderboards and replays
(:mod:`game.site.archive`), "My games" (:mod:`game.site.my_games`), the mail settings
(:mod:`game.site.notifications`) and the Web Push subscription (:mod:`game.site.webpush`).
"""

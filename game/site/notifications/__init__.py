"""Telling players about their games away from the game page: mails, Web Push and the "My games"
badge hints.

**Mails** (:mod:`.mails`). "Your turn in <game>" when a game awaits a person's decision, they
have not acted for ``NOTIFY_MAIL_AFTER`` seconds (default 300; at once in a correspondence game,
:func:`game.live.deadlines.is_correspondence`) and they have no socket of the site open
(:func:`.mails.connected`: a page of the site open tells them itself; the check is made again
later); in a correspondence game, "your deadline in <game> is in 2 hours" once the decision's
deadline is ``NOTIFY_DEADLINE_WARNING`` seconds away (default 7200; only when a decision has more
time than that, sent whether or not a page is open: it is the last call before the stand-in bot
plays the seat, and an open tab is no proof of attention); "<game> has ended" when it ends;
and "<name> wants to play <game> again" when another player of a finished game opens its
rematch (:mod:`game.site.rematch`) and the person has not joined it (once per rematch; not while
a page of the site is open: looked at again later). At most one mail of each kind per game,
person and awaited decision: a :class:`~game.models.MailSent` row is written (unique on game,
user, kind and decision) before the mail goes, so two processes never both send it. A decision is identified by the version since
which the seat's pending decisions have been what they are (``Game.decisions_since``). No mail to
guests, bots, seats a stand-in bot plays, people without a confirmed address, or people who
switched that kind off (the preference page ``/accounts/notifications/``, or the signed
unsubscribe link of every mail, which needs no login: :mod:`.views`).

**Confirming an address** (:mod:`.confirm`). Anyone with an account may type any address, so a
new or changed one is mailed a signed link (valid three days) and nothing else until the link's
page is posted; the confirmed address is kept apart from the typed one
(``NotificationPrefs.confirmed_email``), so a change is unconfirmed by itself. Confirmation mails
count against ``THROTTLE_CONFIRM_MAIL`` per person and per address. The unsubscribe link drops
the confirmation too: its reader said stop.

**When** (:mod:`.due`, :mod:`.worker`). Nothing is sent inside an act's transaction or on its
path: after every commit, :data:`game.live.signals.game_committed` (:mod:`.receivers`) hands the
game to this process's mail worker (one daemon thread, :class:`.worker.Worker`), which sends what
is due (:func:`.due.check_game`) and keeps a timer for what will be due later.
``NOTIFY_IN_THREAD = False`` runs the same work in the committing thread after the commit
(tests); ``NOTIFY_MAILS = False`` sends no mail at all (the test session's default: its own tests
turn it on). :func:`.worker.sweep` checks every running game, for what a process that stopped had
still to send (its timers are in memory): each server process sweeps at start and every
``NOTIFY_SWEEP_EVERY`` seconds (default 600; :meth:`.worker.Worker.start_sweeps`), and ``python
manage.py notify_sweep`` does it by hand. A mail server that fails is logged; play goes on, and
that decision's mail is not retried.

**Web Push** (:mod:`.push`). A person with a browser subscribed (:mod:`game.site.webpush`) and no
page of the site open is pushed "your turn" as soon as a game awaits them, once per decision (a
:class:`~game.models.MailSent` row of kind ``"push"``, written before the push like a mail's),
and "Play again?" when a rematch they have not joined opens, once per rematch (kind
``"rematchp"``); guests too, since a push needs no address.

**Badge hints** (:mod:`.hints`). After every commit, each player whose count of awaiting games
may have changed is told (:func:`.hints.tell_players`, :func:`game.live.notify.user_games_changed`);
their lobby-list socket counts again.

The receivers are connected in :meth:`game.apps.GameConfig.ready`.
"""

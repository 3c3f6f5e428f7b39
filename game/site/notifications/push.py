"""Web Push "your turn" (once per decision) and "<name> wants to play <game> again" (once per
rematch), to the browsers a person subscribed (:mod:`game.site.webpush`), recorded like a mail
(a :class:`~game.models.MailSent` row of kind ``"push"`` or ``"rematchp"``, written before the
push, so two processes never both push it).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from game.models import Game, MailSent, PushSubscription
from game.rules.base import LANGS

from .. import webpush
from .mails import PUSH, REMATCH_PUSH


def push_owed(game: Game, user, decision: int, kind: str = PUSH) -> bool:
    """Whether ``user`` has a subscribed browser and was not pushed ``kind`` (``"push"``: "your
    turn"; ``"rematchp"``: a rematch) about this decision yet."""
    return (
        PushSubscription.objects.filter(user=user).exists()
        and not MailSent.objects.filter(game=game, user=user, kind=kind, decision=decision).exists()
    )


def push_once(game: Game, user, decision: int) -> bool:
    """Push "your turn" in ``game`` to ``user``'s browsers unless it was pushed for this decision;
    True when this call handed it to the push threads (:func:`game.site.webpush.submit`), which
    mark the record ``ok`` once a push service took it. Nothing for people without a
    subscription."""
    return _once(game, user, PUSH, decision, lambda lang: webpush.turn_payload(game, lang))


def push_rematch_once(game: Game, user, lobby_id: int, by: str) -> bool:
    """Push "``by`` wants to play ``game`` again" to ``user``'s browsers unless it was pushed for
    the rematch ``lobby_id``; as :func:`push_once`."""
    return _once(game, user, REMATCH_PUSH, lobby_id, lambda lang: webpush.rematch_payload(game, lang, by))


def _once(game: Game, user, kind: str, decision: int, payload) -> bool:
    if not PushSubscription.objects.filter(user=user).exists():
        return False
    try:
        with transaction.atomic():
            MailSent.objects.create(game=game, user=user, kind=kind, decision=decision)
    except IntegrityError:  # pushed already (here or by another process)
        return False
    payloads = {lang: payload(lang) for lang in LANGS}
    game_id, user_id = game.pk, user.pk

    def done(sent: int) -> None:
        if sent:
            MailSent.objects.filter(game_id=game_id, user_id=user_id, kind=kind, decision=decision).update(ok=True)

    webpush.submit(user_id, payloads, done)
    return True

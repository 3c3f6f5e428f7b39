"""Players' reports: about a chat line, a player (their page) or a game, with a reason; what a
moderator sees of one (:func:`context`).

:func:`file_report` checks what the reporter may see (a chat line they can read, a game they may
see), refuses a report about oneself, keeps one open report per reporter and subject (a second
one is the first), and counts each new report against two limits of the site's one throttle
(:class:`game.site.throttle.Throttle`): ``THROTTLE_REPORT_USER`` per reporter and
``THROTTLE_REPORT_IP`` per address, so a flood from one account or from many accounts of one
address stops at the limit. Refusals write nothing (:class:`ReportError`).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from game.live.access import may_see
from game.live.chat import can_read, chat_dict
from game.live.seats import seat_of
from game.models import ChatMessage, Game, Report, Seat, display_name

from . import addresses
from .throttle import Throttle

#: chat lines shown before and after a reported line
AROUND = 10


class ReportError(Exception):
    """A refused report: ``message`` (translated) for the form, ``throttle`` when a limit refused it
    (the answer is then a 429 with ``Retry-After``)."""

    def __init__(self, message, throttle: Throttle | None = None) -> None:
        super().__init__(str(message))
        self.message, self.throttle = message, throttle


def subject(reporter, session, *, line: ChatMessage | None = None, game: Game | None = None, reported=None) -> dict[str, Any]:
    """``{"line", "game", "reported"}`` the report is about, once the reporter may see it: a chat
    line makes its game and author the subject; a game alone may name one of its players. Raises
    :class:`ReportError` for what the reporter may not see, or a report about themselves."""
    if line is not None:
        game = Game.objects.defer("snapshot").select_related("lobby").get(pk=line.game_id)
        if not may_see(game.lobby, reporter, session) or not can_read(line.channel, seat_of(game, reporter)):
            raise ReportError(_("There is no such chat line."))
        reported = line.author
    elif game is not None:
        if not may_see(game.lobby, reporter, session):
            raise ReportError(_("There is no such game."))
        if reported is not None and not Seat.objects.filter(lobby_id=game.lobby_id, user_id=reported.pk, bot="").exists():
            raise ReportError(_("That player does not play in this game."))
    elif reported is None:
        raise ReportError(_("Say what you report."))
    if reported is not None and reported.pk == reporter.pk:
        raise ReportError(_("You cannot report yourself."))
    if reported is not None and getattr(getattr(reported, "profile", None), "is_bot", False):
        raise ReportError(_("Bots cannot be reported."))
    return {"line": line, "game": game, "reported": reported}


def file_report(reporter, address: str, about: dict[str, Any], reason: str, text: str = "") -> tuple[Report, bool]:
    """File ``reporter``'s report about ``about`` (:func:`subject`), from ``address``; returns
    ``(report, created)``: an open report of the same reporter and subject is returned as it is
    (nothing counted, nothing written). Raises :class:`ReportError` over a limit."""
    same = Report.objects.filter(
        reporter_id=reporter.pk, status=Report.Status.OPEN, reported=about["reported"], game=about["game"], line=about["line"]
    ).first()
    if same is not None:
        return same, False
    for throttle in (Throttle("THROTTLE_REPORT_USER", reporter.pk), Throttle("THROTTLE_REPORT_IP", address)):
        if throttle.limit is not None and (throttle.blocked() or throttle.hit() > throttle.limit[0]):
            raise ReportError(_("You have sent too many reports. Try again later."), throttle)
    with transaction.atomic():
        report = Report.objects.create(
            reporter_id=reporter.pk, reported=about["reported"], game=about["game"], line=about["line"],
            reason=reason, text=text.strip()[:500], address=address,
        )
    addresses.record(reporter, address)
    return report, True


def context(report: Report, *, with_addresses: bool) -> dict[str, Any]:
    """What a moderator sees of ``report``: the chat around its line (:data:`AROUND` lines of the
    same channel before and after), its game, the reported player's other reports and the
    moderation log about them, and with ``with_addresses`` the accounts sharing an address with
    the reporter and with the reported player (:func:`game.site.addresses.sharing`)."""
    out: dict[str, Any] = {"chat": [], "others": [], "history": []}
    line = report.line
    if line is not None:
        same = ChatMessage.objects.filter(game_id=line.game_id, channel=line.channel).select_related("author__profile")
        before = list(same.filter(pk__lt=line.pk).order_by("-pk")[:AROUND])[::-1]
        after = list(same.filter(pk__gt=line.pk).order_by("pk")[:AROUND])
        out["chat"] = [{**chat_dict(m), "reported": m.pk == line.pk} for m in [*before, line, *after]]
    if report.reported is not None:
        out["others"] = list(Report.objects.filter(reported=report.reported).exclude(pk=report.pk).select_related("reporter")[:20])
        out["history"] = list(report.reported.moderation.select_related("moderator")[:20])
        out["reported_name"] = display_name(report.reported)
    if with_addresses:
        out["reporter_addresses"] = addresses.sharing(report.reporter)
        out["reported_addresses"] = addresses.sharing(report.reported) if report.reported is not None else []
    return out

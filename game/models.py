"""Site records: players' profiles, lobbies and their seats.

A :class:`Lobby` gathers players for one game of a ruleset (``ruleset`` is a registry id, see
:func:`game.rules.get_ruleset`); each occupied place is a :class:`Seat`. When the lobby starts,
every seat holds a house (chosen, or drawn on the server) and ``status`` becomes ``started``.
The game record itself (seed, append-only action log, snapshot) belongs to live play:
it attaches to a started lobby with a one-to-one key, and seats are its actors (``Seat.house``).
"""

from __future__ import annotations

import functools
import json
import re
import secrets
import unicodedata

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from game.rules import DEFAULT_RULESET, get_ruleset
from game.rules.base import lang_key


def new_invite_token() -> str:
    """An unguessable URL-safe token (about 192 bits) for invite links."""
    return secrets.token_urlsafe(24)


def language_key() -> str:
    """The ruleset name key for the active language: ``"zh-hans"`` or ``"en"``."""
    return lang_key(get_language())


# --- players' names ----------------------------------------------------------------------------
#: code points that draw nothing but would make two names look alike yet differ (Unicode's
#: Default_Ignorable_Code_Point set, beyond the format characters: fillers, variation selectors)
_INVISIBLE = {0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0}
_INVISIBLE_RANGES = ((0x180B, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF), (0x1D173, 0x1D17A))
def _invisible(ch: str) -> bool:
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cn", "Cs")
        or cp in _INVISIBLE
        or any(lo <= cp <= hi for lo, hi in _INVISIBLE_RANGES)
    )


def clean_name(raw: str) -> str:
    r"""A name as it is stored and shown: invisible characters (control, format such as zero-width
    spaces and joiners, bidi controls, fillers, variation selectors) removed, every run of
    whitespace made one space, the ends stripped; letters, case and width are kept as typed.

    >>> clean_name("  Ali\u200bce \u3000 Liddell\n")
    'Alice Liddell'
    """
    kept = "".join(" " if ch.isspace() else ch for ch in str(raw) if ch.isspace() or not _invisible(ch))
    return " ".join(kept.split())


@functools.cache
def _prototypes() -> dict[str, str]:
    """``{character: the prototype it is drawn like}`` from Unicode's confusables table (Unicode
    TR39, ``confusables.txt``, as the ``confusable_homoglyphs`` package ships it). The package
    lists each character's look-alikes both ways; each set of look-alikes is one prototype and the
    characters mapped to it, so the prototype is the member that names the most look-alikes (a
    sequence such as ``rn``, the prototype of ``m``, when there is one); a pair of two single
    characters takes the lower one. Only which characters share a prototype matters here."""
    from importlib.resources import files

    table = json.loads(files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    bare = lambda text: text.replace("\u200e", "")  # the package marks right-to-left glyphs  # noqa: E731
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    named = {}
    for ch, glyphs in table.items():
        ch = bare(ch)
        named[ch] = len(glyphs)
        for glyph in glyphs:
            a, b = root(ch), root(bare(glyph["c"]))
            if a != b:
                parent[b] = a
    sets: dict[str, list[str]] = {}
    for x in {*parent, *named}:
        sets.setdefault(root(x), []).append(x)
    out = {}
    for members in sets.values():
        proto = min(members, key=lambda m: (len(m) == 1, -named.get(m, 0), m))
        out.update({m: proto for m in members if len(m) == 1 and m != proto})
    return out


def skeleton(text: str) -> str:
    """Unicode TR39's skeleton of ``text``: each character replaced by the prototype it is drawn
    like (:func:`_prototypes`), in normalisation form D. Two strings with one skeleton look alike
    (capital ``I``, ``l``, ``1`` and ``ǀ``; Cyrillic ``а`` and Latin ``a``; ``m`` and ``rn``).
    Only for comparing, never for showing."""
    table = _prototypes()
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in nfd))


@functools.cache
def _case_folds() -> dict[str, str]:
    """The Latin letters whose capital looks like another letter than their small form does: a
    name compared without case must not tell those apart either. From the table, that is ``i``,
    whose capital ``I`` is drawn like ``l``: ``{"i": "l"}``."""
    out = {}
    for capital in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        small, drawn = skeleton(capital.casefold()), skeleton(skeleton(capital).casefold())
        if small != drawn:
            out[small] = drawn
    return out


def name_key(raw: str) -> str:
    r"""The comparison key of a player's name: two names with one key would pass for each other.

    :func:`clean_name` (no invisible characters, one space between words), Unicode NFKC
    (full-width ``Ａ`` is ``A``, ``ﬁ`` is ``fi``), case folding, NFKC again, the :func:`skeleton`
    (Cyrillic ``а`` is ``a``, ``ǀ`` and ``1`` are ``l``, ``m`` is ``rn``; folded and taken again,
    as a prototype may be a capital: ``0`` is ``O``), and the letters whose
    capital is drawn like another letter folded with it (:func:`_case_folds`: ``LiIy`` is
    ``Lily``, so ``i`` and ``l`` are one letter here), in normalisation form C. Names in every
    script are compared so: a Chinese name differs from another unless they look the same.

    >>> name_key("ＡＬＩＣＥ") == name_key("al\u200dice") == name_key("\u0410lice") == name_key("Alice")
    True
    >>> name_key("LiIy") == name_key("Li\u01c0y") == name_key("Lily") == name_key("L1ly")
    True
    """
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", clean_name(raw)).casefold())
    text = skeleton(skeleton(text).casefold())  # a prototype may be a capital (``0`` is ``O``)
    folds = _case_folds()
    return clean_name(unicodedata.normalize("NFC", "".join(folds.get(ch, ch) for ch in text)))


class Profile(models.Model):
    """What the site adds to a Django user: the guest flag and a display name.

    A guest is a real ``User`` row created from a display name alone (its password is unusable);
    claiming the account sets a username and password and clears ``is_guest``. A bot seated by a
    lobby's creator has a profile too (``is_bot``; its name, "Bot 1 (basic)", need not be unique).

    ``name_key`` is :func:`name_key` of the name shown for the user (``display_name``, else the
    username), unique in the database: no two people are shown alike, whatever their case, width
    or invisible characters. ``username_key`` is the key of a registered user's username, so a new
    name may not pass for someone's login name either (:func:`name_taken`). Both are computed on
    :meth:`save`.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    is_guest = models.BooleanField(_("guest"), default=False)
    is_bot = models.BooleanField(_("bot"), default=False)
    display_name = models.CharField(_("display name"), max_length=30, blank=True)
    name_key = models.TextField(null=True, blank=True, unique=True, editable=False)
    username_key = models.TextField(null=True, blank=True, db_index=True, editable=False)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()

    def compute_keys(self) -> None:
        """Set ``name_key`` and ``username_key`` from the names (None for a bot; ``username_key``
        None for a guest, whose username is internal)."""
        shown = self.display_name or self.user.get_username()
        self.name_key = None if self.is_bot else (name_key(shown) or None)
        registered = not (self.is_bot or self.is_guest)
        self.username_key = (name_key(self.user.get_username()) or None) if registered else None

    def clean(self) -> None:
        """Refuses a display name that passes for another user's (the admin's form calls it)."""
        if not self.is_bot and name_taken(self.display_name or self.user.get_username(), exclude_user=self.user):
            raise ValidationError({"display_name": NAME_TAKEN})

    def save(self, *args, **kwargs) -> None:
        self.compute_keys()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "name_key", "username_key"}
        super().save(*args, **kwargs)


NAME_TAKEN = _("This name is already taken, or looks too much like one that is. Choose another.")


def name_taken(name: str, *, exclude_user=None) -> bool:
    """Whether ``name`` would pass for the shown name or the username of another user than
    ``exclude_user``: same :func:`name_key` as a profile's shown name or a registered username,
    or (users without a profile, such as ones made by ``createsuperuser``) the same username up
    to case. An empty key (a name of only invisible characters) counts as taken."""
    from django.contrib.auth import get_user_model

    key = name_key(name)
    if not key:
        return True
    profiles = Profile.objects.filter(Q(name_key=key) | Q(username_key=key))
    users = get_user_model().objects.filter(profile__isnull=True, username__iexact=clean_name(name))
    if exclude_user is not None and exclude_user.pk is not None:
        profiles = profiles.exclude(user_id=exclude_user.pk)
        users = users.exclude(pk=exclude_user.pk)
    return profiles.exists() or users.exists()


#: a bot's stored name, "Bot 1 (basic)": shown in the page's language by :func:`display_name`
_BOT_NAME = re.compile(r"Bot (\d+) \((basic|random|strong)\)")
BOT_LEVEL_NAMES = {"basic": _("basic"), "random": _("random"), "strong": _("strong")}


def display_name(user) -> str:
    """The name shown for ``user``: a guest's chosen name, else the username. A bot's stored name
    ("Bot 1 (basic)") is told in the active language ("机器人 1（基础）")."""
    profile = getattr(user, "profile", None) if user is not None else None
    if profile is not None and profile.display_name:
        bot = _BOT_NAME.fullmatch(profile.display_name) if profile.is_bot else None
        if bot is not None:
            return str(_("Bot %(n)s (%(level)s)") % {"n": bot[1], "level": BOT_LEVEL_NAMES[bot[2]]})
        return profile.display_name
    return user.get_username() if user is not None else ""


def is_guest(user) -> bool:
    """Whether ``user`` is a guest (a person without a password; bots are not guests)."""
    profile = getattr(user, "profile", None)
    return bool(profile and profile.is_guest and not profile.is_bot)


class Lobby(models.Model):
    """A game being gathered: ruleset, player count, options, privacy and status.

    ``version`` grows by one on every change of the lobby or its seats; pushes to browsers carry
    it, so a client can tell a fresh state from a stale one.
    """

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        STARTED = "started", _("In progress")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    name = models.CharField(_("name"), max_length=60)
    ruleset = models.CharField(_("game"), max_length=20, default=DEFAULT_RULESET)
    players = models.PositiveSmallIntegerField(_("players"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="created_lobbies", verbose_name=_("creator")
    )
    is_private = models.BooleanField(_("private"), default=False)
    password = models.CharField(_("password (hashed)"), max_length=128, blank=True)
    invite_token = models.CharField(max_length=64, unique=True, default=new_invite_token, editable=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    #: the time control chosen at creation (:func:`game.live.clocks.parse`): ``{"kind": "none"}``,
    #: a live clock or correspondence deadlines; the game copies it when it starts
    time_control = models.JSONField(_("time control"), default=dict, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    #: the finished game this lobby plays again with the same table (:mod:`game.site.rematch`);
    #: a game has at most one
    rematch_of = models.OneToOneField(
        "Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch", verbose_name=_("rematch of")
    )

    class Meta:
        verbose_name = _("lobby")
        verbose_name_plural = _("lobbies")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("lobby_detail", args=[self.pk])

    @property
    def play_url(self) -> str:
        """The live game's page once the lobby has started, else the lobby's page."""
        game_id = Game.objects.filter(lobby_id=self.pk).values_list("pk", flat=True).first()
        return reverse("game_play", args=[game_id]) if game_id else self.get_absolute_url()

    # --- ruleset facts --------------------------------------------------------------------
    @property
    def rules(self):
        return get_ruleset(self.ruleset)

    @property
    def ruleset_name(self) -> str:
        return self.rules.names[language_key()]

    def houses(self) -> list[str]:
        """The seat ids (houses) in play at this player count, in display order."""
        return self.rules.seats(self.players, self.options)

    def option_labels(self) -> list[str]:
        """Labels of the boolean options switched on (e.g. "Tides of Battle"), for display."""
        from .options import option_label

        return [str(option_label(self.ruleset, k)) for k, v in sorted(self.options.items()) if v is True]

    @property
    def time_control_label(self) -> str:
        """The time control in words ("Live clock: 10 minutes + 5 seconds per decision"), empty
        for none."""
        from .options import time_control_label

        return time_control_label(self.time_control)

    def house_name(self, house: str) -> str:
        return self.rules.seat_names()[house][language_key()]

    # --- password ------------------------------------------------------------------------
    def set_password(self, raw: str) -> None:
        self.password = make_password(raw) if raw else ""

    def check_password(self, raw: str) -> bool:
        return bool(self.password) and check_password(raw, self.password)

    @property
    def has_password(self) -> bool:
        return bool(self.password)

    @property
    def is_listed(self) -> bool:
        """Shown in the public lists: public lobbies, and private ones that have a password."""
        return not self.is_private or self.has_password

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class Seat(models.Model):
    """One player's place in a lobby.

    ``house`` is the house the player chose, or empty for "random" until the lobby starts, when
    the server draws the remaining houses; ``random_house`` remembers that it was drawn.
    """

    lobby = models.ForeignKey(Lobby, on_delete=models.CASCADE, related_name="seats", verbose_name=_("lobby"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats", verbose_name=_("player")
    )
    house = models.CharField(_("house"), max_length=20, blank=True)
    random_house = models.BooleanField(_("random house"), default=False)
    #: empty for a person; a bot level (``"basic"``, ``"random"``) for a bot seated by the creator
    bot = models.CharField(_("bot"), max_length=10, blank=True, default="")
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["lobby", "user"], name="seat_one_per_user"),
            models.UniqueConstraint(
                fields=["lobby", "house"], condition=~Q(house=""), name="seat_one_per_house"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.lobby}: {display_name(self.user)} ({self.house or '?'})"


# --- live play ----------------------------------------------------------------------
#: the bot levels a lobby may seat (each ruleset offers those it has: ``game.rules.base.bot_levels``)
BOT_LEVELS = ("basic", "strong", "random")


class Game(models.Model):
    """The live game of a started lobby: ``(ruleset, options, seed)`` plus its :class:`Action` log.

    ``version`` is the number of entries of its log (0 at the start): accepted actions and the site's
    notes (:mod:`game.live.notes`); every push to a browser carries
    it. ``snapshot`` caches the pickled state at ``snapshot_version`` for ``snapshot_key`` (the
    engine's code fingerprint, :func:`game.live.snapshots.code_key`): a snapshot made by other engine
    code is ignored and the state is replayed from the log, which is the truth.
    """

    class Status(models.TextChoices):
        RUNNING = "running", _("In progress")
        FINISHED = "finished", _("Finished")

    lobby = models.OneToOneField(Lobby, on_delete=models.CASCADE, related_name="game", verbose_name=_("lobby"))
    ruleset = models.CharField(_("game"), max_length=20)
    players = models.PositiveSmallIntegerField(_("players"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"))
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.RUNNING)
    result = models.JSONField(_("result"), null=True, blank=True)
    snapshot = models.BinaryField(null=True, blank=True, editable=False)
    snapshot_version = models.IntegerField(default=-1, editable=False)
    snapshot_key = models.CharField(max_length=64, blank=True, editable=False)
    #: ``{seat: bot level}``: people's seats a stand-in bot plays for now (the seat keeps its user;
    #: :func:`game.live.stand_ins.hand_to_bot` / :func:`game.live.stand_ins.take_back`)
    stand_ins = models.JSONField(_("stand-in bots"), default=dict, blank=True)
    #: ``{seat: unix time}``: since when each awaited seat has been awaited without acting
    awaited_since = models.JSONField(default=dict, blank=True, editable=False)
    #: ``{seat: version}``: since which version each seat's pending decisions have been what they
    #: are now (a seat not listed: since version 0); an action whose ``version`` is older than its
    #: seat's entry answers a changed decision (:func:`game.live.apply._check_version`). NULL for a
    #: game started before this was kept, until its next action.
    decisions_since = models.JSONField(default=dict, null=True, blank=True, editable=False)
    #: the lobby's time control (:func:`game.live.clocks.parse`); ``{}`` or ``{"kind": "none"}``: no clocks
    time_control = models.JSONField(_("time control"), default=dict, blank=True)
    #: ``{seat: clock}`` of the people's seats (:mod:`game.live.clocks`: seconds left at the time
    #: the clock started, time-outs, vacation); ``{}`` for a game without time control
    clocks = models.JSONField(default=dict, blank=True, editable=False)
    #: the next moment the scheduler must look at this game without anyone acting (a clock runs
    #: out, a vacation ends, a stand-in bot is overdue); NULL: nothing due (:mod:`game.live.scheduler`)
    deadline = models.DateTimeField(_("next deadline"), null=True, blank=True, db_index=True, editable=False)
    #: the table's open vote, pause and replaced seats (:mod:`game.live.table`); ``{}``: none yet
    table = models.JSONField(default=dict, blank=True, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    #: when the last action ended the game (NULL while it runs); the archive's and player pages'
    #: finish time and duration (``updated_at`` moves on later writes, e.g. an admin's edit)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True, db_index=True, editable=False)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"{self.lobby.name} (#{self.pk})"

    def get_absolute_url(self) -> str:
        return reverse("game_play", args=[self.pk])

    @property
    def rules(self):
        return get_ruleset(self.ruleset)


class Action(models.Model):
    """One entry of a game's log, append-only: ``number`` (1, 2, ...) is the game version it
    produced. ``actor`` is the seat that acted and ``action`` its JSON action (``user``: the person,
    None for a bot or a stand-in); or ``actor`` is empty (:data:`game.rules.base.SITE`) for a note
    of the site, such as a time-out or a stand-in taking a seat (``action``: the note, see
    :mod:`game.live.notes`; ``user``: whose request made it, None for the scheduler)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    actor = models.CharField(max_length=20)
    action = models.JSONField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="action_number_once")]

    def save(self, *args, **kwargs):
        if self.pk is not None and not self._state.adding:
            raise ValueError("actions are append-only")
        super().save(*args, **kwargs)

    def __str__(self) -> str:
        return f"#{self.number} {self.actor}: {self.action.get('type', '?')}"


class ChatMessage(models.Model):
    """A chat line. ``channel``: ``"public"``, ``"spectators"`` or ``"private:<seat>:<seat>"``
    (the two seats sorted); ``seat`` is the author's seat, empty for a spectator."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    channel = models.CharField(max_length=50)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    seat = models.CharField(max_length=20, blank=True)
    text = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["game", "channel", "created_at"])]


# --- after the game: ratings ---------------------------------------------------------------
class Rating(models.Model):
    """A person's rating in one ruleset (:mod:`game.site.ratings`).

    ``mu``/``sigma``: the rating system's own numbers (openskill's skill mean and uncertainty for
    games of 3+ players; Glicko-2's rating and rating deviation for two-player games), ``vol`` the
    Glicko-2 volatility (unused by openskill). ``score`` is the number shown and ranked by (both
    systems start at 1500): openskill's conservative ordinal ``1500 + 24 (mu - 3 sigma)``, or the
    Glicko-2 rating.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    ruleset = models.CharField(_("game"), max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    vol = models.FloatField(default=0.06)
    score = models.FloatField(_("rating"), db_index=True)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    wins = models.PositiveIntegerField(_("wins"), default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "ruleset"], name="rating_one_per_ruleset")]
        indexes = [models.Index(fields=["ruleset", "-score"])]


class GameRating(models.Model):
    """Whether a finished game was rated (one row per finished game, written with the finish):
    ``rated`` False with ``reason`` (``"bots"``, ``"stand_in"``, ``"same_person"``, ``"error"``)
    for an unrated one; ``changes`` ``{seat: {"user": id, "before": score, "after": score}}``."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rating")
    rated = models.BooleanField(default=False)
    reason = models.CharField(max_length=20, blank=True)
    changes = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)


from .community import ChatBlock, ModerationAction, Mute, Report, UserAddress  # noqa: E402,F401 (the community's models, in their own module)
from .notices import MailSent, NotificationPrefs, PushSubscription  # noqa: E402,F401 (telling players away, in their own module)

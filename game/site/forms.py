"""Forms: accounts (register, guest, claim), lobbies (create, join), reports and moderation.

Forms check the shape of the input; the rules about lobbies live in :mod:`game.site.lobbies`, whose
errors views attach to the field they concern.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from game.rules import DEFAULT_RULESET, get_ruleset

from .lobbies import RANDOM, free_houses
from .throttle import Throttle
from game.models import NAME_TAKEN, Lobby, ModerationAction, Profile, Report, clean_name, language_key, name_taken
from game.options import (
    MAX_TIMEOUTS_DEFAULT,
    VACATION_DAYS_DEFAULT,
    option_help,
    option_label,
    seat_words,
    time_control_choices,
    time_control_of,
)

User = get_user_model()


def wait_message(text, throttle: Throttle) -> str:
    """``text`` and "Try again in N minutes." (the throttle's window), in the active language."""
    n = throttle.minutes
    return f"{text} " + ngettext("Try again in %(n)d minute.", "Try again in %(n)d minutes.", n) % {"n": n}


class LoginForm(AuthenticationForm):
    """Django's login form, counting failures: ``throttles`` (:class:`game.site.throttle.Throttle`,
    per client IP and per username) are checked before the password (over a limit: the error
    code ``"throttled"``, and no password is hashed); each wrong password counts in all of them;
    a successful login forgives the username's failures (``throttles[1:]``), not the address's."""

    def __init__(self, request=None, *args, throttles=(), **kwargs) -> None:
        super().__init__(request, *args, **kwargs)
        self.throttles = list(throttles)

    def clean(self):
        blocked = next((t for t in self.throttles if t.blocked()), None)
        if blocked is not None:
            raise ValidationError(wait_message(_("Too many failed logins."), blocked), code="throttled")
        try:
            data = super().clean()
        except ValidationError as e:
            if any(getattr(err, "code", None) == "invalid_login" for err in e.error_list):
                for t in self.throttles:
                    t.hit()
            raise
        for t in self.throttles[1:]:
            t.reset()
        return data


def _unique_username(form: UserCreationForm, username: str | None) -> str | None:
    """``username`` unless it passes for anyone else's name (the form's own user excepted);
    None when Django's own check already refused it."""
    if username and name_taken(username, exclude_user=form.instance):
        raise ValidationError(NAME_TAKEN, code="name_taken")
    return username


class RegisterForm(UserCreationForm):
    """A new account: Django's username and password checks, a username of at most 30 characters
    (it is the account's display name) that no one else's name looks like."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        limit = Profile._meta.get_field("display_name").max_length
        self.fields["username"].max_length = limit
        self.fields["username"].widget.attrs["maxlength"] = str(limit)
        self.fields["username"].validators.append(MaxLengthValidator(limit))

    def clean_username(self):
        return _unique_username(self, super().clean_username())


class GuestForm(forms.Form):
    display_name = forms.CharField(
        label=_("Display name"),
        min_length=2,
        max_length=30,
        help_text=_("How other players will see you."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "autofocus": True}),
    )

    def clean_display_name(self) -> str:
        """The name without invisible characters and with single spaces
        (:func:`game.models.clean_name`), at least 2 characters, and not passing for anyone
        else's (:func:`game.models.name_taken`)."""
        name = clean_name(self.cleaned_data["display_name"])
        if len(name) < 2:
            raise ValidationError(_("Choose a name of at least 2 visible characters."), code="too_short")
        if name_taken(name):
            raise ValidationError(NAME_TAKEN, code="name_taken")
        return name


class ClaimForm(UserCreationForm):
    """Turns the current guest into a regular account: a username and a password. The username
    may be the guest's own name in another case, but not pass for anyone else's."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

    def clean_username(self):
        return _unique_username(self, super().clean_username())


def _house_choices(ruleset_id: str, houses: list[str]) -> list[tuple[str, str]]:
    names = get_ruleset(ruleset_id).seat_names()
    key = language_key()
    random_label = seat_words(ruleset_id)["random"]
    return [(RANDOM, random_label)] + [(h, names[h][key]) for h in houses]


class LobbyCreateForm(forms.Form):
    """Name, player count, the creator's house, the ruleset's options (one checkbox per boolean
    option in ``Ruleset.default_options``) and privacy. ``option_fields`` lists the option keys."""

    # left empty, the game is named after its creator (``default_name``, filled in already)
    name = forms.CharField(label=_("Name"), max_length=60, required=False, widget=forms.TextInput(attrs={"autofocus": True}))
    players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    house = forms.ChoiceField(label=_("Your house"), required=False)
    is_private = forms.BooleanField(
        label=_("Private"),
        required=False,
        help_text=_("Not joinable by everyone: players need the password or the invite link."),
    )
    password = forms.CharField(
        label=_("Password"),
        required=False,
        max_length=128,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("Optional. Without a password, only people with the invite link can join."),
    )

    time_control = forms.ChoiceField(
        label=_("Time control"),
        required=False,
        # a list, not a select: every choice readable whole, also on a phone
        widget=forms.RadioSelect(attrs={"class": "radio-list"}),
        help_text=_("When a player's time runs out, a stand-in bot plays for them, so the game never stalls."),
    )
    max_timeouts = forms.IntegerField(
        label=_("Time-outs before the stand-in keeps the seat"),
        min_value=1,
        max_value=10,
        required=False,
        initial=MAX_TIMEOUTS_DEFAULT,
        help_text=_("Until then the stand-in makes one move and gives the seat back; the player can always take it back."),
    )
    vacation_days = forms.IntegerField(
        label=_("Vacation days per player"),
        min_value=0,
        max_value=30,
        required=False,
        initial=VACATION_DAYS_DEFAULT,
        help_text=_("Correspondence games only: days a player may pause their deadlines."),
    )

    field_order = ["name", "players", "house"]

    def __init__(self, *args, ruleset_id: str = DEFAULT_RULESET, default_name: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset_id = ruleset_id
        self.default_name = default_name[:60]
        self.fields["name"].initial = self.default_name
        rules = get_ruleset(ruleset_id)
        self.fields["players"].choices = [(n, str(n)) for n in range(rules.min_players, rules.max_players + 1)]
        self.fields["players"].initial = rules.min_players
        #: the player count when the ruleset allows only one (the form then shows it as text)
        self.fixed_players = rules.min_players if rules.min_players == rules.max_players else None
        if self.fixed_players:
            self.fields["players"].widget = forms.HiddenInput()
        self.fields["house"].label = seat_words(ruleset_id)["field"]
        # every house may be sent (``clean`` says which are not in play with the chosen count);
        # the select offers only the houses of the chosen player count, and carries them for
        # each count (``data-seats``) so the page's script updates it when the count changes
        self.fields["house"].choices = _house_choices(ruleset_id, rules.seats(rules.max_players, {}))
        counts = range(rules.min_players, rules.max_players + 1)
        chosen = self._players_now(rules)
        self.fields["house"].widget.choices = _house_choices(ruleset_id, rules.seats(chosen, {}))
        self.fields["house"].widget.attrs["data-seats"] = json.dumps(
            {str(n): [[h, str(label)] for h, label in _house_choices(ruleset_id, rules.seats(n, {}))] for n in counts},
            ensure_ascii=False,
        )
        self.fields["time_control"].choices = time_control_choices(ruleset_id)
        self.fields["time_control"].initial = self.fields["time_control"].choices[0][0]
        self.option_fields = []
        for key, default in rules.default_options.items():
            if isinstance(default, bool):
                self.fields[key] = forms.BooleanField(
                    label=option_label(ruleset_id, key), help_text=option_help(ruleset_id, key), required=False, initial=default
                )
                self.option_fields.append(key)

    def _players_now(self, rules) -> int:
        """The player count the form shows: the submitted one when it is valid, else the initial."""
        raw = self.data.get("players") if self.is_bound else None
        try:
            n = int(raw)
        except (TypeError, ValueError):
            return rules.min_players
        return n if rules.min_players <= n <= rules.max_players else rules.min_players

    def options(self) -> dict:
        """The chosen options, for :func:`game.site.lobbies.create_lobby`."""
        return {key: self.cleaned_data[key] for key in self.option_fields}

    def option_boxes(self):
        return [self[key] for key in self.option_fields]

    def clean_name(self) -> str:
        name = (self.cleaned_data.get("name") or "").strip() or self.default_name
        if not name:
            raise ValidationError(_("Give the game a name."), code="required")
        return name

    def time_control_value(self) -> dict:
        """The chosen time control, for :func:`game.site.lobbies.create_lobby` (a field left out:
        the ruleset's default preset, 3 time-outs, 7 vacation days)."""
        d = self.cleaned_data
        preset = d.get("time_control") or self.fields["time_control"].choices[0][0]
        n = d.get("max_timeouts") or MAX_TIMEOUTS_DEFAULT
        days = VACATION_DAYS_DEFAULT if d.get("vacation_days") is None else d["vacation_days"]
        return time_control_of(preset, n, days)

    def clean(self):
        data = super().clean()
        players, house = data.get("players"), data.get("house")
        if players and house and house not in get_ruleset(self.ruleset_id).seats(players, {}):
            self.add_error("house", _("That house is not in play with %(n)d players.") % {"n": players})
        if data.get("password") and not data.get("is_private"):
            self.add_error("password", _("Only a private lobby has a password. Tick “Private” or leave this empty."))
        return data


class JoinForm(forms.Form):
    # A free text field drawn as a select of the free houses: whether a house is in play and free
    # is decided by game.site.lobbies.join_lobby under the lobby's lock, with a clear message.
    house = forms.CharField(label=_("House"), required=False, max_length=20, widget=forms.Select)
    password = forms.CharField(
        label=_("Password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, lobby: Lobby, *args, needs_password: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lobby = lobby
        self.fields["house"].widget.choices = _house_choices(lobby.ruleset, free_houses(lobby))
        self.fields["house"].label = seat_words(lobby.ruleset)["field"]
        if not needs_password:
            del self.fields["password"]
        else:
            self.fields["password"].required = True


# --- reports and moderation ----------------------------------------------------------------------
class ReportForm(forms.Form):
    """A report's reason and details (what it is about comes from the URL, checked by
    :func:`game.site.reports.subject`); ``player``: for a game, the one it is about, if any."""

    player = forms.TypedChoiceField(label=_("About"), required=False, coerce=int, empty_value=None)
    reason = forms.ChoiceField(label=_("Reason"), choices=Report.Reason.choices)
    text = forms.CharField(
        label=_("What happened?"), required=False, max_length=500, widget=forms.Textarea(attrs={"rows": 4, "maxlength": 500}),
        help_text=_("A moderator reads this with the chat and the game around it."),
    )

    def __init__(self, *args, players=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if players:
            self.fields["player"].choices = [("", _("The game as a whole")), *players]
        else:
            del self.fields["player"]


class ModerationForm(forms.Form):
    """A moderator's action: its kind, its reason (kept in the moderation log) and, to mute, how
    long."""

    kind = forms.ChoiceField(choices=ModerationAction.Kind.choices)
    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.TextInput(attrs={"maxlength": 500}))
    minutes = forms.IntegerField(label=_("Minutes"), required=False, min_value=1, max_value=30 * 24 * 60)

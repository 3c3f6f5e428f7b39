"""Django admin for moderation: users' profiles, lobbies and their seats.

A moderator may give a started game's seat to someone else (the lobby's seat inline): after the
commit the game's sockets are told (:func:`game.live.notify.viewers_changed`), and each checks its
viewer again, so the old player's open sockets lose that seat's view at once; their acts are
refused from then on, in every process (the optimistic write checks the seat row itself).
"""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .live import notify
from .models import Game, Lobby, Profile, Seat
from .site import lobbies


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Lobby)
class LobbyAdmin(admin.ModelAdmin):
    list_display = ["name", "ruleset", "players", "status", "is_private", "creator", "created_at"]
    list_filter = ["status", "ruleset", "is_private"]
    search_fields = ["name", "creator__username"]
    raw_id_fields = ["creator"]
    exclude = ["password", "invite_token"]  # secrets stay out of the moderation pages
    readonly_fields = ["version", "created_at", "started_at"]
    inlines = [SeatInline]
    actions = ["cancel_open_lobbies"]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if change and (form.has_changed() or any(formset.has_changed() for formset in formsets)):
            lobby = form.instance
            notify.lobby_changed(lobby.pk, lobby.version)  # lobby sockets check who may watch
            game_id = Game.objects.filter(lobby_id=lobby.pk).values_list("pk", flat=True).first()
            if game_id is not None:
                notify.viewers_changed(game_id)

    @admin.action(description=_("Cancel the selected lobbies that have not started"))
    def cancel_open_lobbies(self, request, queryset):
        done = 0
        for lobby in queryset.filter(status=Lobby.Status.OPEN):
            lobbies.cancel_lobby(lobby.pk, request.user, moderator=True)
            done += 1
        self.message_user(
            request, ngettext("%d lobby cancelled.", "%d lobbies cancelled.", done) % done, messages.SUCCESS
        )


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "is_guest", "is_bot"]
    list_filter = ["is_guest", "is_bot"]
    search_fields = ["user__username", "display_name"]
    raw_id_fields = ["user"]

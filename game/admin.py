"""Django admin for moderation: users' profiles, lobbies and their seats."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import Lobby, Profile, Seat
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

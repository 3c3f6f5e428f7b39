"""Django admin for moderation: users' profiles, lobbies and their seats."""

from django.contrib import admin

from .models import Lobby, Profile, Seat


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


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "is_guest"]
    list_filter = ["is_guest"]
    search_fields = ["user__username", "display_name"]
    raw_id_fields = ["user"]

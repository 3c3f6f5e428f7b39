"""HTTP URL patterns of the game app (lobbies, games, accounts, reports and moderation)."""

from django.contrib.auth import views as auth_views
from django.urls import path, register_converter
from django.urls.converters import StringConverter

from . import archive, my_games, warnings, webpush
from .notifications import views as notification_views
from .views import accounts, help, lobbies, moderation, play, reports


class TextConverter(StringConverter):
    """A path segment that is text a database may store: no ``/`` and no NUL character (a
    ``%00`` in a name or token would reach PostgreSQL, which refuses it with a server error;
    such a URL names nothing: 404)."""

    regex = "[^/\x00]+"


register_converter(TextConverter, "text")

urlpatterns = [
    path("", lobbies.lobby_list, name="lobby_list"),
    path("spectate/", lobbies.spectate_list, name="spectate_list"),
    path("help/", help.how_to_play, name="help"),
    path("lobby/new/", lobbies.lobby_create, name="lobby_create"),
    path("lobby/<int:pk>/", lobbies.lobby_detail, name="lobby_detail"),
    path("lobby/<int:pk>/live/", lobbies.lobby_live, name="lobby_live"),
    path("lobby/<int:pk>/join/", lobbies.lobby_join, name="lobby_join"),
    path("lobby/<int:pk>/leave/", lobbies.lobby_leave, name="lobby_leave"),
    path("lobby/<int:pk>/kick/<int:seat_id>/", lobbies.lobby_kick, name="lobby_kick"),
    path("lobby/<int:pk>/start/", lobbies.lobby_start, name="lobby_start"),
    path("lobby/<int:pk>/cancel/", lobbies.lobby_cancel, name="lobby_cancel"),
    path("lobby/<int:pk>/bot/", lobbies.lobby_add_bot, name="lobby_add_bot"),
    path("play/bots/", lobbies.play_bots, name="play_bots"),
    path("game/<int:pk>/", play.game_play, name="game_play"),
    path("game/<int:pk>/take/<text:seat>/", play.take_seat, name="take_seat"),
    path("game/<int:pk>/rematch/", play.game_rematch, name="game_rematch"),
    path("game/<int:pk>/replay/index.json", archive.replay_index, name="replay_index"),
    path("game/<int:pk>/replay/<int:version>.json", archive.replay_step, name="replay_step"),
    path("game/<int:pk>/export.json", archive.game_export, name="game_export"),
    path("archive/", archive.archive, name="archive"),
    path("leaderboard/", archive.leaderboard, name="leaderboard"),
    path("leaderboard/<text:ruleset>/", archive.leaderboard, name="leaderboard_ruleset"),
    path("u/<text:name>/", archive.player, name="player"),
    path("invite/<text:token>/", lobbies.lobby_invite, name="lobby_invite"),
    path("accounts/login/", accounts.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/register/", accounts.register, name="register"),
    path("accounts/guest/", accounts.guest, name="guest"),
    path("accounts/claim/", accounts.claim, name="claim"),
    path("accounts/notifications/", notification_views.preferences, name="notifications"),
    path("accounts/notifications/confirm/", notification_views.send_confirmation, name="notifications_confirm_send"),
    path("accounts/notifications/confirm/<text:token>/", notification_views.confirm_address, name="notifications_confirm"),
    path("accounts/notifications/unsubscribe/<text:token>/", notification_views.unsubscribe, name="notifications_unsubscribe"),
    path("my/games/", my_games.my_games, name="my_games"),
    path("report/", reports.report, name="report"),
    path("accounts/warnings/seen/", warnings.acknowledge, name="warnings_seen"),
    path("moderation/", moderation.queue, name="moderation"),
    path("moderation/report/<int:pk>/", moderation.report_detail, name="moderation_report"),
    path("moderation/user/<text:name>/", moderation.user_detail, name="moderation_user"),
    path("moderation/act/", moderation.act, name="moderation_act"),
    path("moderation/log/", moderation.log, name="moderation_log"),
    path("push/subscribe/", webpush.subscribe, name="push_subscribe"),
    path("push/unsubscribe/", webpush.unsubscribe, name="push_unsubscribe"),
    path("sw.js", webpush.service_worker, name="service_worker"),
]

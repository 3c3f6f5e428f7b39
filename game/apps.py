from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameConfig(AppConfig):
    name = "game"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from .live.signals import game_committed, game_finished
        from .site import notifications, ratings

        game_finished.connect(ratings.on_game_finished, dispatch_uid="gotweb-ratings")
        game_committed.connect(notifications.on_game_committed, dispatch_uid="gotweb-notifications")

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameConfig(AppConfig):
    name = "game"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from .live import scheduler
        from .live.signals import game_finished
        from .site import ratings

        game_finished.connect(ratings.on_game_finished, dispatch_uid="gotweb-ratings")
        if scheduler.wanted():  # deadlines fire in the server process (GAME_SCHEDULER)
            scheduler.start()

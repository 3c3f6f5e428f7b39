from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GameConfig(AppConfig):
    name = "game"
    verbose_name = _("Games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from .live import bots, scheduler
        from .live.signals import game_committed, game_finished, game_forgotten
        from .site import ratings
        from .site.notifications import receivers, worker

        game_finished.connect(ratings.on_game_finished, dispatch_uid="gotweb-ratings")
        game_committed.connect(bots.on_game_committed, dispatch_uid="gotweb-bots")
        game_committed.connect(receivers.on_game_committed, dispatch_uid="gotweb-notifications")
        game_forgotten.connect(receivers.on_game_forgotten, dispatch_uid="gotweb-notifications-forget")
        from django.db.models.signals import post_delete, post_save

        from .models import Seat

        post_save.connect(receivers.seat_saved, sender=Seat, dispatch_uid="gotweb-notifications-seat")
        from django.contrib.auth.signals import user_logged_in

        from .site import addresses

        user_logged_in.connect(addresses.on_login, dispatch_uid="gotweb-addresses")
        post_delete.connect(receivers.seat_saved, sender=Seat, dispatch_uid="gotweb-notifications-seat-del")
        if scheduler.wanted():  # deadlines fire in the server process (GAME_SCHEDULER)
            scheduler.start()
            from django.conf import settings

            if settings.NOTIFY_MAILS and worker.sweep_every() > 0:
                worker.WORKER.start_sweeps(worker.sweep_every())  # mails forgotten by a restart

"""Game.finished_at: when the last action ended the game (the archive's finish time
was ``updated_at``). Finished games get the time of their last logged action, else their
``updated_at``."""

from django.db import migrations, models
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce


def backfill(apps, schema_editor):
    Game = apps.get_model("game", "Game")
    Action = apps.get_model("game", "Action")
    last = Action.objects.filter(game_id=OuterRef("pk")).order_by("-number").values("created_at")[:1]
    Game.objects.filter(status="finished", finished_at__isnull=True).update(finished_at=Coalesce(Subquery(last), F("updated_at")))


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0011_push_subscriptions"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="finished_at",
            field=models.DateTimeField(blank=True, db_index=True, editable=False, null=True, verbose_name="finished"),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]

"""``Game.decisions_since``: per seat, the version since which its pending decisions are unchanged,
so a stale action is judged without replaying the game. Games already running get NULL ("not
known": a stale version is refused until their next action records it); new games start with
``{}``."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("game", "0004_archive_ratings"),
    ]

    operations = [
        # first without a default, so the rows already there stay NULL ...
        migrations.AddField(
            model_name="game",
            name="decisions_since",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        # ... then the model's default for new rows (a Python default: no database change)
        migrations.AlterField(
            model_name="game",
            name="decisions_since",
            field=models.JSONField(blank=True, default=dict, editable=False, null=True),
        ),
    ]

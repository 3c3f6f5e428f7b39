"""Players' names unique up to case, width and invisible characters.

Adds ``Profile.is_bot``, ``Profile.name_key`` (unique) and ``Profile.username_key``. Existing rows
are fixed deterministically before the unique index is made: bots (users seated as ``Seat.bot``)
are marked and need no unique name; then registered users (oldest account first), then guests
(oldest first), keep their name when its key is still free, and otherwise get the first free
``"<name> 2"``, ``"<name> 3"``... (cut to 30 characters). A guest's name that is a registered
user's username (up to :func:`game.models.name_key`) counts as taken. Stored names also lose
their invisible characters (:func:`game.models.clean_name`).
"""

from django.db import migrations, models


def fix_names(apps, schema_editor):
    from game.models import clean_name, name_key

    Profile = apps.get_model("game", "Profile")
    Seat = apps.get_model("game", "Seat")
    bots = set(Seat.objects.exclude(bot="").values_list("user_id", flat=True))
    Profile.objects.filter(user_id__in=bots).update(is_bot=True)

    people = list(
        Profile.objects.filter(is_bot=False).select_related("user").order_by("is_guest", "user__date_joined", "user_id")
    )
    #: key -> user id, of registered usernames (a guest may not be shown as one)
    usernames = {}
    for p in people:
        if not p.is_guest:
            usernames.setdefault(name_key(p.user.username), p.user_id)
    shown = set()
    for p in people:
        base = clean_name(p.display_name) or clean_name(p.user.username) or "Player"
        name, n = base, 1
        while True:
            key = name_key(name)
            owner = usernames.get(key)
            if key and key not in shown and (owner is None or owner == p.user_id or not p.is_guest):
                break
            n += 1
            suffix = f" {n}"
            name = base[: 30 - len(suffix)] + suffix
        shown.add(key)
        p.display_name = name if (p.display_name or name != base) else ""
        p.name_key = key
        p.username_key = None if p.is_guest else (name_key(p.user.username) or None)
        p.save(update_fields=["display_name", "name_key", "username_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0005_decisions_since"),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="is_bot",
            field=models.BooleanField(default=False, verbose_name="bot"),
        ),
        migrations.AddField(
            model_name="profile",
            name="name_key",
            field=models.TextField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="profile",
            name="username_key",
            field=models.TextField(blank=True, db_index=True, editable=False, null=True),
        ),
        migrations.RunPython(fix_names, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="profile",
            name="name_key",
            field=models.TextField(blank=True, editable=False, null=True, unique=True),
        ),
    ]

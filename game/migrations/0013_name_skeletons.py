"""Players' names compared by their Unicode TR39 skeletons (:func:`game.models.name_key`): ``LiIy``
and ``Liǀy`` now pass for ``Lily``. Every profile's keys are computed again by the rule of
``0006_unique_names`` (registered users first, then guests, oldest first; a name whose key is taken
gets the first free ``"<name> 2"``...), after all of them are cleared, so no row meets another's
old key on the way."""

from importlib import import_module

from django.db import migrations


def rekey(apps, schema_editor):
    Profile = apps.get_model("game", "Profile")
    Profile.objects.update(name_key=None, username_key=None)
    import_module("game.migrations.0006_unique_names").fix_names(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0012_game_finished_at"),
    ]

    operations = [
        migrations.RunPython(rekey, migrations.RunPython.noop),
    ]

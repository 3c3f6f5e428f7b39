"""The "Moderators" group, holding exactly the permissions of the moderation pages
(game/site/views/moderation.py): see the reports and the moderation log, handle a report, warn,
mute and ban players, see the accounts that share an address. Putting a user in it (the admin's
user page) makes them a moderator; staff status is not needed for these pages."""

from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = ["view_report", "change_report", "view_moderationaction", "warn_user", "mute_user", "ban_user", "see_addresses"]


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions
    from django.contrib.contenttypes.management import create_contenttypes

    config = apps.get_app_config("game")
    config.models_module = True  # the permissions are made after migrating: make them now
    create_contenttypes(config, verbosity=0, apps=apps)
    create_permissions(config, verbosity=0, apps=apps)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    perms = list(Permission.objects.filter(content_type__app_label="game", codename__in=PERMISSIONS))
    assert len(perms) == len(PERMISSIONS), [p.codename for p in perms]
    group, _ = Group.objects.get_or_create(name=GROUP)
    group.permissions.set(perms)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0017_community_reports_moderation"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]

"""Confirmed mail addresses: ``NotificationPrefs.confirmed_email`` and ``confirmed_at``. From now
on the site mails an address only once its reader has opened the confirmation link sent to it.

The addresses stored before this migration are kept as confirmed (``confirmed_email`` set to
``User.email``, ``confirmed_at`` left empty, which tells them apart from addresses confirmed by a
link). Why: only the account's owner could type them (the preferences page needs a login and a
CSRF token), and every mail sent to them has carried a one-click unsubscribe link, so their reader
has always been able to stop them; asking every player to confirm would instead silently end
the "your turn" and deadline mails of people in correspondence games, whose stand-in bot then
plays for them, and the only way to tell them would be a mail to the unconfirmed address. The
cost: an address someone planted before this change is still mailed until its reader uses the
unsubscribe link (which now also drops the confirmation, so the account cannot switch the mails
back on without a new confirmation) or the account changes it. Operators who would rather ask
everyone can clear them: ``NotificationPrefs.objects.filter(confirmed_at=None).update(confirmed_email="")``.

Reversing drops the two columns; nothing else to undo.
"""

from django.conf import settings
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def keep_stored_addresses(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Prefs = apps.get_model("game", "NotificationPrefs")
    Prefs.objects.update(confirmed_email=Subquery(User.objects.filter(pk=OuterRef("user_id")).values("email")[:1]))
    # people with an address and no preferences row have the defaults: a row with the defaults,
    # written a thousand at a time (read before each write: no cursor open across the inserts)
    missing = User.objects.exclude(email="").exclude(pk__in=Prefs.objects.values("user_id")).order_by("pk")
    last = 0
    while rows := list(missing.filter(pk__gt=last).values_list("pk", "email")[:1000]):
        Prefs.objects.bulk_create([Prefs(user_id=pk, confirmed_email=email) for pk, email in rows])
        last = rows[-1][0]


class Migration(migrations.Migration):
    dependencies = [
        ("game", "0013_name_skeletons"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="notificationprefs",
            name="confirmed_email",
            field=models.EmailField(blank=True, max_length=254, verbose_name="confirmed address"),
        ),
        migrations.AddField(
            model_name="notificationprefs",
            name="confirmed_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="confirmed"),
        ),
        migrations.RunPython(keep_stored_addresses, migrations.RunPython.noop),
    ]

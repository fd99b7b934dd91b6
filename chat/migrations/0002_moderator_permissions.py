"""The "moderator" group (moderation/migrations/0002_moderator_group.py) may read chat reports and messages, delete
messages (a change: the row stays, hidden) and mute players."""

from typing import Any

from django.contrib.auth.management import create_permissions
from django.db import migrations

MODERATOR = "moderator"
PERMISSIONS = [
    ("chat", "view_chatmessage"),
    ("chat", "change_chatmessage"),
    ("chat", "view_chatreport"),
    ("chat", "change_chatreport"),
    ("chat", "view_chatmute"),
    ("chat", "add_chatmute"),
]


def grant(apps: Any, schema_editor: Any) -> None:
    # Permissions are made after the migrations (post_migrate): on a new database, now.
    for config in apps.get_app_configs():
        config.models_module = True
        create_permissions(config, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=MODERATOR)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(
            Permission.objects.get(content_type__app_label=app_label, codename=codename)
        )


def revoke(apps: Any, schema_editor: Any) -> None:
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name=MODERATOR).first()
    if group is not None:
        group.permissions.remove(
            *Permission.objects.filter(
                content_type__app_label="chat", codename__in=[c for _, c in PERMISSIONS]
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0001_initial"),
        ("moderation", "0002_moderator_group"),
    ]

    operations = [migrations.RunPython(grant, revoke)]

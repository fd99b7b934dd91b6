"""The "moderator" group: what staff who moderate may do, and nothing else (no player's access, no
group, no rating is theirs to change). docs/operations.md says how to make a moderator."""

from typing import Any

from django.contrib.auth.management import create_permissions
from django.db import migrations

MODERATOR = "moderator"
PERMISSIONS = [
    # Players: find them, ban, unban, erase, keep notes (the change actions), revoke sessions.
    ("accounts", "view_player"),
    ("accounts", "change_player"),
    ("accounts", "view_authtoken"),
    ("accounts", "delete_authtoken"),
    ("accounts", "view_staffaction"),
    # Games: read them (a live one as a spectator), void them.
    ("games", "view_game"),
    ("games", "change_game"),
    ("games", "view_seat"),
    ("ratings", "view_rating"),
    ("ratings", "view_ratingchange"),
    ("moderation", "view_report"),
    ("moderation", "change_report"),
]


def create_moderator_group(apps: Any, schema_editor: Any) -> None:
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


def remove_moderator_group(apps: Any, schema_editor: Any) -> None:
    apps.get_model("auth", "Group").objects.filter(name=MODERATOR).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("moderation", "0001_reports"),
        ("accounts", "0006_staff_notes_erasure_audit"),
        ("games", "0006_game_voided"),
        ("ratings", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_moderator_group, remove_moderator_group)]

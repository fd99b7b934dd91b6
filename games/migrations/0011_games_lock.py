"""`games_lock`: a game locked, with its last event and its seats, in one round trip
(games/locks.py says why it is a function). Its text is games/locks.py's, where every lock of
the games app is written (tests/core/test_locks.py); a change to it is a migration that runs
it again (CREATE OR REPLACE), and one that needs tables of a later migration than this one
freezes a copy of the text here."""

from django.db import migrations

from games.locks import LOCK_FUNCTION, LOCK_FUNCTION_DROP


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_verbose_names"),
        ("accounts", "0014_verbose_names"),
        ("ratings", "0004_verbose_names"),
    ]

    operations = [migrations.RunSQL(LOCK_FUNCTION, LOCK_FUNCTION_DROP)]

"""Stored states no longer carry the turn limit in their rules: the engine has no clock, and
its `Rules` refuse the key. The game's own `rules` column keeps it (games.game_rules)."""

from django.db import migrations

# One statement in the database: no state is loaded into Python.
FORWARD = """
UPDATE games_game SET state = state #- '{rules,turn_seconds}'
WHERE state -> 'rules' ? 'turn_seconds'
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0003_seat_unique_deferrable")]

    # Backwards there is nothing to do: the code before this read a state's missing rules as
    # their defaults, and the turn limit's was null.
    operations = [migrations.RunSQL(FORWARD, migrations.RunSQL.noop, elidable=True)]

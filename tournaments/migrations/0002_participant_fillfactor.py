"""Room in each page of the participants for the next version of a row: a row changes at every
seat and every game's points (its `game_id`, which no index holds, its idle time), so with 30%
of a page free PostgreSQL writes most of those updates beside the old row (HOT) and touches
none of the table's five indexes."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE tournaments_participant SET (fillfactor = 70)",
            reverse_sql="ALTER TABLE tournaments_participant RESET (fillfactor)",
        ),
    ]

"""Rating.last_game_at, filled from the rating history: the `at` of each player's latest
rating change. A rating with no change (none is stored so; recompute_ratings would report it)
gets the migration's time, so that it starts ageing from now."""

from django.db import migrations, models

FILL = """
UPDATE ratings_rating AS r SET last_game_at = COALESCE(
    (SELECT MAX(c.at) FROM ratings_ratingchange AS c WHERE c.player_id = r.player_id), now()
)
"""


class Migration(migrations.Migration):
    dependencies = [("ratings", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="rating", name="last_game_at", field=models.DateTimeField(null=True)
        ),
        migrations.RunSQL(FILL, reverse_sql=migrations.RunSQL.noop),
        migrations.AlterField(
            model_name="rating", name="last_game_at", field=models.DateTimeField()
        ),
    ]

"""Season resets in the rating history (RatingChange.kind, .season; a reset has no game, seat
or place) and each rating's games in the current season. Until a first reset every rated game
is the first season's, so season_games starts as the games played."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ratings", "0002_rating_last_game_at"), ("games", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="season_games",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunSQL(
            "UPDATE ratings_rating SET season_games = games", reverse_sql=migrations.RunSQL.noop
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="kind",
            field=models.CharField(
                choices=[("game", "Game"), ("season_reset", "Season Reset")],
                default="game",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="ratingchange",
            name="season",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="game",
            field=models.ForeignKey(
                null=True,
                on_delete=models.deletion.CASCADE,
                related_name="rating_changes",
                to="games.game",
            ),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="seat",
            field=models.PositiveSmallIntegerField(null=True),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="place",
            field=models.PositiveSmallIntegerField(null=True),
        ),
        migrations.AddConstraint(
            model_name="ratingchange",
            constraint=models.UniqueConstraint(
                fields=("player", "season"), name="rating_change_one_reset_per_season"
            ),
        ),
        migrations.AddConstraint(
            model_name="ratingchange",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(game__isnull=False, kind="game", season__isnull=True),
                    models.Q(game__isnull=True, kind="season_reset", season__isnull=False),
                    _connector="OR",
                ),
                name="rating_change_game_or_reset",
            ),
        ),
    ]

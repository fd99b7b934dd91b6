from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def ranked_games_are_the_ranked_pools(
    apps: StateApps, schema_editor: BaseDatabaseSchemaEditor
) -> None:
    # Every ranked game so far is the people's: the bots' ladder is new.
    apps.get_model("games", "Game").objects.filter(ranked=True).update(pool="ranked")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_fair_deals"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="pool",
            field=models.CharField(
                blank=True,
                choices=[("ranked", "Ranked"), ("bots", "Bots")],
                default="",
                max_length=8,
            ),
        ),
        migrations.RunPython(ranked_games_are_the_ranked_pools, migrations.RunPython.noop),
    ]

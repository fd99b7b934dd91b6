from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.notify import game_finished_signal, game_voided_signal
        from ratings import receivers

        game_finished_signal.connect(receivers.game_finished, dispatch_uid="ratings.finished")
        game_voided_signal.connect(receivers.game_voided, dispatch_uid="ratings.voided")

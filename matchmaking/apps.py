from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchmakingConfig(AppConfig):
    name = "matchmaking"
    verbose_name = _("Matchmaking")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.signals import player_banned, player_erased
        from matchmaking.receivers import (
            cancel_banned_players_tickets,
            cancel_challenged_players_tickets,
        )
        from social.signals import challenge_accepted

        player_banned.connect(
            cancel_banned_players_tickets, dispatch_uid="matchmaking.cancel_banned_players_tickets"
        )
        player_erased.connect(
            cancel_banned_players_tickets, dispatch_uid="matchmaking.cancel_erased_players_tickets"
        )
        challenge_accepted.connect(
            cancel_challenged_players_tickets,
            dispatch_uid="matchmaking.cancel_challenged_players_tickets",
        )

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    """The HTTP of docs/api.md's Accounts and Players sections: every answer shows a `player`
    (ratings' payload), and /me and a player's games read games and matchmaking too, so these
    endpoints sit above every other app. No models: the rows are the other apps'."""

    name = "players"
    verbose_name = _("Players")

"""Writes that need several apps to decide: a registered account becoming a bot (docs/bots.md),
which asks games whether it ever finished a game or holds a seat, and matchmaking whether it
searches."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.locks import player_lock
from accounts.models import BotToken, Player
from accounts.services import player_make_bot
from core.errors import ApplicationError
from games.selectors import player_active_game_id, player_finished_games
from matchmaking.selectors import player_searching_ticket


@transaction.atomic
def bot_upgrade(*, player: Player, description: str = "") -> tuple[Player, BotToken, str]:
    """`POST /bot/upgrade/`: the account becomes a bot for good, if it never finished a game
    and neither sits at a table nor searches one (409 `not_eligible`); guests 403 `guest`.
    Under the player's row lock, which a ticket's creation takes too."""
    player = player_lock(player.pk)
    if not player.is_guest and not player.is_bot:
        if player_finished_games(player).exists():
            raise ApplicationError(
                "not_eligible",
                _("Only an account that never finished a game can become a bot: make a new one."),
                409,
            )
        if player_active_game_id(player) is not None or player_searching_ticket(player):
            raise ApplicationError(
                "not_eligible", _("Leave your table or cancel your ticket first."), 409
            )
    return player_make_bot(player=player, description=description)

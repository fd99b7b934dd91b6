"""Reads about a player composed from several apps: the player (accounts, with ratings'
rating), what the caller is doing now (a table in games, a ticket in matchmaking), and the
games a player finished."""

from __future__ import annotations

from uuid import UUID

from django.core.exceptions import ValidationError
from django.db.models import Prefetch, QuerySet

from accounts.models import Player
from config.errors import ApplicationError
from games.models import Seat
from games.selectors import player_active_game_id, player_finished_games
from matchmaking.selectors import TicketData, player_searching_ticket
from ratings.payloads import PlayerData, player_data


class MeData(PlayerData):
    active_game: str | None
    ticket: TicketData | None


def me_data(player: Player) -> MeData:
    """What `GET /me/` answers: the caller's `player`, the id of their waiting or active
    table, and their searching ticket."""
    game = player_active_game_id(player)
    return {
        **player_data(player),
        "active_game": None if game is None else str(game),
        "ticket": player_searching_ticket(player),
    }


def player_get(player_id: UUID | str) -> Player:
    """The player, with their rating row; 404 `not_found` when there is none."""
    try:
        player = Player.objects.select_related("rating").filter(pk=player_id).first()
    except (ValueError, ValidationError):
        player = None
    if player is None:
        raise ApplicationError("not_found", "No such player.", 404)
    return player


def player_games(player: Player) -> QuerySet[Seat]:
    """The player's seats at finished games, newest first, with every seat's player."""
    seats = Seat.objects.select_related("player__rating").order_by("seat")
    return player_finished_games(player).prefetch_related(Prefetch("game__seats", queryset=seats))

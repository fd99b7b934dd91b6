"""Reads about a player composed from several apps: the player (accounts, with ratings'
rating), what the caller is doing now (a table in games, a ticket in matchmaking), and the
games a player finished."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal, TypedDict
from uuid import UUID

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from accounts.models import BotToken, Player
from accounts.selectors import queue_ban_until
from accounts.services import seed_pair_get
from core.errors import ApplicationError
from core.payloads import Doc, Timestamp, Uuid
from games.models import Seat
from games.selectors import player_active_game_id, player_finished_games
from matchmaking.selectors import TicketData, player_searching_ticket
from ratings.models import RatingChange
from ratings.payloads import PlayerData, player_data
from social.selectors import blocked_with


class MeFairnessData(TypedDict):
    commitment: str
    client_seed: str


class ProfileData(PlayerData):
    bot_description: str | None


class MeData(PlayerData):
    active_game: str | None
    ticket: TicketData | None
    queue_ban_until: Timestamp | None
    appear_offline: bool
    chat: Literal["all", "phrases", "off"]
    challenges_from: Literal["everyone", "friends", "nobody"]
    bot_description: str
    language: Literal["en", "he", "ne", "hi"]
    fairness: MeFairnessData


class HelloMessage(TypedDict):
    """`ws /ws/v1/me/`: the first message, what the player is doing as the socket opens (as
    `GET /me/` says it), and the socket's clock."""

    type: Literal["hello"]
    player: PlayerData
    active_game: Annotated[Uuid | None, Doc("Your waiting or active table, or null.")]
    ticket: Annotated[TicketData | None, Doc("Your searching matchmaking ticket, or null.")]
    keepalive_seconds: Annotated[
        float, Doc("A keep-alive comes after this long without another message.")
    ]
    idle_seconds: Annotated[
        float, Doc("The server closes (4408) a socket whose client sent nothing this long.")
    ]


def hello_message(player: Player) -> HelloMessage:
    return {
        "type": "hello",
        "player": player_data(player),
        **_doing_now(player),
        "keepalive_seconds": settings.YANIV_WS_KEEPALIVE_SECONDS,
        "idle_seconds": settings.YANIV_WS_IDLE_SECONDS,
    }


class DoingNow(TypedDict):
    active_game: str | None
    ticket: TicketData | None


def _doing_now(player: Player) -> DoingNow:
    """The id of the player's waiting or active table, and their searching ticket."""
    game = player_active_game_id(player)
    return {
        "active_game": None if game is None else str(game),
        "ticket": player_searching_ticket(player),
    }


def me_data(player: Player) -> MeData:
    """What `GET /me/` answers: the caller's `player`, the id of their waiting or active
    table, and their searching ticket."""
    pair = seed_pair_get(player)
    banned_until = queue_ban_until(player.pk)
    return {
        **player_data(player),
        **_doing_now(player),
        "queue_ban_until": None if banned_until is None else banned_until.isoformat(),
        "appear_offline": player.appear_offline,
        "chat": player.chat,  # type: ignore[typeddict-item]
        "challenges_from": player.challenges_from,  # type: ignore[typeddict-item]
        "bot_description": player.bot_description,
        "language": player.language,  # type: ignore[typeddict-item]
        "fairness": {"commitment": pair.commitment, "client_seed": pair.client_seed},
    }


def profile_data(player: Player) -> ProfileData:
    """What `GET /players/{id}/` answers: the `player`, and a bot's description."""
    return {
        **player_data(player),
        "bot_description": player.bot_description if player.is_bot else None,
    }


def bot_tokens(player: Player) -> QuerySet[BotToken]:
    """The bot's tokens, the oldest first; 403 `not_bot` for a player who is not a bot."""
    if not player.is_bot:
        raise ApplicationError(
            "not_bot", _("Only a bot account has this (POST /api/v1/bot/upgrade/)."), 409
        )
    return BotToken.objects.filter(player=player).order_by("created_at", "pk")


def player_get(player_id: UUID | str) -> Player:
    """The player, with their rating row; 404 `not_found` when there is none."""
    try:
        player = Player.objects.select_related("rating").filter(pk=player_id).first()
    except (ValueError, ValidationError):
        player = None
    if player is None:
        raise ApplicationError("not_found", _("No such player."), 404)
    return player


SEARCH_MIN, SEARCH_MAX = 2, 32


def players_named(text: str, *, viewer: Player) -> QuerySet[Player]:
    """Registered players whose display name holds `text` (any case), by name: not the viewer,
    nor anyone who blocks the viewer or whom the viewer blocks (one indexed read, the name's
    trigrams). 400 `invalid` for a text shorter than SEARCH_MIN or longer than SEARCH_MAX."""
    text = text.strip()
    if not SEARCH_MIN <= len(text) <= SEARCH_MAX:
        raise ApplicationError(
            "invalid",
            _("search takes %(low)s to %(high)s characters of a name.")
            % {"low": SEARCH_MIN, "high": SEARCH_MAX},
        )
    if any(unicodedata.category(char) == "Cc" for char in text):
        # No name holds one, and PostgreSQL refuses a NUL in any text it is given.
        raise ApplicationError("invalid", _("search takes no control characters."))
    return (
        Player.objects.filter(
            is_guest=False, cpu_level__isnull=True, is_active=True, display_name__icontains=text
        )
        .exclude(pk__in=[viewer.pk, *blocked_with(viewer.pk)])
        .select_related("rating")
        .order_by("display_name", "id")
    )


def player_games(player: Player, *, viewer: Player | None) -> QuerySet[Seat]:
    """The player's seats at finished games, newest first, with every seat's player: ranked
    games for anyone, private ones only for a `viewer` who sat at them."""
    seats = Seat.objects.select_related("player__rating").order_by("seat")
    games = player_finished_games(player)
    if viewer is None:
        games = games.filter(game__ranked=True)
    elif viewer.pk != player.pk:
        sat = Seat.objects.filter(game=OuterRef("game"), player=viewer)
        games = games.filter(Q(game__ranked=True) | Exists(sat))
    return games.prefetch_related(Prefetch("game__seats", queryset=seats))


def player_rating_changes(player: Player, game_ids: list[UUID]) -> dict[UUID, RatingChange]:
    """What each of these games did to the player's rating (rated games only), by game."""
    changes = RatingChange.objects.filter(player=player, game_id__in=game_ids)
    return {change.game_id: change for change in changes if change.game_id is not None}

"""Reads about players and their credentials, plus two hooks other apps fill in later."""

from __future__ import annotations

import uuid
from typing import Any, TypedDict

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db.models.functions import Lower
from django.utils import timezone

from accounts.models import AuthToken, Player
from accounts.usernames import username_key
from config.perf.sql import Columns, fetch, query

# OpenSkill's defaults: what a player who never played a rated game has.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


class RatingData(TypedDict):
    mu: float
    sigma: float
    ordinal: float
    games: int
    provisional: bool


class PlayerData(TypedDict):
    id: str
    display_name: str
    is_guest: bool
    rating: RatingData


class MeExtras(TypedDict):
    active_game: uuid.UUID | None
    ticket: dict[str, Any] | None


def player_rating(player: Player) -> RatingData:
    """The `rating` of a `player` object: the player's rating row (ratings app), or the
    OpenSkill defaults before their first rated game. Lists of players read the rows along
    with them (`select_related("rating")`, `"player__rating"`) instead of one query each."""
    try:
        row = player.rating
    except ObjectDoesNotExist:
        mu, sigma, ordinal, games = DEFAULT_MU, DEFAULT_SIGMA, DEFAULT_MU - 3 * DEFAULT_SIGMA, 0
    else:
        mu, sigma, ordinal, games = row.mu, row.sigma, row.ordinal, row.games
    return {
        "mu": mu,
        "sigma": sigma,
        "ordinal": ordinal,
        "games": games,
        "provisional": sigma > settings.YANIV_PROVISIONAL_SIGMA,
    }


def player_data(player: Player) -> PlayerData:
    """The `player` object of API.md as plain data, for payloads built outside DRF serializers
    (websocket messages, events); accounts.apis.PlayerSerializer answers with exactly this."""
    return {
        "id": str(player.pk),
        "display_name": player.display_name,
        "is_guest": player.is_guest,
        "rating": player_rating(player),
    }


def me_extras(player: Player) -> MeExtras:
    """What `GET /me/` adds to the player. Hook: the games app fills `active_game` (the id of the
    player's waiting or active game) and the matchmaking app `ticket` (its searching ticket)."""
    # Imported here: games and matchmaking build on this module.
    from games.selectors import player_active_game_id
    from matchmaking.selectors import player_searching_ticket

    ticket = player_searching_ticket(player)
    return {
        "active_game": player_active_game_id(player),
        "ticket": None if ticket is None else dict(ticket),
    }


_TOKEN, _PLAYER = Columns(AuthToken, "t"), Columns(Player, "p")
# Every authenticated request runs this (config/perf/sql.py: why in SQL).
_TOKEN_SQL = query(
    "SELECT {t.select}, {p.select} FROM {t.table} JOIN {p.table} ON p.id = t.player_id"
    " WHERE t.key_hash = %s AND t.expires_at > %s",
    t=_TOKEN,
    p=_PLAYER,
)


def auth_token_get(*, raw: str) -> AuthToken | None:
    """The unexpired token with this value, with its player, or None."""
    for token, player in fetch(_TOKEN_SQL, [AuthToken.hash(raw), timezone.now()], _TOKEN, _PLAYER):
        AuthToken.player.field.set_cached_value(token, player)
        return token  # type: ignore[no-any-return]
    return None


def player_get_by_username(*, username: str) -> Player | None:
    """The player whose username has this one's `username_key` (the unique index on LOWER
    serves it). Not `iexact`: PostgreSQL's UPPER turns "v\u0131ctim" (dotless i) into "VICTIM"."""
    key = username_key(username)
    return Player.objects.alias(username_lower=Lower("username")).filter(username_lower=key).first()

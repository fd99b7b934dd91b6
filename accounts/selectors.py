"""Reads about players and their credentials. (The `player` object that answers show is
ratings' (ratings/payloads.py): it carries the player's rating.)"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.db.models import Max, QuerySet
from django.db.models.functions import Lower
from django.utils import timezone

from accounts.models import AuthToken, BotToken, Offence, Player, QueueBan
from accounts.usernames import username_key
from core.perf.sql import Columns, fetch, query

_TOKEN, _PLAYER = Columns(AuthToken, "t"), Columns(Player, "p")
_BOT_TOKEN = Columns(BotToken, "b")
# Every authenticated request runs this (core/perf/sql.py: why in SQL).
_TOKEN_SQL = query(
    "SELECT {t.select}, {p.select} FROM {t.table} JOIN {p.table} ON p.id = t.player_id"
    " WHERE t.key_hash = %s AND t.expires_at > %s",
    t=_TOKEN,
    p=_PLAYER,
)

# A bot's requests run this one (bot tokens never expire: they are revoked).
_BOT_TOKEN_SQL = query(
    "SELECT {b.select}, {p.select} FROM {b.table} JOIN {p.table} ON p.id = b.player_id"
    " WHERE b.key_hash = %s",
    b=_BOT_TOKEN,
    p=_PLAYER,
)

# Every websocket opened with a ticket runs one of these (bench.capacity: the ORM's query took
# 2.4 ms of a web process's CPU, these 0.5).
_ACTIVE_PLAYER_SQL = query(
    "SELECT {p.select} FROM {p.table} WHERE p.id = %s AND p.is_active", p=_PLAYER
)
_ACTIVE_PLAYER_BY_TOKEN_SQL = query(
    "SELECT {p.select} FROM {p.table} JOIN {t.table} ON t.player_id = p.id"
    " WHERE p.id = %s AND p.is_active AND t.id = %s AND t.expires_at > %s",
    t=_TOKEN,
    p=_PLAYER,
)


def active_player_get(*, player_id: str, token_id: str | None = None) -> Player | None:
    """The active player with this id (and, with `token_id`, that unexpired token), or None."""
    if token_id is None:
        rows = fetch(_ACTIVE_PLAYER_SQL, [player_id], _PLAYER)
    else:
        rows = fetch(_ACTIVE_PLAYER_BY_TOKEN_SQL, [player_id, token_id, timezone.now()], _PLAYER)
    return rows[0][0] if rows else None


def auth_token_get(*, raw: str) -> AuthToken | None:
    """The unexpired token with this value, with its player, or None."""
    for token, player in fetch(_TOKEN_SQL, [AuthToken.hash(raw), timezone.now()], _TOKEN, _PLAYER):
        AuthToken.player.field.set_cached_value(token, player)
        return token  # type: ignore[no-any-return]
    return None


def bot_token_get(*, raw: str) -> BotToken | None:
    """The bot token with this value, with its player, or None."""
    for token, player in fetch(_BOT_TOKEN_SQL, [BotToken.hash(raw)], _BOT_TOKEN, _PLAYER):
        BotToken.player.field.set_cached_value(token, player)
        return token  # type: ignore[no-any-return]
    return None


def bot_player_get(*, player_id: str, token_id: str) -> Player | None:
    """The active bot with this id while it holds this bot token, or None (a websocket
    ticket issued with a bot token lives no longer than the token)."""
    return Player.objects.filter(
        pk=player_id, is_active=True, is_bot=True, bot_tokens__pk=token_id
    ).first()


def player_get_by_username(*, username: str) -> Player | None:
    """The player whose username has this one's `username_key` (the unique index on LOWER
    serves it). Not `iexact`: PostgreSQL's UPPER turns "v\u0131ctim" (dotless i) into "VICTIM"."""
    key = username_key(username)
    return Player.objects.alias(username_lower=Lower("username")).filter(username_lower=key).first()


def queue_ban_until(player_id: UUID) -> datetime | None:
    """When the player's ban from the ranked queue ends; None when they are not banned."""
    bans = QueueBan.objects.filter(player_id=player_id, lifted_at__isnull=True)
    until: datetime | None = bans.filter(until__gt=timezone.now()).aggregate(until=Max("until"))[
        "until"
    ]
    return until


def offences_since(player_id: UUID, since: datetime) -> QuerySet[Offence]:
    """The player's offences from `since` on, the oldest first."""
    return Offence.objects.filter(player_id=player_id, at__gte=since).order_by("at", "id")

"""Reads: who may read and write which room of a game, a room's messages as one viewer may see
them (their chat setting, blocks both ways), what a message looks like, the flood and mute
facts a post is checked against, and a report's snapshot."""

from __future__ import annotations

from datetime import datetime
from typing import cast
from uuid import UUID

from django.db.models import QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import ChatShown, Player
from chat.models import ChatMessage, ChatMute, Room
from chat.payloads import ChatMessageData, ChatReportData, PhraseData, RoomName
from chat.phrases import PHRASES
from core.errors import ApplicationError
from games.models import Game
from games.projection import may_view, viewer_seat
from games.selectors import game_seats, player_finished_games
from ratings.payloads import player_data
from social.selectors import blocked_with

SNAPSHOT_SIZE = 20


def _english_phrase(phrase: str) -> str:
    """A phrase as a report's snapshot keeps it: in English, whoever reported."""
    with translation.override("en"):
        return str(PHRASES.get(phrase, phrase))


def phrases() -> list[PhraseData]:
    return [{"id": key, "text": str(text)} for key, text in PHRASES.items()]


def room_of(room: str | None) -> Room:
    if room not in Room.values:
        raise ApplicationError("invalid", _('room must be "players" or "spectators".'))
    return Room(room)


def room_game(game_id: UUID | str, player: Player, room: Room) -> tuple[Game, list[Player]]:
    """The game whose `room` the player may read and write, and its seated players (as the
    game's seats read them: each with their chat setting and rating, which a post then needs
    rather than reading them again); else the refusal: 404 no such game, 403 `forbidden` (a
    private game, not seated), 403 `not_seated` (the players' room, not seated), 403
    `not_spectator` (the spectators' room, seated: the players never read it, during the game
    or after it)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ApplicationError("not_found", _("No such game."), 404)
    seats = game_seats(game)
    seat = viewer_seat(seats, player)
    if not may_view(game.ranked, seat):
        raise ApplicationError("forbidden", _("This is a private game you have no seat at."), 403)
    if room == Room.PLAYERS and seat is None:
        raise ApplicationError(
            "not_seated", _("The players' room is for the players seated at this game."), 403
        )
    if room == Room.SPECTATORS and seat is not None:
        raise ApplicationError(
            "not_spectator",
            _("You have a seat at this game: its spectators' room is not yours."),
            403,
        )
    return game, [s.player for s in seats if s.player is not None]


def room_messages(game: Game, room: Room, viewer: Player) -> QuerySet[ChatMessage]:
    """The room's messages the viewer is shown, the newest first: not deleted, none by a player
    blocked either way, and only what their chat setting shows."""
    rows = ChatMessage.objects.filter(game=game, room=room, deleted_at__isnull=True)
    if viewer.chat == ChatShown.OFF:
        return rows.none()
    if viewer.chat == ChatShown.PHRASES:
        rows = rows.filter(text="")
    hidden = blocked_with(viewer.pk)
    if hidden:
        rows = rows.exclude(author_id__in=hidden)
    return rows.select_related("author__rating").order_by("-created_at", "-id")


def shown_to(setting: str, is_text: bool) -> bool:
    return setting == ChatShown.ALL or (setting == ChatShown.PHRASES and not is_text)


def hidden_from(message: ChatMessage, seated: list[Player]) -> list[str]:
    """Who must not be shown the message: every player blocked either way with its author, and
    (in the players' room) the seated players (`room_game`'s) whose chat setting hides it. A
    spectator's socket applies its own setting (games/consumers.py)."""
    hidden = blocked_with(message.author_id)
    if message.room == Room.PLAYERS:
        hidden |= {p.pk for p in seated if not shown_to(p.chat, bool(message.text))}
    return sorted(str(pk) for pk in hidden)


def message_data(message: ChatMessage) -> ChatMessageData:
    data: ChatMessageData = {
        "id": str(message.pk),
        "room": cast(RoomName, message.room),
        "player": player_data(message.author),
        "at": message.created_at.isoformat(),
    }
    if message.text:
        data["text"] = message.text
    else:
        data["phrase"] = message.phrase
    return data


def report_data(report_id: UUID, message_id: UUID, created_at: datetime) -> ChatReportData:
    return {
        "id": str(report_id),
        "message_id": str(message_id),
        "created_at": created_at.isoformat(),
    }


def finished_games(player: Player) -> int:
    return player_finished_games(player).count()


def muted_until(player_id: UUID) -> datetime | None:
    """When the player's latest running mute ends, or None."""
    mutes = ChatMute.objects.filter(player_id=player_id, until__gt=timezone.now())
    return mutes.order_by("-until").values_list("until", flat=True).first()


def latest_sent(author_id: UUID, count: int) -> list[tuple[datetime, str, str]]:
    """The author's latest `count` messages as (when, text, phrase), the newest first: what the
    flood limits are checked against, in one read."""
    rows = ChatMessage.objects.filter(author_id=author_id).order_by("-created_at", "-id")
    return list(rows.values_list("created_at", "text", "phrase")[:count])


def snapshot(message: ChatMessage) -> list[dict[str, object]]:
    """The room's last SNAPSHOT_SIZE messages as they are now, deleted ones included and marked
    (the reported one always among them), the oldest first: what a report keeps."""
    room = ChatMessage.objects.filter(game_id=message.game_id, room=message.room)
    rows = list(room.select_related("author").order_by("-created_at", "-id")[:SNAPSHOT_SIZE])
    if message.pk not in {row.pk for row in rows}:
        rows = [*rows[: SNAPSHOT_SIZE - 1], message]
    rows.sort(key=lambda row: (row.created_at, str(row.pk)))
    return [
        {
            "id": str(row.pk),
            "player_id": str(row.author_id),
            "display_name": row.author.display_name,
            "text": row.text or _english_phrase(row.phrase),
            "phrase": row.phrase,
            "at": row.created_at.isoformat(),
            "deleted": row.deleted_at is not None,
            "reported": row.pk == message.pk,
        }
        for row in rows
    ]

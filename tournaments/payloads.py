"""What tournaments put in payloads (docs/api.md, Tournaments): a `tournament`, a standings
row, and the socket messages."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypedDict
from uuid import UUID

from core.payloads import Doc, Timestamp, Uuid
from ratings.payloads import PlayerData, player_data
from tournaments.models import Participant, Tournament


class TournamentEntryData(TypedDict):
    """The caller's entry in a tournament."""

    joined: bool
    paused: bool
    score: float
    rank: int | None


class TournamentData(TypedDict):
    id: Uuid
    name: str
    status: Annotated[str, Doc('"upcoming", "running", "finished" or "cancelled".')]
    starts_at: Timestamp
    ends_at: Timestamp
    table_sizes: list[int]
    rated: bool
    rules: Annotated[dict[str, Any], Doc("The games' rules (docs/rules.md §9, §12), resolved.")]
    turn_seconds: int
    players_count: int
    created_by: PlayerData | None
    private: Annotated[bool, Doc("Joining asks for a password.")]
    me: Annotated[TournamentEntryData | None, Doc("The caller's entry (null without a token).")]


class TournamentStandingData(TypedDict):
    rank: int
    player: PlayerData
    score: float
    games: int
    firsts: Annotated[int, Doc("Outright first places.")]
    on_fire: Annotated[bool, Doc("Their next game's points are doubled.")]
    paused: bool


class TournamentGameData(TypedDict):
    id: Uuid
    status: str
    started_at: Timestamp | None
    finished_at: Timestamp | None
    players: Annotated[list[PlayerData], Doc("Each seat's player, in seat order.")]


class TournamentGameMessage(TypedDict):
    """`ws /ws/v1/me/`: the player is seated at a table of this tournament."""

    type: Literal["tournament_game"]
    tournament_id: Uuid
    game_id: Uuid


def tournament_game_message(tournament_id: UUID, game_id: UUID) -> TournamentGameMessage:
    return {
        "type": "tournament_game",
        "tournament_id": str(tournament_id),
        "game_id": str(game_id),
    }


class StandingsMessage(TypedDict):
    """`ws /ws/v1/tournaments/{id}/`: on connect and after every change of the standings."""

    type: Literal["standings"]
    tournament_id: Uuid
    status: str
    ends_at: Annotated[str, Doc("ISO 8601; moves when staff end the tournament early.")]
    players_count: Annotated[int, Doc("Its participants (a cancelled tournament's too).")]
    rows: Annotated[
        list[TournamentStandingData],
        Doc("The first rows (up to 20); none in a cancelled tournament (no standings)."),
    ]
    changed: Annotated[
        list[TournamentStandingData],
        Doc("Every row that differs from what this socket was sent before (all, on connect)."),
    ]


def tournament_data(
    tournament: Tournament, *, players: int, me: Participant | None, rank: int | None, viewer: bool
) -> TournamentData:
    rules = {key: value for key, value in tournament.rules.items() if key != "turn_seconds"}
    return {
        "id": str(tournament.pk),
        "name": tournament.name,
        "status": tournament.status,
        "starts_at": tournament.starts_at.isoformat(),
        "ends_at": tournament.ends_at.isoformat(),
        "table_sizes": list(tournament.table_sizes),
        "rated": tournament.rated,
        "rules": rules,
        "turn_seconds": int(tournament.rules.get("turn_seconds") or 0),
        "players_count": players,
        "created_by": None if tournament.created_by is None else player_data(tournament.created_by),
        "private": bool(tournament.password),
        "me": None
        if not viewer
        else {
            "joined": me is not None,
            "paused": me is not None and me.paused,
            "score": 0.0 if me is None else me.score,
            "rank": rank,
        },
    }


def standing_data(rank: int, entry: Participant) -> TournamentStandingData:
    return {
        "rank": rank,
        "player": player_data(entry.player),
        "score": entry.score,
        "games": entry.games,
        "firsts": entry.firsts,
        "on_fire": entry.streak >= 2,
        "paused": entry.paused,
    }

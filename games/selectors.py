"""Reads of the game app's rows: a game's seats and its ETag, a player's games, the live ones,
the overdue turns, what ratings are fed (the games waiting for their rating, the rated ones'
results), fair play's count, a game's record.

What a viewer may see of what these read is the projection's (games/projection.py). The reads
every move or poll runs are in plain SQL (core/perf/sql.py): `game_seats`, `game_view_tag` and
`game_get` here, and the locked row with its seats (games/locks.py); nowhere else in the app.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from functools import cache
from typing import Any, NamedTuple, cast
from uuid import UUID

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import Player
from core.perf.sql import Columns, fetch, query
from games.engine.fair import VERSION, game_seed
from games.engine.record import record_from_events
from games.game_rules import GameRules
from games.models import Game, GameSeed, GameStatus, Pool, Seat
from games.payloads import (
    DiscardData,
    GameData,
    LastRoundData,
    RecordData,
    RevealedFairnessData,
    RulesData,
    SeatData,
    TurnData,
    YouData,
)
from ratings.cpu import cpu_anchor, cpu_display_name, cpu_start
from ratings.models import Rating
from ratings.payloads import PlayerData, RatingData
from ratings.results import GameResult, SeatResult
from ratings.selectors import cpu_player_ids

_GAME, _SEAT = Columns(Game, "g"), Columns(Seat, "s")
_PLAYER, _RATING = Columns(Player, "p"), Columns(Rating, "r")
# Every move and every payload runs this: a game's seats with their players and ratings.
_SEATS_SQL = query(
    "SELECT {s.select}, {p.select}, {r.select} FROM {s.table}"
    " LEFT JOIN {p.table} ON p.id = s.player_id LEFT JOIN {r.table} ON r.player_id = p.id"
    " WHERE s.game_id = %s ORDER BY s.seat",
    s=_SEAT,
    p=_PLAYER,
    r=_RATING,
)

# What a viewer's `game` is built from (games/projection.py game_payload), less the state: the
# game row, its seats with their players and ratings, each row whole (a column added later is
# in it too). The state changes only with `seq` (a move) or `status` (the deal at the start),
# so the row's other columns stand for it without reading or parsing it.
_VIEW_TAG = (
    "SELECT {game}g.ranked,"
    " (SELECT s.seat FROM {s.table} WHERE s.game_id = g.id AND s.player_id = %s),"
    " ROW({shown.select})::text,"
    " (SELECT string_agg(ROW({s.select}, {p.select}, {r.select})::text, ';' ORDER BY s.seat)"
    "  FROM {s.table} LEFT JOIN {p.table} ON p.id = s.player_id"
    "  LEFT JOIN {r.table} ON r.player_id = p.id WHERE s.game_id = g.id)"
    " FROM {g.table} WHERE g.id = %s"
)
_VIEW_TAG_PARTS: dict[str, Columns[Any]] = {
    "g": _GAME,
    "shown": Columns(Game, "g", omit={"state"}),
    "s": _SEAT,
    "p": _PLAYER,
    "r": _RATING,
}
_VIEW_TAG_SQL = query(_VIEW_TAG.replace("{game}", ""), **_VIEW_TAG_PARTS)
# The same with the whole game row before it: a read that will build the game whatever the tag
# (no `If-None-Match`) reads it in the same round trip.
_VIEW_TAG_GAME_SQL = query(_VIEW_TAG.replace("{game}", "{g.select}, "), **_VIEW_TAG_PARTS)
# The payload's shape: a server that adds a key answers 200, not 304 to a copy without it.
_SHOWN_KINDS = (GameData, SeatData, TurnData, YouData, DiscardData, LastRoundData, RulesData)
_PAYLOAD_SHAPE = repr([kind.__annotations__ for kind in (*_SHOWN_KINDS, PlayerData, RatingData)])


class ViewTag(NamedTuple):
    """What `GET /games/{id}/` decides before it builds the game: who may see it, and the
    ETag of the viewer's payload."""

    ranked: bool
    seat: int | None  # the viewer's
    etag: str


@cache
def _tag_key() -> bytes:
    """The key of the game tags' digest, from SECRET_KEY (read once: it does not change)."""
    return hashlib.sha256(settings.SECRET_KEY.encode()).digest()


def game_view_tag(game_id: UUID, player: Player) -> ViewTag | None:
    """The ETag of the `game` `player` sees (None when there is no such game), from one
    query that reads neither the state nor the events: equal tags, equal payloads.

    The tag is a keyed digest of every input of the payload: the rows above, the viewer (the
    player and their seat: a tag is one viewer's and never matches another's), the settings
    the payload reads (the takeover level, the provisional sigma, the ageing rate, the placement
    games; a season's reset changes the rating rows themselves), today's UTC
    date (the players' ratings age at UTC midnight: a copy from yesterday is not current) and
    the payload's shape.
    Keyed by SECRET_KEY, it tells nothing of its inputs to whoever holds it."""
    for ranked, seat, game_row, seat_rows in fetch(_VIEW_TAG_SQL, [player.pk, game_id]):
        return _view_tag(ranked, seat, game_row, seat_rows, player)
    return None


def game_view_tag_and_game(game_id: UUID, player: Player) -> tuple[ViewTag, Game] | None:
    """`game_view_tag` and the game (`game_get`), in one query."""
    for game, ranked, seat, game_row, seat_rows in fetch(
        _VIEW_TAG_GAME_SQL, [player.pk, game_id], _GAME
    ):
        return _view_tag(ranked, seat, game_row, seat_rows, player), cast(Game, game)
    return None


def _view_tag(
    ranked: bool, seat: int | None, game_row: str, seat_rows: str, player: Player
) -> ViewTag:
    inputs = (
        game_row,
        seat_rows,
        str(player.pk),
        seat,
        settings.YANIV_CPU_TAKEOVER_LEVEL,
        settings.YANIV_PROVISIONAL_SIGMA,
        settings.YANIV_RATING_TAU_PER_DAY,
        settings.YANIV_SEASON_PLACEMENT_GAMES,
        timezone.now().astimezone(UTC).date().isoformat(),
        _PAYLOAD_SHAPE,
    )
    digest = hashlib.blake2b(repr(inputs).encode(), key=_tag_key(), digest_size=16)
    return ViewTag(ranked, seat, f'"g{digest.hexdigest()}"')


def game_key(game_id: UUID | str) -> UUID | None:
    """`game_id` as a UUID, or None when it is none (no game has that id)."""
    try:
        return game_id if isinstance(game_id, UUID) else UUID(game_id)
    except (ValueError, TypeError, AttributeError):
        return None


_GAME_SQL = query("SELECT {g.select} FROM {g.table} WHERE g.id = %s", g=_GAME)


def game_get(game_id: UUID | str) -> Game | None:
    """The game (None when there is none, or `game_id` is no UUID): what a read, the legal
    moves and a socket's read-back load, in plain SQL (the ORM compiled this query anew each
    time, some 0.4 ms)."""
    key = game_key(game_id)
    if key is None:
        return None
    for (game,) in fetch(_GAME_SQL, [key], _GAME):
        return cast(Game, game)
    return None


def game_seats(game: Game) -> list[Seat]:
    """The game's seats in order, each with its player and the player's rating: what every
    payload of the game is built from, under its lock or not (a socket, a read)."""
    return [
        seated(game, seat, player, rating)
        for seat, player, rating in fetch(_SEATS_SQL, [game.pk], _SEAT, _PLAYER, _RATING)
    ]


def seated(game: Game, seat: Seat, player: Player | None, rating: Rating | None) -> Seat:
    """The seat, its game, player and rating (None: there is none) set as its ORM relations
    (read without a query)."""
    Seat.game.field.set_cached_value(seat, game)
    Seat.player.field.set_cached_value(seat, player)
    if player is not None:
        Player.rating.related.set_cached_value(player, rating)
    return seat


def game_record(game: Game, seats: list[Seat]) -> RecordData:
    """The game's `yaniv-record/1`, rebuilt from its event log."""
    events = (
        {"type": event.type, **event.payload, "at": event.created_at.isoformat()}
        for event in game.events.order_by("id")
    )
    record = record_from_events(
        GameRules.stored(game.rules).for_record(),
        len(seats),
        events,
        seats=[
            {
                "player_id": None if seat.player_id is None else str(seat.player_id),
                "display_name": "CPU" if seat.player is None else seat.player.display_name,
                "is_cpu": seat.is_cpu,
                **({"cpu_level": seat.cpu_level} if seat.is_cpu else {}),
            }
            for seat in seats
        ],
    )
    record["ranked"] = game.ranked
    if game.fairness is not None and game.ended:
        record["fairness"] = revealed_fairness(game)
    return cast(RecordData, record)


def revealed_fairness(game: Game) -> RevealedFairnessData:
    """The record's `fairness` block: every human seat's seeds revealed, and the game seed.
    Only for a game that has ended (the caller checks)."""
    rows = list(GameSeed.objects.filter(game=game).order_by("seat"))
    seed = game_seed((bytes(row.server_seed), row.client_seed) for row in rows)
    return {
        "version": VERSION,
        "game_seed": seed.hex(),
        "seats": [
            {
                "seat": row.seat,
                "player_id": None if row.player_id is None else str(row.player_id),
                "commitment": row.commitment,
                "client_seed": row.client_seed,
                "server_seed": bytes(row.server_seed).hex(),
            }
            for row in rows
        ],
    }


def game_seed_pairs(game_id: UUID) -> list[tuple[bytes, str]]:
    """The (server seed, client seed) pairs a game's human seats brought: its game seed's
    makings. Secret until the game has ended."""
    rows = GameSeed.objects.filter(game_id=game_id).values_list("server_seed", "client_seed")
    return [(bytes(server), client) for server, client in rows]


def player_active_game_id(player: Player) -> UUID | None:
    """The player's waiting or active table, if any (there is at most one)."""
    return Seat.objects.filter(player=player, live=True).values_list("game_id", flat=True).first()


def live_ranked_games() -> QuerySet[Game]:
    """Ranked games in play, the newest first: what anyone may watch (`may_view`)."""
    return Game.objects.filter(status=GameStatus.ACTIVE, ranked=True).order_by("-started_at", "id")


def player_finished_games(player: Player) -> QuerySet[Seat]:
    """The player's finished games with a place (a game voided while active has none)."""
    return (
        Seat.objects.filter(player=player, game__status=GameStatus.FINISHED, place__isnull=False)
        .select_related("game")
        .order_by("-game__finished_at")
    )


def overdue_game_ids(*, limit: int = 500) -> list[tuple[str, int]]:
    """Active games past their turn deadline, oldest first, as (id, seq) (the partial index
    serves this): what the beat sweeper enforces."""
    rows = (
        Game.objects.filter(status=GameStatus.ACTIVE, turn_deadline__lte=timezone.now())
        .order_by("turn_deadline")
        .values_list("id", "seq")[:limit]
    )
    return [(str(game_id), seq) for game_id, seq in rows]


# What ratings need: the games waiting for their rating, and the rated ones' results -------


def pending_games_before(
    finished_at: datetime, player_ids: Sequence[UUID], cpu_levels: Sequence[str] = ()
) -> list[UUID]:
    """Finished ranked games of these players (and CPU levels, outside the bots' ladder, where
    they are fixed anchors) that ended earlier and are not rated yet."""
    seats = Seat.objects.filter(
        Q(player_id__in=player_ids)
        | (Q(is_cpu=True, cpu_level__in=cpu_levels) & ~Q(game__pool=Pool.BOTS)),
        game__ranked=True,
        game__rated=True,
        game__status=GameStatus.FINISHED,
        game__rated_at__isnull=True,
        game__voided_at__isnull=True,
        game__finished_at__lt=finished_at,
    )
    return list(
        seats.order_by("game__finished_at", "game_id").values_list("game_id", flat=True).distinct()
    )


def pending_games() -> QuerySet[Game]:
    """Finished ranked games still waiting for their rating (a voided game never is, nor an
    unrated tournament's)."""
    return Game.objects.filter(
        ranked=True,
        rated=True,
        status=GameStatus.FINISHED,
        rated_at__isnull=True,
        voided_at__isnull=True,
    )


def rated_games() -> QuerySet[Game]:
    """The games whose ratings stand: finished (not voided), ranked, rated."""
    return Game.objects.filter(
        ranked=True,
        status=GameStatus.FINISHED,
        rated_at__isnull=False,
        finished_at__isnull=False,
        voided_at__isnull=True,
    )


def rated_results() -> Iterator[GameResult]:
    """The result of every rated game (its rated players, its CPU seats as their levels'
    players: on the bots' ladder, fixed anchors), in the order they are rated."""
    rows = (
        Seat.objects.filter(
            Q(player__isnull=False) | (Q(is_cpu=True) & ~Q(cpu_level="")),
            game__in=rated_games(),
            place__isnull=False,
        )
        .order_by("game__finished_at", "game_id", "seat")
        .values_list(
            "game_id", "game__finished_at", "game__pool", "player_id", "cpu_level", "seat", "place"
        )
    )
    cpus = cpu_player_ids()
    game: GameResult | None = None
    for game_id, finished_at, pool, player_id, level, number, place in rows.iterator(
        chunk_size=5000
    ):
        # The query excludes nulls; the column types cannot say so.
        assert finished_at is not None
        assert place is not None
        if game is not None and game.game_id != game_id:
            yield game
            game = None
        if game is None:
            game = GameResult(game_id, finished_at, [])
        if player_id is not None:
            game.seats.append(SeatResult(player_id, number, place))
        elif level in cpus:  # rated: its level's player exists
            game.seats.append(cpu_seat_result(cpus[level], number, place, level, pool))
    if game is not None:
        yield game


def cpu_seat_result(player_id: UUID, seat: int, place: int, level: str, pool: str) -> SeatResult:
    """A CPU seat as ratings take it: its level's player, from the level's calibrated start;
    on the bots' ladder a fixed anchor (ratings/cpu.py `cpu_anchor`)."""
    if pool == Pool.BOTS:
        return SeatResult(player_id, seat, place, cpu_anchor(level), fixed=True)
    return SeatResult(player_id, seat, place, cpu_start(level))


def fixed_seats(game_id: UUID) -> list[SeatResult]:
    """A rated game's fixed seats, in seat order: a ladder game's CPU seats, each its level's
    anchor (ratings/results.py `FixedSeats`: what a replay of the game needs besides its rating
    changes)."""
    rows = Seat.objects.filter(
        game_id=game_id,
        game__pool=Pool.BOTS,
        player__isnull=True,
        is_cpu=True,
        place__isnull=False,
    ).exclude(cpu_level="")
    cpus = cpu_player_ids()
    return [
        cpu_seat_result(cpus[seat.cpu_level], seat.seat, seat.place, seat.cpu_level, Pool.BOTS)
        for seat in rows.order_by("seat")
        if seat.place is not None and seat.cpu_level in cpus
    ]


# Fair play and match histories (docs/api.md, Fair play; docs/api.md) -------------------------


def clean_ranked_games(player_id: UUID | str, *, since: datetime) -> int:
    """Ranked games the player finished from `since` on without leaving or ending away: the
    good games that wear down a queue-ban count (accounts/fair_play.py)."""
    return Seat.objects.filter(
        player_id=player_id,
        game__ranked=True,
        game__status=GameStatus.FINISHED,
        game__finished_at__gte=since,
        left=False,
        away=False,
    ).count()


def seat_name(seat: Seat) -> str:
    """How a seat is named in a match history: its player's display name, or its CPU level's
    player's name (`"CPU (expert)"`), or `"CPU"` for a seat from before the levels."""
    if seat.player is not None:
        return seat.player.display_name
    return cpu_display_name(seat.cpu_level) if seat.cpu_level else "CPU"

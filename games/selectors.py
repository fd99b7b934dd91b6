"""What a viewer may see of a game: the one projection every payload goes through.

`game_payload` builds the API's `game` object and `event_payload` an event, for one viewer
(a seated player, or a stranger: `seat=None`); `game_payload` takes the state already parsed,
so that one parse serves every viewer. REST responses, the event list and websocket
messages all call these two; hidden information (other hands, the stock, the deck, a card
another seat drew from the stock) is removed here and nowhere else. The game part comes from
the engine's own view (games/engine/view.py), which already holds only what a seat may see.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import Player
from accounts.selectors import player_data
from config.sql import Columns, fetch, query
from games.engine.state import GameState
from games.engine.view import view
from games.models import Event, Game, GameStatus, Seat
from ratings.models import Rating

Payload = dict[str, Any]


_SEAT, _PLAYER, _RATING = Columns(Seat, "s"), Columns(Player, "p"), Columns(Rating, "r")
# Every move runs this, under the game's lock (config/sql.py: why in SQL).
_SEATS_SQL = query(
    "SELECT {s.select}, {p.select}, {r.select} FROM {s.table}"
    " LEFT JOIN {p.table} ON p.id = s.player_id LEFT JOIN {r.table} ON r.player_id = p.id"
    " WHERE s.game_id = %s ORDER BY s.seat",
    s=_SEAT,
    p=_PLAYER,
    r=_RATING,
)


def game_seats(game: Game) -> list[Seat]:
    """The game's seats in order, each with its player and the player's rating."""
    seats = []
    for seat, player, rating in fetch(_SEATS_SQL, [game.pk], _SEAT, _PLAYER, _RATING):
        Seat.game.field.set_cached_value(seat, game)
        Seat.player.field.set_cached_value(seat, player)
        if player is not None:
            Player.rating.related.set_cached_value(player, rating)
        seats.append(seat)
    return seats


def viewer_seat(seats: list[Seat], player: Player | None) -> int | None:
    if player is None:
        return None
    for seat in seats:
        if seat.player_id == player.pk:
            return seat.seat
    return None


def may_view(game: Game, seat: int | None) -> bool:
    """Seated players see their table; anyone may watch a ranked game as a stranger."""
    return seat is not None or game.ranked


def game_state(game: Game) -> GameState | None:
    """The engine's state stored in the game row (None while the table waits for players).
    Parsing it costs more than a move (~20 us against ~1 us): read it once, and hand the
    parsed state to `game_payload` for every viewer (a locked game keeps it: games/table.py)."""
    return None if game.state is None else GameState.from_dict(game.state)


def game_payload(
    game: Game, state: GameState | None, seats: list[Seat], seat: int | None
) -> Payload:
    """The API's `game` object as `seat` sees it, from the game row, its state (as parsed
    from the row, or as the engine has just returned it) and its seats."""
    engine = None if state is None else view(state, seat)
    turn = None
    if engine is not None and engine["turn"] is not None:
        turn_seat = seats[engine["turn"]]
        shown = game.status == GameStatus.ACTIVE and not turn_seat.cpu_plays
        turn = {
            "seat": engine["turn"],
            "deadline": game.turn_deadline.isoformat() if shown and game.turn_deadline else None,
        }
    you = None
    if seat is not None:
        you = (
            {"seat": seat, "hand": [], "hand_total": 0, "can_call_yaniv": False}
            if engine is None
            else engine["you"]
        )
    return {
        "id": str(game.id),
        "status": game.status,
        "ranked": game.ranked,
        "rules": game.rules,
        "max_players": game.max_players,
        "invite_code": game.invite_code if _is_host(game, seats, seat) else None,
        "seq": game.seq,
        "round": 0 if engine is None else engine["round"],
        "seats": [_seat_payload(s, engine) for s in seats],
        "turn": turn,
        "you": you,
        "discard": (
            {"cards": [], "takeable": [], "seat": None} if engine is None else engine["discard"]
        ),
        "pile": [] if engine is None else engine["pile"],
        "stock_count": 0 if engine is None else engine["stock_count"],
        "last_round": None if engine is None else _last_round(engine["last_round"]),
        "standings": None if engine is None else engine["standings"],
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


def _is_host(game: Game, seats: list[Seat], seat: int | None) -> bool:
    return seat is not None and seats[seat].player_id == game.host_id


def _seat_payload(seat: Seat, engine: Payload | None) -> Payload:
    public = None if engine is None else engine["seats"][seat.seat]
    return {
        "seat": seat.seat,
        "player": None if seat.player is None else player_data(seat.player),
        "is_cpu": seat.is_cpu,
        "away": seat.away,
        "left": seat.left,
        "score": seat.score if public is None else public["score"],
        "eliminated": seat.eliminated if public is None else public["eliminated"],
        "hand_count": 0 if public is None else public["hand_count"],
        # Cards this seat took face up and still holds: public by RULES.md §11.
        "known": [] if public is None else public["known"],
        "place": seat.place,
    }


def _last_round(result: Payload | None) -> Payload | None:
    if result is None:
        return None
    # Hands are shown to everyone when a round ends (RULES.md §5).
    return {
        "round": result["round"],
        "caller": result["caller"],
        "outcome": result["outcome"],
        "hands": result["hands"],
        "hand_totals": result["hand_totals"],
        "points": result["points"],
        "totals": result["totals"],
        "eliminated": result["eliminated"],
    }


def event_payload(event: Event, seat: int | None) -> Payload:
    """An event as `seat` may see it: the deck, the stock order and others' draws removed."""
    data = event.payload
    shown: Payload = {"seq": event.seq, "at": event.created_at.isoformat(), "type": event.type}
    if event.type == "round_started":
        shown.update(round=data["round"], starter=data["starter"])
    elif event.type == "played":
        shown.update(seat=data["seat"], by=data["by"], cards=data["cards"], draw=data["draw"])
        if seat == data["seat"]:
            shown["drawn"] = data["drawn"]
    elif event.type == "reshuffled":
        shown["stock_count"] = len(data["stock"])
    else:
        # Listed, not copied wholesale, so that a new key is hidden until someone decides.
        shown.update({key: data[key] for key in _PUBLIC_KEYS.get(event.type, ()) if key in data})
    return shown


_PUBLIC_KEYS: dict[str, tuple[str, ...]] = {
    "game_started": ("players", "seats"),
    "yaniv_called": ("seat",),
    # Hands are shown to everyone when a round ends (RULES.md §5).
    "round_ended": (
        "round",
        "caller",
        "outcome",
        "hands",
        "hand_totals",
        "points",
        "totals",
        "eliminated",
        "next_starter",
    ),
    "game_ended": ("standings",),
    "player_away": ("seat",),
    "player_returned": ("seat",),
    "player_left": ("seat",),
    "rated": ("ratings",),
    "game_voided": ("reason",),
}


def game_events(game: Game, after: int) -> QuerySet[Event]:
    return game.events.filter(seq__gt=after).order_by("id")


def player_active_game_id(player: Player) -> UUID | None:
    """The player's waiting or active table, if any (there is at most one)."""
    return Seat.objects.filter(player=player, live=True).values_list("game_id", flat=True).first()


def live_ranked_games() -> QuerySet[Game]:
    """Ranked games in play, the newest first: what anyone may watch (`may_view`)."""
    return Game.objects.filter(status=GameStatus.ACTIVE, ranked=True).order_by("-started_at", "id")


def player_finished_games(player: Player) -> QuerySet[Seat]:
    return (
        Seat.objects.filter(player=player, game__status=GameStatus.FINISHED)
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

"""What a viewer may see of a game: the one projection every payload goes through.

`game_payload` builds the API's `game` object and `event_payload` an event, for one viewer
(a seated player, or a stranger: `seat=None`); `game_payload` takes the state already parsed,
so that one parse serves every viewer. REST responses, the event list, websocket messages and
the staff pages all call these two; hidden information (other hands, the stock, the deck, a
card another seat drew from the stock) is removed here and nowhere else. The game part comes
from the engine's own view (games/engine/view.py), which already holds only what a seat may
see. The shapes they build are games/payloads.py's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, cast

from django.db.models import Q, QuerySet

from accounts.models import Player
from games.engine.cpu import DEFAULT_LEVEL, Level
from games.engine.moves import legal_moves
from games.engine.rules import PLAYERS_PER_DECK, Preset
from games.engine.state import CallYaniv, GameState
from games.engine.view import view
from games.game_rules import GameRules
from games.models import Event, Game, GameStatus, Pool, Seat
from games.payloads import (
    EventData,
    GameData,
    LastRoundData,
    LegalMovesData,
    MoveData,
    RulesCatalogData,
    RulesData,
    SeatData,
    TurnData,
    YouData,
)
from ratings.payloads import player_data

Payload = dict[str, Any]


def viewer_seat(seats: list[Seat], player: Player | None) -> int | None:
    if player is None:
        return None
    for seat in seats:
        if seat.player_id == player.pk:
            return seat.seat
    return None


def may_view(ranked: bool, seat: int | None) -> bool:
    """Seated players see their table; anyone may watch a ranked game as a stranger."""
    return seat is not None or ranked


def game_state(game: Game) -> GameState | None:
    """The engine's state stored in the game row (None while the table waits for players).
    Parsing it costs more than a move (~20 us against ~1 us): read it once, and hand the
    parsed state to `game_payload` for every viewer (a locked game keeps it: games/locks.py)."""
    return None if game.state is None else GameState.from_dict(game.state)


def game_payload(
    game: Game, state: GameState | None, seats: list[Seat], seat: int | None
) -> GameData:
    """The API's `game` object as `seat` sees it, from the game row, its state (as parsed
    from the row, or as the engine has just returned it) and its seats."""
    engine = None if state is None else view(state, seat)
    turn: TurnData | None = None
    if engine is not None and engine["turn"] is not None and game.voided_at is None:
        turn_seat = seats[engine["turn"]]
        shown = game.status == GameStatus.ACTIVE and not turn_seat.cpu_plays
        turn = {
            "seat": engine["turn"],
            "deadline": game.turn_deadline.isoformat() if shown and game.turn_deadline else None,
        }
    you: YouData | None = None
    if seat is not None:
        you = {"seat": seat, "hand": [], "hand_total": 0, "can_call_yaniv": False, "spied": None}
        if engine is not None:
            # `spied` is the engine's only under the spy queen; what it showed this seat.
            you = {**you, **engine["you"]}
    return {
        "id": str(game.id),
        "status": cast(GameStatus, game.status),  # a value of the field's choices
        "ranked": game.ranked,
        "rated": game.ranked and game.rated,
        "pool": Pool(game.pool) if game.ranked and game.pool else None,
        "tournament_id": None if game.tournament_id is None else str(game.tournament_id),
        "rules": shown_rules(game.rules),
        "fairness": game.fairness,
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
        "wild": None if engine is None else engine["wild"],
        "caller": None if engine is None else engine["caller"],
        "pile": [] if engine is None else engine["pile"],
        "stock_count": 0 if engine is None else engine["stock_count"],
        "last_round": None if engine is None else _last_round(engine["last_round"]),
        "standings": None if engine is None else engine["standings"],
        "created_at": game.created_at.isoformat(),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "voided": game.voided_at is not None,
        "voided_at": game.voided_at.isoformat() if game.voided_at else None,
        "void_reason": game.void_reason if game.voided_at else None,
    }


def legal_moves_payload(game: Game, state: GameState, seat: int) -> LegalMovesData:
    """The moves `seat` may make now, from the engine's own list (so that none is refused), each
    as the body `POST .../actions/` takes, less the `seq`: the game's, beside them. Its own
    hand is all they show."""
    moves: list[MoveData] = [
        {"type": "yaniv"}
        if isinstance(move, CallYaniv)
        else {"type": "play", "cards": list(move.cards), "draw": move.draw}
        for move in legal_moves(state, seat)
    ]
    return {"seq": game.seq, "seat": seat, "moves": moves}


_RULE_KEYS = frozenset(GameRules().to_dict())


@cache
def rules_catalog() -> RulesCatalogData:
    """The defaults and every preset, resolved as a game stores them: the same for every
    request, so built once (callers do not change it)."""

    def resolved(rules: GameRules) -> RulesData:
        return cast(RulesData, rules.to_dict())

    return {
        "defaults": resolved(GameRules()),
        "presets": [
            {"preset": preset, "rules": resolved(GameRules.parse({"preset": preset.value}))}
            for preset in Preset
        ],
        "max_players": {str(decks): most for decks, most in PLAYERS_PER_DECK.items()},
        "cpu_levels": list(Level),
        "default_cpu_level": DEFAULT_LEVEL,
    }


def shown_rules(stored: dict[str, Any]) -> RulesData:
    """A game's stored rules with every key: as stored (a table made since docs/rules.md §12 stores
    them resolved), or resolved again for a row from before some key existed."""
    if stored.keys() == _RULE_KEYS:
        return cast(RulesData, stored)
    return cast(RulesData, GameRules.stored(stored).to_dict())


def _is_host(game: Game, seats: list[Seat], seat: int | None) -> bool:
    return seat is not None and seats[seat].player_id == game.host_id


def _seat_payload(seat: Seat, engine: Payload | None) -> SeatData:
    public = None if engine is None else engine["seats"][seat.seat]
    return {
        "seat": seat.seat,
        "player": None if seat.player is None else player_data(seat.player),
        "is_cpu": seat.is_cpu,
        "cpu_level": cast(Level | None, seat.playing_level),
        "away": seat.away,
        "left": seat.left,
        "score": seat.score if public is None else public["score"],
        "eliminated": seat.eliminated if public is None else public["eliminated"],
        "hand_count": 0 if public is None else public["hand_count"],
        # Cards this seat took face up and still holds: public by docs/rules.md §11.
        "known": [] if public is None else public["known"],
        "place": seat.place,
    }


def _last_round(result: Payload | None) -> LastRoundData | None:
    if result is None:
        return None
    # Hands are shown to everyone when a round ends (docs/rules.md §5).
    return {
        "round": result["round"],
        "caller": result["caller"],
        "outcome": result["outcome"],
        "hands": result["hands"],
        "hand_totals": result["hand_totals"],
        "points": result["points"],
        "totals": result["totals"],
        "eliminated": result["eliminated"],
        "wild": result.get("wild"),
    }


# Events that only one seat may see at all, and the key that names it: what the spy queen
# showed its discarder (docs/rules.md §12: "an event shown to them alone"). Every other event is
# shown to everyone, less what `event_payload` removes.
_PRIVATE_EVENTS = {"spied": "seat"}


def shown_to(event: Event, seat: int | None) -> bool:
    """Whether `seat` (None: a stranger) sees `event` at all (`game_events` filters the same)."""
    owner = _PRIVATE_EVENTS.get(event.type)
    return owner is None or (seat is not None and event.payload[owner] == seat)


def events_shown(events: Sequence[Event], seat: int | None) -> list[EventData]:
    """The events of `events` that `seat` sees, as it may see them."""
    return [event_payload(event, seat) for event in events if shown_to(event, seat)]


def event_payload(event: Event, seat: int | None) -> EventData:
    """An event as `seat` may see it: the deck, the stock order and others' draws removed
    (whether `seat` sees the event at all: `shown_to`)."""
    data = event.payload
    shown: Payload = {"seq": event.seq, "at": event.created_at.isoformat(), "type": event.type}
    mine = seat is not None and seat == data.get("seat")
    if event.type == "round_started":
        shown.update(round=data["round"], starter=data["starter"])
        if "wild" in data:  # turned face up: public
            shown["wild"] = data["wild"]
    elif event.type == "played":
        shown.update(seat=data["seat"], by=data["by"], cards=data["cards"], draw=data["draw"])
        if mine:
            shown["drawn"] = data["drawn"]
    elif event.type == "forced_draw":
        # A stock draw like any other (docs/rules.md §12, sevens): the card only to its drawer.
        shown["seat"] = data["seat"]
        if mine:
            shown["drawn"] = data["drawn"]
    elif event.type == "spied":
        shown["seat"] = data["seat"]
        if mine:
            shown["hands"] = data["hands"]
    elif event.type == "reshuffled":
        shown["stock_count"] = len(data["stock"])
    else:
        # Listed, not copied wholesale, so that a new key is hidden until someone decides.
        shown.update({key: data[key] for key in _PUBLIC_KEYS.get(event.type, ()) if key in data})
    return cast(EventData, shown)


_PUBLIC_KEYS: dict[str, tuple[str, ...]] = {
    "game_started": ("players", "seats"),
    "yaniv_called": ("seat",),
    # Hands are shown to everyone when a round ends (docs/rules.md §5).
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
        "wild",
    ),
    "game_ended": ("standings",),
    "player_away": ("seat",),
    "player_returned": ("seat",),
    "player_left": ("seat",),
    "rated": ("ratings",),
    "game_voided": ("reason",),
    "rematch_offered": ("seat", "expires_at"),
    "rematch_accepted": ("seat",),
    "rematch_declined": ("seat",),
    "rematch_expired": (),
    "rematch_started": ("game_id",),
}


def game_events(game: Game, after: int, seat: int | None) -> QuerySet[Event]:
    """The events after seq `after` that `seat` sees (`shown_to`), oldest first."""
    private = Q()
    for event_type, owner in _PRIVATE_EVENTS.items():
        others = Q(type=event_type)
        if seat is not None:
            others &= ~Q(**{f"payload__{owner}": seat})
        private |= others
    return game.events.filter(seq__gt=after).exclude(private).order_by("id")

"""What a viewer may see of a game: the one projection every payload goes through.

`game_payload` builds the API's `game` object and `event_payload` an event, for one viewer
(a seated player, or a stranger: `seat=None`); `game_payload` takes the state already parsed,
so that one parse serves every viewer. REST responses, the event list and websocket
messages all call these two; hidden information (other hands, the stock, the deck, a card
another seat drew from the stock) is removed here and nowhere else. The game part comes from
the engine's own view (games/engine/view.py), which already holds only what a seat may see.

The TypedDicts below are the payloads' one definition: they type what the builders return,
and the OpenAPI schema is made from them (core/payloads.py, games/apis.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from functools import cache
from typing import Annotated, Any, Literal, NotRequired, TypedDict, cast, get_args
from uuid import UUID

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import Player
from core.payloads import Default, Doc, Timestamp, Uuid
from games.engine.cpu import DEFAULT_LEVEL, Level
from games.engine.record import RECORD_FORMAT, record_from_events
from games.engine.rules import (
    PLAYERS_PER_DECK,
    AssafPenaltyRule,
    AssafScores,
    Decks,
    Direction,
    DrawFrom,
    Ending,
    ExactScores,
    Jokers,
    JokerValue,
    Preset,
    Values,
)
from games.engine.state import GameState
from games.engine.view import view
from games.models import Event, Game, GameStatus, Seat
from games.table_rules import TableRules
from ratings.cpu import cpu_display_name, cpu_start
from ratings.payloads import PlayerData, RatedData, player_data
from ratings.results import GameResult, SeatResult
from ratings.selectors import cpu_player_ids

Payload = dict[str, Any]
Cards = list[str]
Outcome = Literal["yaniv", "assaf"]
CpuLevel = Literal["easy", "medium", "hard", "expert"]


class SeatData(TypedDict):
    seat: int
    player: PlayerData | None
    is_cpu: bool
    cpu_level: Annotated[
        CpuLevel | None,
        Doc(
            "The CPU level that plays the seat now: a CPU seat's level, the takeover level"
            " while its player is away or after they left; null while its player plays."
        ),
    ]
    away: Annotated[bool, Doc("Missed a deadline: the CPU plays for them.")]
    left: Annotated[bool, Doc("Left for good: the CPU plays to the end.")]
    score: int
    eliminated: bool
    hand_count: int
    known: Annotated[Cards, Doc("Cards this seat took face up and still holds (public).")]
    place: int | None


class TurnData(TypedDict):
    seat: int
    deadline: Timestamp | None


class YouData(TypedDict):
    seat: int
    hand: Annotated[Cards, Doc("Your hand; nobody else's is ever sent.")]
    hand_total: Annotated[int, Doc("Under this round's values (RULES.md §12: values, wild).")]
    can_call_yaniv: bool
    spied: Annotated[
        dict[str, Cards] | None,
        Doc(
            "Spy queen (RULES.md §12): seat -> the cards you saw in that hand when you"
            " discarded the QD this round and that it has not discarded since (it may hold"
            " more). Null until you have spied this round; only ever yours."
        ),
    ]


class DiscardData(TypedDict):
    cards: Annotated[Cards, Doc("The last discarded group in laid order.")]
    takeable: Annotated[Cards, Doc("Its ends: what the next player may draw.")]
    seat: int | None


class LastRoundData(TypedDict):
    round: int
    caller: int
    outcome: Outcome
    hands: Annotated[dict[str, Cards], Doc("Seat -> hand shown at the end.")]
    hand_totals: list[int | None]
    points: list[int | None]
    totals: list[int]
    eliminated: list[int]
    wild: Annotated[str | None, Doc("That round's wild card (RULES.md §12), or null.")]


class PlaceData(TypedDict):
    seat: int
    place: int


class RulesData(TypedDict):
    """A game's rules, every key resolved (docs/rules.md §9 and §12): the preset the host named, and
    each key as the game plays it, whether the preset, the host or the default set it."""

    preset: Annotated[Preset, Doc("The name chosen; the keys below are already its keys.")]
    call_limit: int
    assaf_penalty: int
    assaf_scores: AssafScores
    jokers: Annotated[Jokers, Doc("Per deck.")]
    exact_scores: ExactScores
    ending: Ending
    decks: Annotated[Decks, Doc("Two decks seat up to 8, one up to 5.")]
    hand_size: int
    direction: Direction
    values: Values
    joker_value: JokerValue
    draw_from: DrawFrom
    final_turns: bool
    first_turn_call: bool
    assaf_penalty_rule: AssafPenaltyRule
    wild_rank: bool
    sevens: bool
    spy_queen: bool
    turn_seconds: Annotated[int | None, Doc("Seconds a player has for a turn; null: no limit.")]


class PresetData(TypedDict):
    preset: Preset
    rules: Annotated[RulesData, Doc("Every key as a table of this preset plays it.")]


class RulesCatalogData(TypedDict):
    """What a host may choose (`GET /rules/`): the defaults, each preset's keys, the seats."""

    defaults: Annotated[RulesData, Doc("Every key a table gets when `POST /games/` names none.")]
    presets: Annotated[list[PresetData], Doc("RULES.md §12's presets, in its order.")]
    max_players: Annotated[
        dict[str, int], Doc('The most seats by `decks` (`"1"`, `"2"`): 5 and 8.')
    ]
    cpu_levels: Annotated[list[CpuLevel], Doc("The levels a CPU seat may play at, weakest first.")]
    default_cpu_level: Annotated[
        CpuLevel, Doc("The level of a CPU seat added without a `level`: `hard`.")
    ]


class GameData(TypedDict):
    """A game as one viewer may see it."""

    id: Uuid
    status: GameStatus
    ranked: bool
    rules: RulesData
    max_players: int
    invite_code: Annotated[str | None, Doc("Shown to the host only.")]
    seq: Annotated[int, Doc("Actions applied so far; send it with an action.")]
    round: int
    seats: list[SeatData]
    turn: TurnData | None
    you: YouData | None
    discard: DiscardData
    wild: Annotated[
        str | None,
        Doc(
            "The round's wild card (RULES.md §12, `wild_rank`): face up beside the stock, out"
            " of play; its rank scores 0 and may stand in a run. Null without one."
        ),
    ]
    caller: Annotated[
        int | None,
        Doc(
            "Final turns (RULES.md §12): the seat that called Yaniv while the others take"
            " their last turn (its hand is frozen); null otherwise."
        ),
    ]
    pile: Annotated[Cards, Doc("Face-up cards under the last group, oldest first.")]
    stock_count: int
    last_round: LastRoundData | None
    standings: list[PlaceData] | None
    created_at: Timestamp
    finished_at: Timestamp | None
    voided: Annotated[
        bool, Doc("Voided by staff: finished, but its result does not count (no ratings).")
    ]
    voided_at: Timestamp | None
    void_reason: Annotated[str | None, Doc("Why staff voided it (null unless voided).")]


EventType = Literal[
    "game_started",
    "round_started",
    "played",
    "forced_draw",
    "spied",
    "reshuffled",
    "yaniv_called",
    "round_ended",
    "player_away",
    "player_returned",
    "player_left",
    "game_ended",
    "rated",
    "game_voided",
    "rematch_offered",
    "rematch_accepted",
    "rematch_declined",
    "rematch_expired",
    "rematch_started",
]


class EventData(TypedDict):
    """An event as one viewer may see it. Each type carries some of the keys after `type`
    (docs/api.md, Events); none is there for every type."""

    seq: int
    at: Timestamp
    type: EventType
    players: NotRequired[Annotated[int, Doc("`game_started`: seats.")]]
    seats: NotRequired[list[dict[str, Any]]]
    round: NotRequired[int]
    starter: NotRequired[Annotated[int, Doc("`round_started`.")]]
    wild: NotRequired[
        Annotated[str, Doc("`round_started`, `round_ended`: the round's wild card, if any.")]
    ]
    seat: NotRequired[int]
    by: NotRequired[Literal["player", "cpu"]]
    cards: NotRequired[Cards]
    draw: NotRequired[str]
    drawn: NotRequired[
        Annotated[
            str, Doc("`played` from the stock, `forced_draw`: only to the seat that drew it.")
        ]
    ]
    stock_count: NotRequired[Annotated[int, Doc("`reshuffled`.")]]
    caller: NotRequired[Annotated[int, Doc("`round_ended`, as below.")]]
    outcome: NotRequired[Outcome]
    hands: NotRequired[
        Annotated[
            dict[str, Cards],
            Doc("`round_ended`: every hand shown; `spied`: the hands the spy saw (to it alone)."),
        ]
    ]
    hand_totals: NotRequired[list[int | None]]
    points: NotRequired[list[int | None]]
    totals: NotRequired[list[int]]
    eliminated: NotRequired[list[int]]
    next_starter: NotRequired[int | None]
    standings: NotRequired[list[PlaceData]]
    ratings: NotRequired[Annotated[list[RatedData], Doc("With `rated`.")]]
    reason: NotRequired[Annotated[str, Doc("`game_voided`.")]]
    expires_at: NotRequired[Annotated[Timestamp, Doc("`rematch_offered`: when it lapses.")]]
    game_id: NotRequired[Annotated[Uuid, Doc("`rematch_started`: the new game.")]]


class RecordData(TypedDict):
    """The game's `yaniv-record/1`: its complete, replayable account (docs/api.md, Record)."""

    format: NotRequired[Annotated[str, Default(RECORD_FORMAT)]]
    rules: dict[str, Any]
    players: int
    seats: list[dict[str, Any]]
    rounds: list[dict[str, Any]]


class GameMessage(TypedDict):
    """`ws /ws/v1/games/{id}/`: the game after `event` (on connect: `event` null)."""

    type: Literal["game"]
    event: EventData | None
    game: GameData


class YourTurnMessage(TypedDict):
    """`ws /ws/v1/me/`: a game of yours waits for your move."""

    type: Literal["your_turn"]
    game_id: Uuid


class SocketErrorMessage(TypedDict):
    """Either socket: the answer to a frame you sent (the sockets only listen)."""

    type: Literal["error"]
    code: str
    detail: str


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
    parsed state to `game_payload` for every viewer (a locked game keeps it: games/table.py)."""
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
        "rules": shown_rules(game.rules),
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


_RULE_KEYS = frozenset(TableRules().to_dict())


@cache
def rules_catalog() -> RulesCatalogData:
    """The defaults and every preset, resolved as a game stores them: the same for every
    request, so built once (callers do not change it)."""

    def resolved(rules: TableRules) -> RulesData:
        return cast(RulesData, rules.to_dict())

    return {
        "defaults": resolved(TableRules()),
        "presets": [
            {"preset": preset, "rules": resolved(TableRules.parse({"preset": preset.value}))}
            for preset in Preset
        ],
        "max_players": {str(decks): most for decks, most in PLAYERS_PER_DECK.items()},
        "cpu_levels": [level.value for level in Level],
        "default_cpu_level": DEFAULT_LEVEL.value,
    }


def shown_rules(stored: dict[str, Any]) -> RulesData:
    """A game's stored rules with every key: as stored (a table made since docs/rules.md §12 stores
    them resolved), or resolved again for a row from before some key existed."""
    if stored.keys() == _RULE_KEYS:
        return cast(RulesData, stored)
    return cast(RulesData, TableRules.stored(stored).to_dict())


def _is_host(game: Game, seats: list[Seat], seat: int | None) -> bool:
    return seat is not None and seats[seat].player_id == game.host_id


def _seat_payload(seat: Seat, engine: Payload | None) -> SeatData:
    public = None if engine is None else engine["seats"][seat.seat]
    return {
        "seat": seat.seat,
        "player": None if seat.player is None else player_data(seat.player),
        "is_cpu": seat.is_cpu,
        "cpu_level": cast(CpuLevel | None, seat.playing_level),
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


def game_record(game: Game, seats: list[Seat]) -> RecordData:
    """The game's `yaniv-record/1`, rebuilt from its event log."""
    events = (
        {"type": event.type, **event.payload, "at": event.created_at.isoformat()}
        for event in game.events.order_by("id")
    )
    record = record_from_events(
        TableRules.stored(game.rules).for_record(),
        len(seats),
        events,
        seats=[
            {
                "player_id": None if seat.player_id is None else str(seat.player_id),
                "display_name": "CPU" if seat.player is None else seat.player.display_name,
                "is_cpu": seat.is_cpu,
            }
            for seat in seats
        ],
    )
    return cast(RecordData, record)


def game_message(event: EventData | None, game: GameData) -> GameMessage:
    """The game socket's message: `game` after `event` (None: the state on connect)."""
    return {"type": "game", "event": event, "game": game}


def socket_error_message(code: str, detail: str) -> SocketErrorMessage:
    return {"type": "error", "code": code, "detail": detail}


def your_turn_message(game_id: UUID) -> YourTurnMessage:
    return {"type": "your_turn", "game_id": str(game_id)}


def game_events(game: Game, after: int, seat: int | None) -> QuerySet[Event]:
    """The events after seq `after` that `seat` sees (`shown_to`), oldest first."""
    private = Q()
    for event_type, owner in _PRIVATE_EVENTS.items():
        others = Q(type=event_type)
        if seat is not None:
            others &= ~Q(**{f"payload__{owner}": seat})
        private |= others
    return game.events.filter(seq__gt=after).exclude(private).order_by("id")


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
    """Finished ranked games of these players (and CPU levels) that ended earlier and are not
    rated yet."""
    seats = Seat.objects.filter(
        Q(player_id__in=player_ids) | Q(is_cpu=True, cpu_level__in=cpu_levels),
        game__ranked=True,
        game__status=GameStatus.FINISHED,
        game__rated_at__isnull=True,
        game__voided_at__isnull=True,
        game__finished_at__lt=finished_at,
    )
    return list(
        seats.order_by("game__finished_at", "game_id").values_list("game_id", flat=True).distinct()
    )


def pending_games() -> QuerySet[Game]:
    """Finished ranked games still waiting for their rating (a voided game never is)."""
    return Game.objects.filter(
        ranked=True, status=GameStatus.FINISHED, rated_at__isnull=True, voided_at__isnull=True
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
    players), in the order they are rated."""
    rows = (
        Seat.objects.filter(
            Q(player__isnull=False) | (Q(is_cpu=True) & ~Q(cpu_level="")),
            game__in=rated_games(),
            place__isnull=False,
        )
        .order_by("game__finished_at", "game_id", "seat")
        .values_list("game_id", "game__finished_at", "player_id", "cpu_level", "seat", "place")
    )
    cpus = cpu_player_ids()
    game: GameResult | None = None
    for game_id, finished_at, player_id, level, number, place in rows.iterator(chunk_size=5000):
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
            game.seats.append(SeatResult(cpus[level], number, place, cpu_start(level)))
    if game is not None:
        yield game


# Fair play, rematches and match histories (docs/api.md, Fair play; docs/api.md) ----------------


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


RematchStatus = Literal["none", "offered", "declined", "expired", "started"]
REMATCH_EVENTS = tuple(name for name in get_args(EventType) if name.startswith("rematch_"))


class RematchData(TypedDict):
    """A finished private game's rematch (docs/api.md, Rematch): the latest offer and where
    it stands. `none`: never offered; `offered`: waiting for `waiting_for`; `declined`,
    `expired`: that offer is over (a new one may be made); `started`: `game_id` is the new
    game."""

    status: RematchStatus
    offered_by: Annotated[int | None, Doc("The seat that made the latest offer.")]
    accepted: Annotated[list[int], Doc("Seats that accepted it (the offering one included).")]
    waiting_for: Annotated[list[int], Doc("Seated humans yet to answer.")]
    expires_at: Timestamp | None
    game_id: Annotated[Uuid | None, Doc("The new game, once `started`.")]


def rematch_events(game: Game) -> list[Event]:
    return list(game.events.filter(type__in=REMATCH_EVENTS).order_by("id"))


def rematch_from_events(
    events: list[Event], human_seats: list[int], now: datetime
) -> tuple[RematchData, Event | None]:
    """Where the rematch of a game stands after its rematch events, and the open offer's
    event (None when no offer is open). An open offer past its `expires_at` is `expired`
    already, whether or not its timeout has written `rematch_expired` yet."""
    data: RematchData = {
        "status": "none",
        "offered_by": None,
        "accepted": [],
        "waiting_for": [],
        "expires_at": None,
        "game_id": None,
    }
    offer: Event | None = None
    for event in events:
        if event.type == "rematch_offered":
            offer = event
            data["status"], data["offered_by"] = "offered", event.payload["seat"]
            data["accepted"] = [event.payload["seat"]]
            data["expires_at"] = event.payload["expires_at"]
        elif event.type == "rematch_accepted" and offer is not None:
            data["accepted"] = [*data["accepted"], event.payload["seat"]]
        elif event.type in {"rematch_declined", "rematch_expired"}:
            offer = None
            data["status"] = "declined" if event.type == "rematch_declined" else "expired"
        elif event.type == "rematch_started":
            offer = None
            data["status"], data["game_id"] = "started", event.payload["game_id"]
    if offer is not None and datetime.fromisoformat(offer.payload["expires_at"]) <= now:
        offer = None
        data["status"] = "expired"
    if data["status"] == "offered":
        data["waiting_for"] = [seat for seat in human_seats if seat not in data["accepted"]]
    return data, offer


def game_rematch(game: Game, seats: list[Seat]) -> RematchData:
    """The rematch of a game as `GET /games/{id}/rematch/` shows it."""
    humans = [seat.seat for seat in seats if seat.player_id is not None]
    return rematch_from_events(rematch_events(game), humans, timezone.now())[0]

"""The shapes of what games send: the REST payloads and the socket messages.

These TypedDicts are each payload's one definition: they type what the builders return (the
projection, games/projection.py, and the reads of games/selectors.py), and the OpenAPI schema
is made from them (core/payloads.py, games/apis.py), so the schema cannot say other than
what the code builds.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypedDict
from uuid import UUID

from core.payloads import Default, Doc, Timestamp, Uuid
from games.engine.cpu import Level
from games.engine.record import RECORD_FORMAT
from games.engine.rules import (
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
from games.models import GameStatus, Pool
from ratings.payloads import PlayerData, RatedData

Cards = list[str]
Outcome = Literal["yaniv", "assaf"]


class SeatData(TypedDict):
    seat: int
    player: PlayerData | None
    is_cpu: bool
    cpu_level: Annotated[
        Level | None,
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
    cpu_levels: Annotated[list[Level], Doc("The levels a CPU seat may play at, weakest first.")]
    default_cpu_level: Annotated[
        Level, Doc("The level of a CPU seat added without a `level`: `hard`.")
    ]


class FairSeatData(TypedDict):
    seat: int
    commitment: Annotated[str, Doc("The lowercase hex SHA-256 of the seat's server seed.")]
    client_seed: str


class FairnessData(TypedDict):
    """A game's fair deal as anyone at it sees it from its start (docs/fairness.md §5)."""

    version: Annotated[str, Doc('"yaniv-fair/1".')]
    seats: Annotated[list[FairSeatData], Doc("The human seats, in seat order.")]


class RevealedSeatData(FairSeatData):
    player_id: Uuid | None
    server_seed: Annotated[str, Doc("The seat's server seed, lowercase hex: 32 bytes.")]


class RevealedFairnessData(TypedDict):
    """A game's fair deal once it has ended: every secret revealed, to check every deck."""

    version: str
    game_seed: Annotated[str, Doc("Lowercase hex: 32 bytes.")]
    seats: list[RevealedSeatData]


class GameData(TypedDict):
    """A game as one viewer may see it."""

    id: Uuid
    status: GameStatus
    ranked: bool
    rated: Annotated[bool, Doc("A ranked game is rated, unless an unrated tournament seated it.")]
    pool: Annotated[
        Pool | None,
        Doc(
            "A ranked game's pool: `ranked` (the human queue's, an arena's) or `bots` (the bot "
            "ladder's: docs/api.md, The bot ladder); null for an unranked table."
        ),
    ]
    tournament_id: Annotated[
        Uuid | None, Doc("The arena tournament that seated this table, or null.")
    ]
    rules: RulesData
    fairness: Annotated[
        FairnessData | None,
        Doc(
            "From the start: the human seats' commitments and client seeds; null before it "
            "(and for a game started before fair deals)."
        ),
    ]
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
    ranked: NotRequired[Annotated[bool, Doc("A ranked table: its seating is the seed's.")]]
    seats: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    fairness: NotRequired[
        Annotated[
            RevealedFairnessData,
            Doc("The revealed seeds (docs/fairness.md); absent for a game before fair deals."),
        ]
    ]


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
    """Any socket: the answer to a frame it cannot take (the sockets only listen), or why it
    closes (`invalid`: an `after` that is not a seq, before a close with 4400)."""

    type: Literal["error"]
    code: str
    detail: str


class MoveData(TypedDict):
    """One legal move: the body `POST .../actions/` takes, less its `seq`."""

    type: Literal["play", "yaniv"]
    cards: NotRequired[Annotated[Cards, Doc("`play`: the group to discard, in laid order.")]]
    draw: NotRequired[Annotated[str, Doc('`play`: `"stock"` or the end card to take.')]]


class LegalMovesData(TypedDict):
    """Every move the seat in turn may make now (`GET .../legal-moves/`)."""

    seq: Annotated[int, Doc("The game's seq they are legal at: send it with the move.")]
    seat: int
    moves: Annotated[
        list[MoveData],
        Doc(
            "`yaniv` first when allowed, then each group in every laid order the rules tell"
            " apart, with each allowed draw."
        ),
    ]


class KeepaliveMessage(TypedDict):
    """Every listening socket, after `YANIV_WS_KEEPALIVE_SECONDS` (20) of silence: the link is
    alive. Needs no answer; a client that hears nothing, not even this, for 60 s reconnects."""

    type: Literal["keepalive"]


class PongMessage(TypedDict):
    """Every listening socket: the answer to a client's `{"type": "ping"}`."""

    type: Literal["pong"]


RematchStatus = Literal["none", "offered", "declined", "expired", "started"]


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


def game_message(event: EventData | None, game: GameData) -> GameMessage:
    """The game socket's message: `game` after `event` (None: the state on connect)."""
    return {"type": "game", "event": event, "game": game}


def socket_error_message(code: str, detail: str) -> SocketErrorMessage:
    return {"type": "error", "code": code, "detail": detail}


def your_turn_message(game_id: UUID) -> YourTurnMessage:
    return {"type": "your_turn", "game_id": str(game_id)}

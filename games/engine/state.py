"""The state of a game and the one function that advances it (RULES.md §3-§7).

A ``GameState`` holds the current round only, never the history, so loading, applying and
saving cost the same at move 10 and move 500. States are values: ``apply`` returns a new state
that shares every unchanged part with the old one and never mutates its input. Treat every
attribute as read-only.
"""

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from games.engine.cards import HAND_SIZE, VALUE, hand_total, is_card
from games.engine.errors import IllegalMove, Reason
from games.engine.groups import group_error
from games.engine.rng import Rng
from games.engine.rules import Rules
from games.engine.scoring import Outcome, Standings, clockwise, score_round

STOCK = "stock"
STATE_FORMAT = "yaniv-state/1"
MIN_PLAYERS = 2
MAX_PLAYERS = 5

EngineEvent = dict[str, Any]
"""A plain JSON-able dict with a ``type``; full information, for the service's log."""

# Loading maps each code to the interned one: unknown codes fail there, and the comparisons of
# a loaded state's cards often succeed on identity alone.
_CANONICAL: dict[str, str] = {code: code for code in VALUE}
_blank = object.__new__
# Searching ``shown`` before each append would cost more than the append itself; repeats and
# cards since laid are dropped instead whenever it grows this long, which keeps it bounded.
_SHOWN_LIMIT = 32


class Play(NamedTuple):
    seat: int
    cards: Sequence[str]
    """The discarded group in laid order (RULES.md §4.1)."""
    draw: str
    """``"stock"`` or the code of the card taken from the previous group."""


class CallYaniv(NamedTuple):
    seat: int


Action = Play | CallYaniv


class RoundResult(NamedTuple):
    """How a round ended; public once it has (the hands are shown)."""

    round: int
    caller: int
    outcome: Outcome
    hands: tuple[tuple[str, ...] | None, ...]
    """Per seat the hand shown; None for seats that were already out."""
    hand_totals: tuple[int | None, ...]
    points: tuple[int | None, ...]
    """What each seat scored before exact-score drops."""
    totals: tuple[int, ...]
    """Running totals after the drops."""
    eliminated: tuple[int, ...]
    next_starter: int | None

    def to_dict(self) -> dict[str, Any]:
        """The ``round_ended`` payload: ``hands`` keyed by seat as a string, as in JSON."""
        return {
            "round": self.round,
            "caller": self.caller,
            "outcome": self.outcome,
            "hands": _shown_hands(self.hands),
            "hand_totals": list(self.hand_totals),
            "points": list(self.points),
            "totals": list(self.totals),
            "eliminated": list(self.eliminated),
            "next_starter": self.next_starter,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RoundResult":
        shown = data["hands"]
        return cls(
            int(data["round"]),
            int(data["caller"]),
            data["outcome"],
            tuple(
                _cards(shown[str(seat)]) if str(seat) in shown else None
                for seat in range(len(data["totals"]))
            ),
            tuple(data["hand_totals"]),
            tuple(data["points"]),
            tuple(data["totals"]),
            tuple(data["eliminated"]),
            data["next_starter"],
        )


def _shown_hands(hands: tuple[tuple[str, ...] | None, ...]) -> dict[str, list[str]]:
    shown = {}
    for seat, hand in enumerate(hands):
        if hand is not None:
            shown[str(seat)] = list(hand)
    return shown


class Table(NamedTuple):
    """What stays the same for a whole round: the rules, the seats and the scores."""

    rules: Rules
    players: int
    round: int
    """1-based number of the current (or, once finished, the last) round."""
    starter: int
    totals: tuple[int, ...]
    out_round: tuple[int | None, ...]
    """Per seat, the round in which it was eliminated, or None while it plays."""
    last_round: RoundResult | None
    standings: Standings | None
    """Final (seat, place) pairs once the game is over."""


class GameState:
    """One game between two actions. Build it with ``start_game``, advance it with ``apply``.

    A value: nothing changes a state once built (``replace`` makes a changed copy).
    """

    # A slotted class rather than a NamedTuple: Python 3.11 specialises slot reads and
    # writes, and apply reads and writes these once per action.
    __slots__ = (
        "group",
        "group_seat",
        "hands",
        "next_seat",
        "pile",
        "shown",
        "stock",
        "stock_pos",
        "table",
        "turn",
    )

    table: Table
    turn: int | None
    """The seat to act; None once the game is over."""
    hands: tuple[tuple[str, ...], ...]
    """Per seat; an eliminated seat holds nothing."""
    stock: tuple[str, ...]
    stock_pos: int
    """The stock is ``stock[stock_pos:]``, top first: drawing moves the index, copies nothing."""
    pile: tuple[str, ...]
    """Face-up discards under the last group, oldest first (what a reshuffle takes)."""
    group: tuple[str, ...]
    """The last discarded group in laid order (at the deal: the face-up card)."""
    group_seat: int | None
    """Who discarded ``group``; None for the face-up card of the deal."""
    shown: tuple[str, ...]
    """Cards taken face up from the discard this round: whoever holds one holds it in public
    (``known``). A reshuffle removes what it sends back to the stock, the one way such a card
    could reach a hand unseen. Appended to without a search (``_SHOWN_LIMIT``)."""
    next_seat: tuple[int, ...]
    """Derived from ``table.out_round``: the active seat clockwise after each seat."""

    def __init__(
        self,
        table: Table,
        turn: int | None,
        hands: tuple[tuple[str, ...], ...],
        stock: tuple[str, ...],
        stock_pos: int,
        pile: tuple[str, ...],
        group: tuple[str, ...],
        group_seat: int | None,
        shown: tuple[str, ...],
    ) -> None:
        self.table = table
        self.turn = turn
        self.hands = hands
        self.stock = stock
        self.stock_pos = stock_pos
        self.pile = pile
        self.group = group
        self.group_seat = group_seat
        self.shown = shown
        self.next_seat = _next_seats(table.out_round)

    def replace(self, **changes: Any) -> "GameState":
        """A copy with some attributes changed, like ``dataclasses.replace``."""
        fields = {name: getattr(self, name) for name in self.__slots__ if name != "next_seat"}
        return GameState(**{**fields, **changes})

    @property
    def known(self) -> tuple[tuple[str, ...], ...]:
        """Per seat, the cards it took face up from the discard this round and still holds."""
        return tuple(
            tuple(dict.fromkeys(card for card in self.shown if card in hand)) for hand in self.hands
        )

    @property
    def rules(self) -> Rules:
        return self.table.rules

    @property
    def players(self) -> int:
        return self.table.players

    @property
    def round(self) -> int:
        return self.table.round

    @property
    def starter(self) -> int:
        return self.table.starter

    @property
    def totals(self) -> tuple[int, ...]:
        return self.table.totals

    @property
    def out_round(self) -> tuple[int | None, ...]:
        return self.table.out_round

    @property
    def last_round(self) -> RoundResult | None:
        return self.table.last_round

    @property
    def standings(self) -> Standings | None:
        return self.table.standings

    @property
    def finished(self) -> bool:
        return self.table.standings is not None

    @property
    def stock_count(self) -> int:
        return len(self.stock) - self.stock_pos

    @property
    def active_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, out in enumerate(self.table.out_round) if out is None)

    def hand_total(self, seat: int) -> int:
        return hand_total(self.hands[seat])

    def can_call_yaniv(self, seat: int) -> bool:
        return seat == self.turn and self.hand_total(seat) <= self.table.rules.call_limit

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON types; ``GameState.from_dict`` reads it back."""
        table = self.table
        return {
            "format": STATE_FORMAT,
            "rules": table.rules.to_dict(),
            "players": table.players,
            "round": table.round,
            "starter": table.starter,
            "turn": self.turn,
            "hands": [list(hand) for hand in self.hands],
            "stock": list(self.stock[self.stock_pos :]),
            "pile": list(self.pile),
            "group": list(self.group),
            "group_seat": self.group_seat,
            "known": [list(cards) for cards in self.known],
            "totals": list(table.totals),
            "out_round": list(table.out_round),
            "last_round": None if table.last_round is None else table.last_round.to_dict(),
            "standings": standings_list(table.standings),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "GameState":
        """Load what ``to_dict`` wrote. The service's own data: checked for shape, not replayed."""
        if data.get("format") != STATE_FORMAT:
            raise ValueError(f"not a {STATE_FORMAT} state")
        players = int(data["players"])
        out_round = tuple(None if out is None else int(out) for out in data["out_round"])
        last_round = data["last_round"]
        standings = data["standings"]
        table = Table(
            rules=Rules.from_dict(data["rules"]),
            players=players,
            round=int(data["round"]),
            starter=int(data["starter"]),
            totals=tuple(int(total) for total in data["totals"]),
            out_round=out_round,
            last_round=None if last_round is None else RoundResult.from_dict(last_round),
            standings=None
            if standings is None
            else tuple((int(entry["seat"]), int(entry["place"])) for entry in standings),
        )
        state = cls(
            table=table,
            turn=None if data["turn"] is None else int(data["turn"]),
            hands=tuple(_cards(hand) for hand in data["hands"]),
            stock=_cards(data["stock"]),
            stock_pos=0,
            pile=_cards(data["pile"]),
            group=_cards(data["group"]),
            group_seat=None if data["group_seat"] is None else int(data["group_seat"]),
            shown=_cards([card for cards in data["known"] for card in cards]),
        )
        if not len(state.hands) == len(data["known"]) == len(table.totals) == players:
            raise ValueError("per-seat lists do not match the number of players")
        return state


def _cards(codes: Sequence[str]) -> tuple[str, ...]:
    try:
        return tuple(_CANONICAL[code] for code in codes)
    except (KeyError, TypeError) as error:
        raise ValueError(f"unknown card in {codes!r}") from error


def _next_seats(out_round: Sequence[int | None]) -> tuple[int, ...]:
    players = len(out_round)
    following = []
    for seat in range(players):
        after = (seat + 1) % players
        while out_round[after] is not None and after != seat:
            after = (after + 1) % players
        following.append(after)
    return tuple(following)


def standings_list(standings: Standings | None) -> list[dict[str, int]] | None:
    if standings is None:
        return None
    return [{"seat": seat, "place": place} for seat, place in standings]


def start_game(players: int, rules: Rules, rng: Rng) -> tuple[GameState, list[EngineEvent]]:
    """A new game: a random first starter, then the first deal (RULES.md §3)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}")
    starter = rng.randrange(players)
    out_round: tuple[int | None, ...] = (None,) * players
    table = Table(rules, players, 1, starter, (0,) * players, out_round, None, None)
    state, event = _deal(table, rng)
    return state, [event]


def _deal(table: Table, rng: Rng) -> tuple[GameState, EngineEvent]:
    """The first state of the round that ``table`` describes: a fresh deck, dealt."""
    players = table.players
    out_round = table.out_round
    deck = list(table.rules.deck)
    rng.shuffle(deck)
    seats = [seat for seat in clockwise(table.starter, players) if out_round[seat] is None]
    hands: list[tuple[str, ...]] = [()] * players
    dealt = len(seats) * HAND_SIZE
    # One card at a time round-robin from the starter: seat k of the order gets every
    # len(seats)-th card starting at index k.
    for index, seat in enumerate(seats):
        hands[seat] = tuple(deck[index : dealt : len(seats)])
    state = GameState(
        table,
        table.starter,
        tuple(hands),
        tuple(deck[dealt + 1 :]),
        0,
        (),
        (deck[dealt],),
        None,
        (),
    )
    event = {"type": "round_started", "round": table.round, "starter": table.starter, "deck": deck}
    return state, event


def apply(state: GameState, action: Action, rng: Rng) -> tuple[GameState, list[EngineEvent]]:
    """The state after ``action``, and what happened; raises ``IllegalMove`` and leaves
    ``state`` untouched when the rules forbid it. ``rng`` shuffles the stock when a draw
    empties it and deals the next round when this action ends one."""
    if isinstance(action, Play):
        return apply_play(state, action.seat, action.cards, action.draw, rng)
    return apply_yaniv(state, action.seat, rng)


def apply_play(
    state: GameState, seat: int, cards: Sequence[str], draw: str, rng: Rng
) -> tuple[GameState, list[EngineEvent]]:
    """``apply`` for ``Play(seat, cards, draw)``, taking the fields as they are: replay runs
    every recorded action through here and builds no action object for it."""
    # The common path is kept inline and allocation-light: only what changes is copied.
    if seat != state.turn:
        raise _not_to_act(state)
    hands = state.hands
    hand = hands[seat]
    if len(cards) == 1:
        try:
            index = hand.index(cards[0])
        except ValueError:
            raise IllegalMove(_missing_reason(cards[0])) from None
        kept = list(hand)
        del kept[index]
    else:
        kept = _discard_group(hand, cards)

    group = state.group
    stock = state.stock
    stock_pos = state.stock_pos
    pile = state.pile
    shown = state.shown
    if draw == STOCK:
        drawn = stock[stock_pos]
        stock_pos += 1
        pile += group
    else:
        if draw == group[0]:
            drawn = group[0]
            rest = group[1:]
        elif draw == group[-1]:
            drawn = group[-1]
            rest = group[:-1]
        else:
            raise IllegalMove(Reason.UNTAKEABLE_DRAW)
        pile += rest
        if len(shown) >= _SHOWN_LIMIT:
            shown = _still_held(shown, hands)
        shown += (drawn,)
    kept.append(drawn)

    events: list[EngineEvent] = [
        {"type": "played", "seat": seat, "cards": list(cards), "draw": draw, "drawn": drawn}
    ]
    if stock_pos == len(stock):
        fresh = list(pile)
        rng.shuffle(fresh)
        stock = tuple(fresh)
        stock_pos = 0
        pile = ()
        shown = _still_held(shown, hands)
        events.append({"type": "reshuffled", "stock": fresh})

    changed = list(hands)
    changed[seat] = tuple(kept)
    # Not `GameState(...)`: its `__init__` derives `next_seat` from the table's eliminations,
    # which a play never changes. Going through it made each action some 30% slower
    # (bench/engine: replay 2.8 -> 3.7 us per action, below its 300,000 actions/s target).
    new = _blank(GameState)
    new.table = state.table
    new.turn = state.next_seat[seat]
    new.hands = tuple(changed)
    new.stock = stock
    new.stock_pos = stock_pos
    new.pile = pile
    new.group = tuple(cards)
    new.group_seat = seat
    new.shown = shown
    new.next_seat = state.next_seat
    return new, events


def _missing_reason(card: object) -> Reason:
    return Reason.CARD_NOT_IN_HAND if is_card(card) else Reason.UNKNOWN_CARD


def _still_held(shown: tuple[str, ...], hands: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """``shown`` without repeats and without cards no hand holds any more."""
    held = {card for hand in hands for card in hand}
    return tuple(dict.fromkeys(card for card in shown if card in held))


def _discard_group(hand: tuple[str, ...], cards: Sequence[str]) -> list[str]:
    """What stays in ``hand`` once the multi-card group ``cards`` is laid; checks the group."""
    for card in cards:
        if card not in hand:
            raise IllegalMove(_missing_reason(card))
    if len(set(cards)) != len(cards):
        raise IllegalMove(Reason.DUPLICATE_CARD)
    reason = group_error(cards)
    if reason is not None:
        raise IllegalMove(reason)
    return [card for card in hand if card not in cards]


def _not_to_act(state: GameState) -> IllegalMove:
    # Nobody's turn is the mark of a finished game.
    return IllegalMove(Reason.GAME_OVER if state.turn is None else Reason.NOT_YOUR_TURN)


def apply_yaniv(state: GameState, seat: int, rng: Rng) -> tuple[GameState, list[EngineEvent]]:
    """``apply`` for ``CallYaniv(seat)``."""
    if seat != state.turn:
        raise _not_to_act(state)
    table = state.table
    rules = table.rules
    hands_shown: list[tuple[str, ...] | None] = []
    hand_totals: list[int | None] = []
    for hand, out in zip(state.hands, table.out_round, strict=True):
        active = out is None
        hands_shown.append(hand if active else None)
        hand_totals.append(hand_total(hand) if active else None)
    caller_total = hand_totals[seat]
    if caller_total is None or caller_total > rules.call_limit:
        raise IllegalMove(Reason.YANIV_ABOVE_LIMIT)
    score = score_round(rules, seat, hand_totals, table.totals, table.out_round, table.round)
    result = RoundResult(
        table.round,
        seat,
        score.outcome,
        tuple(hands_shown),
        tuple(hand_totals),
        score.points,
        score.totals,
        score.eliminated,
        score.next_starter,
    )
    events: list[EngineEvent] = [
        {"type": "yaniv_called", "seat": seat},
        {"type": "round_ended", **result.to_dict()},
    ]
    if score.next_starter is None:
        table = Table(
            rules,
            table.players,
            table.round,
            table.starter,
            score.totals,
            score.out_round,
            result,
            score.standings,
        )
        events.append({"type": "game_ended", "standings": standings_list(score.standings)})
        return state.replace(table=table, turn=None), events
    table = Table(
        rules,
        table.players,
        table.round + 1,
        score.next_starter,
        score.totals,
        score.out_round,
        result,
        None,
    )
    new, dealt = _deal(table, rng)
    events.append(dealt)
    return new, events

"""The state of a game and the one function that advances it (docs/rules.md §3-§7).

A ``GameState`` holds the current round only, never the history, so loading, applying and
saving cost the same at move 10 and move 500. States are values: ``apply`` returns a new state
that shares every unchanged part with the old one and never mutates its input. Treat every
attribute as read-only.
"""

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from games.engine.cards import RANK, VALUE, is_card
from games.engine.errors import IllegalMove, Reason
from games.engine.groups import group_error
from games.engine.rng import Rng
from games.engine.rules import DrawFrom, Rules
from games.engine.scoring import Outcome, Standings, score_round

STOCK = "stock"
STATE_FORMAT = "yaniv-state/1"
MIN_PLAYERS = 2
MAX_PLAYERS = 8
"""With two decks (RULES.md §12); ``Rules.max_players`` is a game's own limit."""

EngineEvent = dict[str, Any]
"""A plain JSON-able dict with a ``type``; full information, for the service's log. Besides
the types of API.md: ``forced_draw`` (``seat``, ``drawn``: a card the sevens rule made that seat
draw from the stock, private to it like any stock draw) and ``spied`` (``seat``, ``hands``: the
other active hands the spy queen showed that seat, by seat as a string; for it alone)."""

Spied = tuple[tuple[str, ...] | None, ...]
"""What one seat knows of the others' hands from the spy queen: per seat, the cards it saw
there and that seat has not discarded since (None: itself, or a seat out of the round)."""

# Loading maps each code to the interned one: unknown codes fail there, and the comparisons of
# a loaded state's cards often succeed on identity alone.
_CANONICAL: dict[str, str] = {code: code for code in VALUE}
_canonical = _CANONICAL.__getitem__
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
    wild: str | None = None
    """The round's wild card (RULES.md §12 ``wild_rank``); None without one."""

    def to_dict(self) -> dict[str, Any]:
        """The ``round_ended`` payload: ``hands`` keyed by seat as a string, as in JSON;
        ``wild`` only in a round that had a wild card."""
        data: dict[str, Any] = {
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
        if self.wild is not None:
            data["wild"] = self.wild
        return data

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
            data.get("wild"),
        )


def _shown_hands(hands: tuple[tuple[str, ...] | None, ...]) -> dict[str, list[str]]:
    shown = {}
    for seat, hand in enumerate(hands):
        if hand is not None:
            shown[str(seat)] = list(hand)
    return shown


class RoundSetup(NamedTuple):
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
    wild: str | None = None
    """The round's wild card, face up beside the stock and out of play (RULES.md §12); None
    without one."""
    wild_rank: int = 0
    """The rank ``wild`` makes wild (0: none; a joker turned up makes none wild)."""

    @property
    def values(self) -> Mapping[str, int]:
        """The points of every card this round."""
        return self.rules.card_values(self.wild)


class RoundExtra(NamedTuple):
    """See ``GameState``'s properties of the same names."""

    caller: int | None
    turns: int
    spied: tuple[Spied | None, ...]


class GameState:
    """One game between two actions. Build it with ``start_game``, advance it with ``apply``.

    A value: nothing changes a state once built (``replace`` makes a changed copy).
    """

    # A slotted class rather than a NamedTuple: Python 3.11 specialises slot reads and
    # writes, and apply reads and writes these once per action.
    __slots__ = (
        "extra",
        "group",
        "group_seat",
        "hands",
        "next_seat",
        "pile",
        "reshuffles",
        "setup",
        "shown",
        "stock",
        "stock_pos",
        "turn",
    )

    setup: RoundSetup
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
    shown: tuple[tuple[str, ...], ...]
    """Per seat, the cards it took face up from the discard this round: while it holds one,
    it holds it in public (``known``). A reshuffle removes what it sends back to the stock,
    with one deck the one way such a card could reach a hand unseen; with two, where a copy
    may come from the stock, a discard also removes its codes from its discarder's list.
    Appended to without a search (``_SHOWN_LIMIT``)."""
    extra: "RoundExtra | None"
    """What the variants of RULES.md §12 follow through a round (``caller``, ``turns``,
    ``spied``); None where no rule needs it, which keeps a play of §1-§11 on the fast path."""
    next_seat: tuple[int, ...]
    """Derived from ``setup.out_round``: the next active seat after each seat, in the
    direction of play."""
    reshuffles: int
    """Reshuffles made this round: a fair deal names each by its number (docs/fairness.md)."""

    def __init__(
        self,
        setup: RoundSetup,
        turn: int | None,
        hands: tuple[tuple[str, ...], ...],
        stock: tuple[str, ...],
        stock_pos: int,
        pile: tuple[str, ...],
        group: tuple[str, ...],
        group_seat: int | None,
        shown: tuple[tuple[str, ...], ...],
        caller: int | None = None,
        turns: int = 0,
        spied: tuple[Spied | None, ...] = (),
        reshuffles: int = 0,
    ) -> None:
        self.setup = setup
        self.turn = turn
        self.hands = hands
        self.stock = stock
        self.stock_pos = stock_pos
        self.pile = pile
        self.group = group
        self.group_seat = group_seat
        self.shown = shown
        needed = caller is not None or spied or setup.rules.variant_play
        self.extra = RoundExtra(caller, turns, spied) if needed else None
        self.next_seat = _next_seats(setup.out_round, setup.rules.direction.step)
        self.reshuffles = reshuffles

    def replace(self, **changes: Any) -> "GameState":
        """A copy with some attributes changed, like ``dataclasses.replace``."""
        fields = {name: getattr(self, name) for name in _FIELDS}
        return GameState(**{**fields, **changes})

    @property
    def caller(self) -> int | None:
        """Under ``final_turns``: the seat whose call froze its hand while the others take
        their last turn; None otherwise."""
        return None if self.extra is None else self.extra.caller

    @property
    def turns(self) -> int:
        """Plays made this round, where a rule asks (``first_turn_call: false``): a seat's
        first turn is among the first ``len(active)``. Else 0."""
        return 0 if self.extra is None else self.extra.turns

    @property
    def spied(self) -> tuple[Spied | None, ...]:
        """Per seat, what the spy queen showed it this round (None: nothing); ``()`` while
        nobody has spied."""
        return () if self.extra is None else self.extra.spied

    @property
    def known(self) -> tuple[tuple[str, ...], ...]:
        """Per seat, the cards it took face up from the discard this round and still holds
        (a code as many times as both say)."""
        return tuple(
            _held(shown, hand) if shown else ()
            for shown, hand in zip(self.shown, self.hands, strict=True)
        )

    @property
    def rules(self) -> Rules:
        return self.setup.rules

    @property
    def players(self) -> int:
        return self.setup.players

    @property
    def round(self) -> int:
        return self.setup.round

    @property
    def starter(self) -> int:
        return self.setup.starter

    @property
    def totals(self) -> tuple[int, ...]:
        return self.setup.totals

    @property
    def out_round(self) -> tuple[int | None, ...]:
        return self.setup.out_round

    @property
    def last_round(self) -> RoundResult | None:
        return self.setup.last_round

    @property
    def standings(self) -> Standings | None:
        return self.setup.standings

    @property
    def finished(self) -> bool:
        return self.setup.standings is not None

    @property
    def stock_count(self) -> int:
        return len(self.stock) - self.stock_pos

    @property
    def active_seats(self) -> tuple[int, ...]:
        return tuple(seat for seat, out in enumerate(self.setup.out_round) if out is None)

    @property
    def wild(self) -> str | None:
        return self.setup.wild

    def hand_total(self, seat: int) -> int:
        """The points of ``seat``'s hand this round."""
        return sum(map(self.setup.values.__getitem__, self.hands[seat]))

    def call_refusal(self, seat: int) -> Reason | None:
        """Why ``seat``, whose turn it is, may not call Yaniv now; None when it may."""
        rules = self.setup.rules
        if self.caller is not None:
            return Reason.CALL_IN_FINAL_TURNS
        if self.hand_total(seat) > rules.call_limit:
            return Reason.YANIV_ABOVE_LIMIT
        if not rules.first_turn_call and self.turns < len(self.active_seats):
            return Reason.CALL_ON_FIRST_TURN
        return None

    def can_call_yaniv(self, seat: int) -> bool:
        return seat == self.turn and self.call_refusal(seat) is None

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON types; ``GameState.from_dict`` reads it back."""
        setup = self.setup
        return {
            "format": STATE_FORMAT,
            "rules": setup.rules.to_dict(),
            "players": setup.players,
            "round": setup.round,
            "starter": setup.starter,
            "turn": self.turn,
            "hands": [list(hand) for hand in self.hands],
            "stock": list(self.stock[self.stock_pos :]),
            "pile": list(self.pile),
            "group": list(self.group),
            "group_seat": self.group_seat,
            "known": [list(cards) for cards in self.known],
            "wild": setup.wild,
            "caller": self.caller,
            "turns": self.turns,
            "spied": [_spied_list(entry) for entry in self.spied],
            "reshuffles": self.reshuffles,
            "totals": list(setup.totals),
            "out_round": list(setup.out_round),
            "last_round": None if setup.last_round is None else setup.last_round.to_dict(),
            "standings": standings_list(setup.standings),
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
        setup = RoundSetup(
            rules=Rules.from_dict(data["rules"]),
            players=players,
            round=int(data["round"]),
            starter=int(data["starter"]),
            totals=tuple(map(int, data["totals"])),
            out_round=out_round,
            last_round=None if last_round is None else RoundResult.from_dict(last_round),
            standings=None
            if standings is None
            else tuple((int(entry["seat"]), int(entry["place"])) for entry in standings),
            wild=None if data.get("wild") is None else _cards([data["wild"]])[0],
        )
        if setup.wild is not None:
            setup = setup._replace(wild_rank=RANK[setup.wild])
        caller = data.get("caller")
        state = cls(
            setup=setup,
            turn=None if data["turn"] is None else int(data["turn"]),
            hands=tuple(_cards(hand) for hand in data["hands"]),
            stock=_cards(data["stock"]),
            stock_pos=0,
            pile=_cards(data["pile"]),
            group=_cards(data["group"]),
            group_seat=None if data["group_seat"] is None else int(data["group_seat"]),
            shown=tuple(_cards(cards) for cards in data["known"]),
            caller=None if caller is None else int(caller),
            turns=int(data.get("turns", 0)),
            spied=tuple(_spied_tuple(entry) for entry in data.get("spied", ())),
            reshuffles=int(data.get("reshuffles", 0)),
        )
        if not len(state.hands) == len(data["known"]) == len(setup.totals) == players:
            raise ValueError("per-seat lists do not match the number of players")
        return state


def _cards(codes: Sequence[str]) -> tuple[str, ...]:
    try:
        return tuple(map(_canonical, codes))
    except (KeyError, TypeError) as error:
        raise ValueError(f"unknown card in {codes!r}") from error


_FIELDS = (
    "setup",
    "turn",
    "hands",
    "stock",
    "stock_pos",
    "pile",
    "group",
    "group_seat",
    "shown",
    "caller",
    "turns",
    "spied",
    "reshuffles",
)
"""What ``GameState`` is built from (``replace``)."""


def _spied_list(entry: Spied | None) -> list[list[str] | None] | None:
    return None if entry is None else [None if cards is None else list(cards) for cards in entry]


def _spied_tuple(entry: Sequence[Sequence[str] | None] | None) -> Spied | None:
    if entry is None:
        return None
    return tuple(None if cards is None else _cards(cards) for cards in entry)


def _held(shown: Sequence[str], hand: Sequence[str]) -> tuple[str, ...]:
    """The cards of ``shown`` that ``hand`` holds, in order: a code as often as both hold it."""
    held: list[str] = []
    for card in shown:
        if card in hand and held.count(card) < hand.count(card):
            held.append(card)
    return tuple(held)


def _replaced(per_seat: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    """``per_seat`` with ``value`` for ``seat``."""
    return (*per_seat[:seat], value, *per_seat[seat + 1 :])


def _without(cards: Sequence[str], removed: Sequence[str]) -> tuple[str, ...]:
    """``cards`` less one copy of each code of ``removed`` that it holds."""
    left = list(cards)
    for card in removed:
        if card in left:
            left.remove(card)
    return tuple(left)


def _next_seats(out_round: Sequence[int | None], step: int) -> tuple[int, ...]:
    players = len(out_round)
    following = []
    for seat in range(players):
        after = (seat + step) % players
        while out_round[after] is not None and after != seat:
            after = (after + step) % players
        following.append(after)
    return tuple(following)


def standings_list(standings: Standings | None) -> list[dict[str, int]] | None:
    if standings is None:
        return None
    return [{"seat": seat, "place": place} for seat, place in standings]


def start_game(players: int, rules: Rules, rng: Rng) -> tuple[GameState, list[EngineEvent]]:
    """A new game: a random first starter, then the first deal (docs/rules.md §3)."""
    if not MIN_PLAYERS <= players <= rules.max_players:
        raise ValueError(f"players must be {MIN_PLAYERS} to {rules.max_players}")
    draw_starter = getattr(rng, "first_starter", None)  # a fair deal's labelled draw
    starter = rng.randrange(players) if draw_starter is None else draw_starter(players)
    out_round: tuple[int | None, ...] = (None,) * players
    setup = RoundSetup(rules, players, 1, starter, (0,) * players, out_round, None, None)
    state, event = _deal(setup, rng)
    return state, [event]


def _deal(setup: RoundSetup, rng: Rng) -> tuple[GameState, EngineEvent]:
    """The first state of the round that ``setup`` describes: a fresh deck, dealt, the face-up
    card turned, and under ``wild_rank`` the wild card beside the stock."""
    players = setup.players
    out_round = setup.out_round
    rules = setup.rules
    deck = list(rules.deck)
    deal = getattr(rng, "deal_deck", None)  # a fair deal's labelled stream (docs/fairness.md)
    if deal is None:
        rng.shuffle(deck)
    else:
        deal(setup.round, deck)
    order = rules.direction.order(setup.starter, players)
    seats = [seat for seat in order if out_round[seat] is None]
    hands: list[tuple[str, ...]] = [()] * players
    dealt = len(seats) * rules.hand_size
    # One card at a time round-robin from the starter: seat k of the order gets every
    # len(seats)-th card starting at index k.
    for index, seat in enumerate(seats):
        hands[seat] = tuple(deck[index : dealt : len(seats)])
    event = {"type": "round_started", "round": setup.round, "starter": setup.starter, "deck": deck}
    stock_from = dealt + 1
    if rules.wild_rank:
        setup = setup._replace(wild=deck[stock_from], wild_rank=RANK[deck[stock_from]])
        event["wild"] = setup.wild
        stock_from += 1
    state = GameState(
        setup,
        setup.starter,
        tuple(hands),
        tuple(deck[stock_from:]),
        0,
        (),
        (deck[dealt],),
        None,
        ((),) * players,
    )
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
    setup = state.setup
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
        kept = _discard_group(hand, cards, setup.wild_rank, setup.rules.codes_repeat)

    group = state.group
    stock = state.stock
    stock_pos = state.stock_pos
    pile = state.pile
    shown = state.shown
    if setup.rules.codes_repeat and shown[seat]:
        # A copy of a code taken face up may since have come back blind: a discard of the
        # code takes it off what is known.
        shown = _replaced(shown, seat, _without(shown[seat], cards))
    if draw == STOCK:
        try:
            drawn = stock[stock_pos]
        except IndexError:  # forced draws emptied stock and pile (docs/rules.md §12)
            raise IllegalMove(Reason.STOCK_EMPTY) from None
        stock_pos += 1
        pile += group
    else:
        if draw == group[0]:
            drawn = group[0]
            rest = group[1:]
        elif draw == group[-1]:
            drawn = group[-1]
            rest = group[:-1]
        elif setup.rules.draw_from is DrawFrom.ANY_OF_LAST and draw in group:
            index = group.index(draw)
            drawn = group[index]
            rest = group[:index] + group[index + 1 :]
        else:
            raise IllegalMove(Reason.UNTAKEABLE_DRAW)
        pile += rest
        changed_shown = list(shown)
        taken = shown[seat]
        if len(taken) >= _SHOWN_LIMIT:
            taken = _held(taken, hand)
        changed_shown[seat] = (*taken, drawn)
        shown = tuple(changed_shown)
    kept.append(drawn)

    events: list[EngineEvent] = [
        {"type": "played", "seat": seat, "cards": list(cards), "draw": draw, "drawn": drawn}
    ]
    changed = list(hands)
    changed[seat] = tuple(kept)
    reshuffles = state.reshuffles
    if stock_pos == len(stock) and pile:
        reshuffles += 1
        stock, pile, shown = _reshuffle(pile, rng, shown, changed, events, setup.round, reshuffles)
        stock_pos = 0

    # Not `GameState(...)`: its `__init__` derives `next_seat` from the setup's eliminations,
    # which a play never changes. Going through it made each action some 30% slower
    # (bench/engine: replay 2.8 -> 3.7 us per action, below its 300,000 actions/s target).
    new = _blank(GameState)
    new.setup = setup
    new.turn = state.next_seat[seat]
    new.hands = tuple(changed)
    new.stock = stock
    new.stock_pos = stock_pos
    new.pile = pile
    new.group = tuple(cards)
    new.group_seat = seat
    new.shown = shown
    new.extra = extra = state.extra
    new.next_seat = state.next_seat
    new.reshuffles = reshuffles
    if extra is not None:
        return _after_play(new, seat, cards, extra, rng, events)
    return new, events


def _reshuffle(
    pile: tuple[str, ...],
    rng: Rng,
    shown: tuple[tuple[str, ...], ...],
    hands: Sequence[tuple[str, ...]],
    events: list[EngineEvent],
    round_number: int,
    number: int,
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The new stock from ``pile`` (docs/rules.md §4.3), the empty pile, and ``shown`` without the
    cards that went back (what no hand holds). ``number``: the round's how-manieth reshuffle
    this is, which names a fair deal's stream."""
    fresh = list(pile)
    reshuffle = getattr(rng, "reshuffle_stock", None)
    if reshuffle is None:
        rng.shuffle(fresh)
    else:
        reshuffle(round_number, number, fresh)
    events.append({"type": "reshuffled", "stock": fresh})
    still = tuple(_held(cards, hand) for cards, hand in zip(shown, hands, strict=True))
    return tuple(fresh), (), still


def _after_play(
    state: GameState,
    seat: int,
    cards: Sequence[str],
    extra: RoundExtra,
    rng: Rng,
    events: list[EngineEvent],
) -> tuple[GameState, list[EngineEvent]]:
    """What docs/rules.md §12 adds once ``seat`` has discarded ``cards`` and drawn (``extra`` as it
    was before): one more turn counted, a discard lowers what the spy knows of its hand,
    sevens make the others draw, the spy queen shows the hands, and the last final turn ends
    the round."""
    rules = state.rules
    spied = _forget(extra.spied, seat, cards) if extra.spied else ()
    state = state.replace(turns=extra.turns + 1, spied=spied)
    count = rules.forced_draws(cards)
    if count:
        state = _forced_draws(state, seat, count, rng, events)
    if rules.spies(cards):
        state = _spy(state, seat, events)
    if state.caller is not None and state.turn == state.caller:
        return _end_round(state, state.caller, rng, events)
    return state, events


def _forget(
    spied: tuple[Spied | None, ...], seat: int, cards: Sequence[str]
) -> tuple[Spied | None, ...]:
    """``spied`` once ``seat`` has discarded ``cards``: nobody knows it still holds them."""
    forgotten: list[Spied | None] = []
    for entry in spied:
        seen = None if entry is None else entry[seat]
        if entry is None or seen is None:
            forgotten.append(entry)
        else:
            forgotten.append(_replaced(entry, seat, _without(seen, cards)))
    return tuple(forgotten)


def _forced_draws(
    state: GameState, seat: int, count: int, rng: Rng, events: list[EngineEvent]
) -> GameState:
    """Every other active seat but a frozen caller draws ``count`` cards from the stock, one
    each in turn order from the next, ``count`` times over (docs/rules.md §12, sevens)."""
    drawers = []
    other = state.next_seat[seat]
    while other != seat:
        if other != state.caller:
            drawers.append(other)
        other = state.next_seat[other]
    hands = list(state.hands)
    stock, stock_pos, pile, shown = state.stock, state.stock_pos, state.pile, state.shown
    reshuffles = state.reshuffles
    for drawer in drawers * count:
        if stock_pos == len(stock):  # and the pile is empty too: the rest are skipped
            break
        drawn = stock[stock_pos]
        stock_pos += 1
        hands[drawer] += (drawn,)
        events.append({"type": "forced_draw", "seat": drawer, "drawn": drawn})
        if stock_pos == len(stock) and pile:
            reshuffles += 1
            round_number = state.setup.round
            stock, pile, shown = _reshuffle(
                pile, rng, shown, hands, events, round_number, reshuffles
            )
            stock_pos = 0
    return state.replace(
        hands=tuple(hands),
        stock=stock,
        stock_pos=stock_pos,
        pile=pile,
        shown=shown,
        reshuffles=reshuffles,
    )


def _spy(state: GameState, seat: int, events: list[EngineEvent]) -> GameState:
    """``seat`` sees every other active hand as it is now (docs/rules.md §12, spy queen)."""
    seen: Spied = tuple(
        None if other == seat or out is not None else hand
        for other, (hand, out) in enumerate(zip(state.hands, state.out_round, strict=True))
    )
    spied = list(state.spied) if state.spied else [None] * state.players
    spied[seat] = seen
    events.append({"type": "spied", "seat": seat, "hands": _shown_hands(seen)})
    return state.replace(spied=tuple(spied))


def _missing_reason(card: object) -> Reason:
    return Reason.CARD_NOT_IN_HAND if is_card(card) else Reason.UNKNOWN_CARD


def _discard_group(
    hand: tuple[str, ...], cards: Sequence[str], wild_rank: int, repeat: bool
) -> list[str]:
    """What stays in ``hand`` once the multi-card group ``cards`` is laid; checks the group.
    With ``repeat`` (two decks) a code may be held, and laid, twice."""
    for card in cards:
        if card not in hand:
            raise IllegalMove(_missing_reason(card))
    if repeat:
        kept = list(hand)
        for card in cards:
            if card not in kept:
                raise IllegalMove(Reason.DUPLICATE_CARD)
            kept.remove(card)
    elif len(set(cards)) != len(cards):
        raise IllegalMove(Reason.DUPLICATE_CARD)
    else:
        kept = [card for card in hand if card not in cards]
    reason = group_error(cards, wild_rank)
    if reason is not None:
        raise IllegalMove(reason)
    return kept


def _not_to_act(state: GameState) -> IllegalMove:
    # Nobody's turn is the mark of a finished game.
    return IllegalMove(Reason.GAME_OVER if state.turn is None else Reason.NOT_YOUR_TURN)


def apply_yaniv(state: GameState, seat: int, rng: Rng) -> tuple[GameState, list[EngineEvent]]:
    """``apply`` for ``CallYaniv(seat)``: the round ends, or under ``final_turns`` the
    caller's hand is frozen while the others take one more turn each."""
    if seat != state.turn:
        raise _not_to_act(state)
    refusal = state.call_refusal(seat)
    if refusal is not None:
        raise IllegalMove(refusal)
    events: list[EngineEvent] = [{"type": "yaniv_called", "seat": seat}]
    if state.rules.final_turns:
        return state.replace(caller=seat, turn=state.next_seat[seat]), events
    return _end_round(state, seat, rng, events)


def _end_round(
    state: GameState, caller: int, rng: Rng, events: list[EngineEvent]
) -> tuple[GameState, list[EngineEvent]]:
    """Every hand shown and the round scored (docs/rules.md §6-§7); the next round dealt, or the
    game over."""
    setup = state.setup
    rules = setup.rules
    value = setup.values.__getitem__
    hands_shown: list[tuple[str, ...] | None] = []
    hand_totals: list[int | None] = []
    for hand, out in zip(state.hands, setup.out_round, strict=True):
        active = out is None
        hands_shown.append(hand if active else None)
        hand_totals.append(sum(map(value, hand)) if active else None)
    score = score_round(rules, caller, hand_totals, setup.totals, setup.out_round, setup.round)
    result = RoundResult(
        setup.round,
        caller,
        score.outcome,
        tuple(hands_shown),
        tuple(hand_totals),
        score.points,
        score.totals,
        score.eliminated,
        score.next_starter,
        setup.wild,
    )
    events.append({"type": "round_ended", **result.to_dict()})
    if score.next_starter is None:
        setup = RoundSetup(
            rules,
            setup.players,
            setup.round,
            setup.starter,
            score.totals,
            score.out_round,
            result,
            score.standings,
            setup.wild,
            setup.wild_rank,
        )
        events.append({"type": "game_ended", "standings": standings_list(score.standings)})
        return state.replace(setup=setup, turn=None, caller=None), events
    setup = RoundSetup(
        rules,
        setup.players,
        setup.round + 1,
        score.next_starter,
        score.totals,
        score.out_round,
        result,
        None,
    )
    new, dealt = _deal(setup, rng)
    events.append(dealt)
    return new, events

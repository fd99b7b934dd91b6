"""The ``expert`` level: ``hard``'s discards and draws, and a call decided by search.

When it may call, it compares the call with ``hard``'s best play in the same ``_SAMPLES``
worlds: deals of the hidden cards consistent with everything the seat has seen (each
opponent's hand count and the cards it took face up, which it still holds; the discards; our
own hand), the opponents' unknown cards drawn with a lean towards low values as ``hard``
reckons them (players keep their low cards). In each world the engine itself scores the call
(``score_round``) and plays the play (``apply_play``) and then the round on, for at most
``_HORIZON`` turns each, every seat playing a quick full-information policy: call when no
other hand is as low, else throw the most valuable group and take a discard that is low or
joins a group. A round that ends is valued by what it scored (our points against the
opponents' mean, and going out, knocking someone out or the game's first place at
``_KNOCK_OUT``); one still going by the hands as they stand. The same worlds serve both
options (common random numbers). Calls ``hard`` must make (``hard.must_call``) skip the search.

Measured (``bench/cpu_strength.py``, README), this is as strong as ``hard`` and no stronger:
searching the plays too (``hard``'s best three in the same worlds) lost to ``hard``, as did
rollouts whose opponents call as soon as they may or never; the search's edge would need a
rollout policy nearly as good as ``hard`` within the time budget.

All its chance comes from the ``rng`` it is given (the samples, and a reshuffle in a rollout
whose stock runs out): a seeded rng gives the same choice every time.
"""

import math
from collections.abc import Sequence

from games.engine.cards import VALUE, hand_total
from games.engine.cpu import hard
from games.engine.cpu.hard import View
from games.engine.groups import takeable
from games.engine.moves import legal_groups
from games.engine.rng import Rng
from games.engine.scoring import score_round
from games.engine.state import STOCK, Action, CallYaniv, GameState, Play, Table, apply_play
from games.engine.view import ViewData

_SAMPLES = 10
"""Worlds per decision."""
_HORIZON = 12
"""Turns a rollout plays before the hands as they stand value it."""
_KNOCK_OUT = 100.0
"""What going out (or losing the game) costs in round points, and knocking out one of
``n`` opponents gains ``1/n`` of."""
_UNIFORM = 2**32
"""The resolution of the uniform numbers the sampling draws from the rng."""
_TAKE_AT_MOST = 3
"""Rollout players take a discard worth this little (or one that joins a group)."""


def choose(seen: ViewData, rng: Rng) -> Action:
    """The expert's action from ``seen``, the view of the seat to act."""
    table = View(seen)
    play = hard.best_play(table, rng)
    if not seen["you"]["can_call_yaniv"]:
        return play
    call = CallYaniv(table.seat)
    if hard.must_call(table):
        return call
    worlds = [_sample(seen, table, rng) for _ in range(_SAMPLES)]
    calling = sum(_scored(world, table.seat, table.seat) for world in worlds)
    playing = sum(_played_out(world, play, table.seat, rng) for world in worlds)
    return call if calling >= playing else play


def _sample(seen: ViewData, table: View, rng: Rng) -> GameState:
    """A world consistent with ``seen``: the opponents' unknown cards and the stock dealt
    from the unseen cards, low ones likelier in a hand (``hard``'s skew)."""
    skew = hard.skew(table)
    # Weighted sampling without replacement (Efraimidis-Spirakis): each card's key is
    # u ** (1 / weight), i.e. log(u) * exp(skew * value); the largest keys go to the hands.
    keyed = sorted(
        table.unseen,
        key=lambda card: (
            math.log((rng.randrange(_UNIFORM) + 1) / _UNIFORM) * math.exp(skew * VALUE[card])
        ),
        reverse=True,
    )
    hands: list[tuple[str, ...]] = []
    at = 0
    for entry in seen["seats"]:
        seat = entry["seat"]
        if seat == table.seat:
            hands.append(table.hand)
            continue
        known = tuple(entry["known"])
        unknown = entry["hand_count"] - len(known)
        hands.append(known + tuple(keyed[at : at + unknown]))
        at += unknown
    stock = keyed[at:]
    rng.shuffle(stock)
    rules = seen["rules"]
    totals = tuple(entry["score"] for entry in seen["seats"])
    out_round = tuple(entry["out_round"] for entry in seen["seats"])
    shown = tuple(tuple(entry["known"]) for entry in seen["seats"])
    world = Table(
        rules,
        seen["players"],
        seen["round"],
        seen["starter"],
        totals,
        out_round,
        None,
        None,
        seen["wild"],
        table.wild_rank,
    )
    return GameState(
        world,
        table.seat,
        tuple(hands),
        tuple(stock),
        0,
        tuple(seen["pile"]),
        tuple(seen["discard"]["cards"]),
        seen["discard"]["seat"],
        shown,
        seen["caller"],
    )


def _played_out(world: GameState, play: Play, me: int, rng: Rng) -> float:
    """How well ``play`` does for ``me`` in ``world``, the round played on (higher is better);
    ``rng`` shuffles the pile if the stock runs out."""
    state, _ = apply_play(world, me, play.cards, play.draw, rng)
    for _ in range(_HORIZON * len(world.active_seats)):
        seat = state.turn
        assert seat is not None
        action = _rollout(state, seat)
        if isinstance(action, CallYaniv):
            return _scored(state, me, seat)
        state, _ = apply_play(state, seat, action.cards, action.draw, rng)
    mine = _left(state.hands[me])
    others = [_left(state.hands[seat]) for seat in state.active_seats if seat != me]
    return sum(others) / len(others) - mine


def _left(hand: Sequence[str]) -> float:
    """A hand still in play: its total less what its best group sheds next turn."""
    return hand_total(hand) - hard.best_shed(hand)


def _scored(state: GameState, me: int, caller: int) -> float:
    """The value for ``me`` of the round ``caller`` ends now in ``state``."""
    table = state.table
    active = state.active_seats
    hand_totals = [
        hand_total(hand) if seat in active else None for seat, hand in enumerate(state.hands)
    ]
    score = score_round(
        table.rules, caller, hand_totals, table.totals, table.out_round, table.round
    )
    opponents = [seat for seat in active if seat != me]
    gained = [score.totals[seat] - table.totals[seat] for seat in opponents]
    value = sum(gained) / len(gained) - (score.totals[me] - table.totals[me])
    if score.standings is not None:
        first = dict(score.standings)[me] == 1
        return value + (_KNOCK_OUT if first else -_KNOCK_OUT)
    if me in score.eliminated:
        return value - _KNOCK_OUT
    out = sum(1 for seat in score.eliminated if seat != me)
    return value + _KNOCK_OUT * out / len(opponents)


def _rollout(state: GameState, seat: int) -> Action:
    """A quick full-information player for rollouts: calls when no other hand is as low;
    else throws its most valuable group and takes a discard that is low or joins a group."""
    hands = state.hands
    hand = hands[seat]
    total = hand_total(hand)
    if total <= state.table.rules.call_limit and all(
        hand_total(hands[other]) > total for other in state.active_seats if other != seat
    ):
        return CallYaniv(seat)
    group = max(legal_groups(hand), key=hand_total)
    rest = [card for card in hand if card not in group]
    top = max(VALUE[card] for card in group)
    ends = takeable(state.group)
    if state.stock_count:
        for card in sorted(ends, key=VALUE.__getitem__):
            if VALUE[card] < top and (VALUE[card] <= _TAKE_AT_MOST or hard.joins(rest, card)):
                return Play(seat, group, card)
        return Play(seat, group, STOCK)
    return Play(seat, group, ends[0])

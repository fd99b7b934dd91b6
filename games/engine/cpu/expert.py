"""The ``expert`` level: ``hard``'s discards and draws, and a call decided by search.

When it may call, it compares the call with ``hard``'s best play in the same ``_SAMPLES``
worlds: deals of the hidden cards consistent with everything the seat has seen (each
opponent's hand count and the cards we know it holds, taken face up or shown by the spy queen;
the discards; our own hand), the opponents' unknown cards drawn with a lean towards low values
as ``hard`` reckons them (players keep their low cards). In each world the engine itself
scores the call (``score_round``; under ``final_turns`` it plays the call, and the others'
extra turn, through ``apply_yaniv``) and plays the play (``apply_play``) and then the round
on, for at most ``_HORIZON`` turns each, every seat playing a quick full-information policy:
call when the rules allow it and no other hand is as low, else throw the most valuable group
and take a discard that is low or joins a group. Everything is counted at the round's values
and wild rank (docs/rules.md §12). A round that ends is valued by what it scored (our points
against the opponents' mean, and going out, knocking someone out or the game's first place at
``_KNOCK_OUT``); one still going by the hands as they stand. The same worlds serve both
options (common random numbers). Calls ``hard`` must make (``hard.must_call``) skip the search.

Measured (``bench/cpu_strength.py``, docs/cpu.md), this is as strong as ``hard`` and no stronger:
searching the plays too (``hard``'s best three in the same worlds) lost to ``hard``, as did
rollouts whose opponents call as soon as they may or never; within the budget a search has
too few rollouts to separate ``hard``'s best plays. Nor did a better read of the hidden hand
help the call: the sampled worlds estimate the Assaf risk better than ``hard``'s formula, and
weighting them by the opponent's last turn adds nothing, but neither call rule on that risk
beats ``hard``'s own; calls made seeing the other hand, and only those, win 62-74% against
``hard`` (``bench/cpu_ceiling.py``). docs/cpu.md lists every variant tried, with its numbers.

All its chance comes from the ``rng`` it is given (the samples, and a reshuffle in a rollout
whose stock runs out): a seeded rng gives the same choice every time.
"""

import math
from collections import Counter
from collections.abc import Sequence

from games.engine.cpu import hard
from games.engine.cpu.hard import View
from games.engine.groups import takeable
from games.engine.moves import legal_groups
from games.engine.rng import Rng
from games.engine.scoring import Standings, score_round
from games.engine.state import (
    STOCK,
    Action,
    CallYaniv,
    GameState,
    Play,
    RoundSetup,
    Spied,
    apply_play,
    apply_yaniv,
)
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
    view = View(seen)
    play = hard.best_play(view, rng)
    if not seen["you"]["can_call_yaniv"]:
        return play
    call = CallYaniv(view.seat)
    if hard.must_call(view):
        return call
    worlds = [_sample(seen, view, rng) for _ in range(_SAMPLES)]
    calling = sum(_called(world, view.seat, view.seat, rng) for world in worlds)
    playing = sum(_played_out(world, play, view.seat, rng) for world in worlds)
    return call if calling >= playing else play


def _sample(seen: ViewData, view: View, rng: Rng) -> GameState:
    """A world consistent with ``seen``: each opponent holds the cards we know it holds (taken
    face up or shown by the spy queen, ``view.located``); its other cards and the stock are
    dealt from the rest of the unseen cards, low ones likelier in a hand (``hard``'s skew)."""
    skew = hard.skew(view)
    values = view.values
    # The unseen cards less those the spy queen placed in a hand (``unseen`` counts them).
    pool = list(view.unseen)
    for seat in view.opponents:
        spied = Counter(view.located[seat]) - Counter(seen["seats"][seat]["known"])
        for card in spied.elements():
            pool.remove(card)
    # Weighted sampling without replacement (Efraimidis-Spirakis): each card's key is
    # u ** (1 / weight), i.e. log(u) * exp(skew * value); the largest keys go to the hands.
    keyed = sorted(
        pool,
        key=lambda card: (
            math.log((rng.randrange(_UNIFORM) + 1) / _UNIFORM) * math.exp(skew * values[card])
        ),
        reverse=True,
    )
    hands: list[tuple[str, ...]] = []
    at = 0
    for entry in seen["seats"]:
        seat = entry["seat"]
        if seat == view.seat:
            hands.append(view.hand)
            continue
        located = tuple(view.located.get(seat, ()))
        unknown = entry["hand_count"] - len(located)
        hands.append(located + tuple(keyed[at : at + unknown]))
        at += unknown
    stock = keyed[at:]
    rng.shuffle(stock)
    rules = seen["rules"]
    totals = tuple(entry["score"] for entry in seen["seats"])
    out_round = tuple(entry["out_round"] for entry in seen["seats"])
    shown = tuple(tuple(entry["known"]) for entry in seen["seats"])
    world = RoundSetup(
        rules,
        seen["players"],
        seen["round"],
        seen["starter"],
        totals,
        out_round,
        None,
        None,
        seen["wild"],
        view.wild_rank,
    )
    return GameState(
        world,
        view.seat,
        tuple(hands),
        tuple(stock),
        0,
        tuple(seen["pile"]),
        tuple(seen["discard"]["cards"]),
        seen["discard"]["seat"],
        shown,
        seen["caller"],
        # We may call, so the first turns are over (``first_turn_call: false``): any count of
        # plays from one per seat on says so.
        len(view.opponents) + 1,
        _spied(seen),
    )


def _spied(seen: ViewData) -> tuple[Spied | None, ...]:
    """What the spy queen showed the seat of ``seen``, as the state holds it (``()``: nothing)."""
    shown = seen["you"].get("spied")
    if shown is None:
        return ()
    ours: Spied = tuple(
        tuple(shown[str(seat)]) if str(seat) in shown else None for seat in range(seen["players"])
    )
    return tuple(ours if seat == seen["you"]["seat"] else None for seat in range(seen["players"]))


def _played_out(world: GameState, play: Play, me: int, rng: Rng) -> float:
    """How well ``play`` does for ``me`` in ``world``, the round played on (higher is better);
    ``rng`` shuffles the pile if the stock runs out."""
    state, _ = apply_play(world, me, play.cards, play.draw, rng)
    for _ in range(_HORIZON * len(world.active_seats)):
        seat = state.turn
        assert seat is not None
        action = _rollout(state, seat)
        if isinstance(action, CallYaniv):
            return _called(state, me, seat, rng)
        state, _ = apply_play(state, seat, action.cards, action.draw, rng)
    mine = _left(state, me)
    others = [_left(state, seat) for seat in state.active_seats if seat != me]
    return sum(others) / len(others) - mine


def _left(state: GameState, seat: int) -> float:
    """The hand of ``seat``, still in play: its total less what its best group sheds next
    turn, at this round's values."""
    setup = state.setup
    shed = hard.best_shed(state.hands[seat], setup.values, setup.wild_rank, setup.rules.values)
    return state.hand_total(seat) - shed


def _called(state: GameState, me: int, caller: int, rng: Rng) -> float:
    """The value for ``me`` of ``caller``'s call in ``state`` (its turn, the call allowed).

    Without final turns the round is scored now, as the engine's end of round scores it (and
    without dealing the next round from ``rng``). Under ``final_turns`` the call is played
    through the engine: every other seat first takes its extra turn as ``_rollout`` plays it.
    """
    setup = state.setup
    if not setup.rules.final_turns:
        hand_totals = [
            state.hand_total(seat) if out is None else None
            for seat, out in enumerate(setup.out_round)
        ]
        score = score_round(
            setup.rules, caller, hand_totals, setup.totals, setup.out_round, setup.round
        )
        return _value(setup, me, score.totals, score.eliminated, score.standings)
    state, _ = apply_yaniv(state, caller, rng)
    while state.caller is not None:
        seat = state.turn
        assert seat is not None
        play = _rollout(state, seat)
        assert isinstance(play, Play), "no call in final turns"
        state, _ = apply_play(state, seat, play.cards, play.draw, rng)
    result = state.last_round
    assert result is not None
    return _value(setup, me, result.totals, result.eliminated, state.standings)


def _value(
    setup: RoundSetup,
    me: int,
    totals: Sequence[int],
    eliminated: Sequence[int],
    standings: Standings | None,
) -> float:
    """The value for ``me`` of a round of ``setup`` that ended with these ``totals``, these
    seats ``eliminated`` and, if it ended the game, these ``standings``."""
    opponents = [seat for seat, out in enumerate(setup.out_round) if out is None and seat != me]
    gained = [totals[seat] - setup.totals[seat] for seat in opponents]
    value = sum(gained) / len(gained) - (totals[me] - setup.totals[me])
    if standings is not None:
        first = dict(standings)[me] == 1
        return value + (_KNOCK_OUT if first else -_KNOCK_OUT)
    if me in eliminated:
        return value - _KNOCK_OUT
    out = sum(1 for seat in eliminated if seat != me)
    return value + _KNOCK_OUT * out / len(opponents)


def _rollout(state: GameState, seat: int) -> Action:
    """A quick full-information player for rollouts: calls when the rules let it and no other
    hand is as low; else throws its most valuable group and takes a discard that is low or
    joins a group (at this round's values and wild rank)."""
    setup = state.setup
    values = setup.values
    hands = state.hands
    hand = hands[seat]

    def points(cards: Sequence[str]) -> int:
        return sum(values[card] for card in cards)

    total = points(hand)
    if state.can_call_yaniv(seat) and all(
        points(hands[other]) > total for other in state.active_seats if other != seat
    ):
        return CallYaniv(seat)
    group = max(legal_groups(hand, setup.wild_rank), key=points)
    rest = [card for card in hand if card not in group]
    top = max(values[card] for card in group)
    ends = takeable(state.group)
    if state.stock_count:
        for card in sorted(ends, key=values.__getitem__):
            if values[card] < top and (
                values[card] <= _TAKE_AT_MOST or hard.joins(rest, card, setup.wild_rank)
            ):
                return Play(seat, group, card)
        return Play(seat, group, STOCK)
    return Play(seat, group, ends[0])

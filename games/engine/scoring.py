"""Scoring a round, elimination, the next starter and final standings (docs/rules.md §6-§8)."""

from collections.abc import Sequence
from typing import Literal, NamedTuple

from games.engine.rules import Rules

Outcome = Literal["yaniv", "assaf"]
Standings = tuple[tuple[int, int], ...]
"""(seat, place) pairs, best place first."""


class RoundScore(NamedTuple):
    outcome: Outcome
    points: tuple[int | None, ...]
    """What each seat scored before exact-score drops; None for seats already out."""
    totals: tuple[int, ...]
    out_round: tuple[int | None, ...]
    eliminated: tuple[int, ...]
    """Seats that went out in this round."""
    next_starter: int | None
    """None when the game is over."""
    standings: Standings | None


def score_round(
    rules: Rules,
    caller: int,
    hand_totals: Sequence[int | None],
    totals: Sequence[int],
    out_round: Sequence[int | None],
    round_number: int,
) -> RoundScore:
    """Score the round ended by ``caller``; ``hand_totals`` is None for seats already out."""
    players = len(totals)
    called = hand_totals[caller]
    if called is None:
        raise ValueError("the caller must be an active seat")
    # The other active seats in the direction of play from the caller, and the lowest of them
    # in that order.
    order = rules.direction.order(caller, players)
    lowest_others: list[int] = []
    others: list[int] = []
    lowest = 0
    for seat in order[1:]:
        total = hand_totals[seat]
        if total is None:
            continue
        others.append(total)
        if not lowest_others or total < lowest:
            lowest_others, lowest = [seat], total
        elif total == lowest:
            lowest_others.append(seat)
    outcome: Outcome = "assaf" if lowest <= called else "yaniv"

    points = list(hand_totals)
    if outcome == "yaniv":
        points[caller] = 0
    else:
        points[caller] = called + rules.assaf_penalty_rule.penalty(rules.assaf_penalty, others)
        for seat in lowest_others:
            points[seat] = rules.assaf_scores.score(lowest)

    new_totals = list(totals)
    drop = rules.exact_scores.drop
    for seat, scored in enumerate(points):
        if scored:
            new_totals[seat] = drop(totals[seat] + scored)

    new_out = list(out_round)
    eliminated: list[int] = []
    ending = rules.ending
    if ending.knocks_out:
        for seat in range(players):
            if new_out[seat] is None and ending.over(new_totals[seat]):
                new_out[seat] = round_number
                eliminated.append(seat)
        over = new_out.count(None) <= 1
    else:
        over = ending.over(max(new_totals))

    starter: int | None = None
    final = None
    if over:
        final = standings(rules, new_totals, new_out)
    else:
        starter = caller if outcome == "yaniv" else lowest_others[0]
        # A starter who has just gone out hands the lead on to the next active seat.
        step = rules.direction.step
        while new_out[starter] is not None:
            starter = (starter + step) % players
    return RoundScore(
        outcome,
        tuple(points),
        tuple(new_totals),
        tuple(new_out),
        tuple(eliminated),
        starter,
        final,
    )


def standings(rules: Rules, totals: Sequence[int], out_round: Sequence[int | None]) -> Standings:
    """Final places by standard competition ranking (1, 1, 3): equal keys share a place."""
    keys: list[tuple[int, ...]]
    if rules.ending.knocks_out:
        # Still in beats out; among the out, later rounds beat earlier; then the lower total.
        keys = [
            (0, 0, total) if out is None else (1, -out, total)
            for total, out in zip(totals, out_round, strict=True)
        ]
    else:
        keys = [(total,) for total in totals]
    order = sorted(range(len(totals)), key=lambda seat: (keys[seat], seat))
    places: list[tuple[int, int]] = []
    for index, seat in enumerate(order):
        if index and keys[seat] == keys[order[index - 1]]:
            places.append((seat, places[-1][1]))
        else:
            places.append((seat, index + 1))
    return tuple(places)

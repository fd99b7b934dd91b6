"""Scoring a round, elimination, the next starter and final standings (RULES.md §6-§8)."""

from collections.abc import Sequence
from typing import Literal, NamedTuple

from games.engine.rules import ExactScores, Rules

Outcome = Literal["yaniv", "assaf"]
Standings = tuple[tuple[int, int], ...]
"""(seat, place) pairs, best place first."""

_KNOCK_OUT_LIMITS = {"out_over_100": 100, "out_over_200": 200}
_FIRST_OVER_LIMIT = 100


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


def exact_drop(total: int, mode: ExactScores) -> int:
    if mode == "100_200":
        return total // 2 if total in (100, 200) else total
    if mode == "halve_50":
        return total // 2 if total and total % 50 == 0 else total
    return total


def clockwise(start: int, players: int) -> list[int]:
    """Every seat once, starting at ``start`` and going clockwise."""
    return [(start + step) % players for step in range(players)]


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
    # The other active seats clockwise from the caller, and the lowest of them in that order.
    lowest_others: list[int] = []
    lowest = 0
    for step in range(1, players):
        seat = (caller + step) % players
        total = hand_totals[seat]
        if total is None:
            continue
        if not lowest_others or total < lowest:
            lowest_others, lowest = [seat], total
        elif total == lowest:
            lowest_others.append(seat)
    outcome: Outcome = "assaf" if lowest <= called else "yaniv"

    points = list(hand_totals)
    if outcome == "yaniv":
        points[caller] = 0
    else:
        points[caller] = called + rules.assaf_penalty
        if rules.assaf_scores == "zero":
            for seat in lowest_others:
                points[seat] = 0

    new_totals = list(totals)
    for seat, scored in enumerate(points):
        if scored:
            new_totals[seat] = exact_drop(totals[seat] + scored, rules.exact_scores)

    new_out = list(out_round)
    eliminated: list[int] = []
    if rules.ending == "first_over_100":
        over = max(new_totals) > _FIRST_OVER_LIMIT
    else:
        limit = _KNOCK_OUT_LIMITS[rules.ending]
        for seat in range(players):
            if new_out[seat] is None and new_totals[seat] > limit:
                new_out[seat] = round_number
                eliminated.append(seat)
        over = new_out.count(None) <= 1

    if over:
        return RoundScore(
            outcome,
            tuple(points),
            tuple(new_totals),
            tuple(new_out),
            tuple(eliminated),
            None,
            standings(rules, new_totals, new_out),
        )
    starter = caller if outcome == "yaniv" else lowest_others[0]
    # A starter who has just gone out hands the lead on to the next active seat clockwise.
    while new_out[starter] is not None:
        starter = (starter + 1) % players
    return RoundScore(
        outcome,
        tuple(points),
        tuple(new_totals),
        tuple(new_out),
        tuple(eliminated),
        starter,
        None,
    )


def standings(rules: Rules, totals: Sequence[int], out_round: Sequence[int | None]) -> Standings:
    """Final places by standard competition ranking (1, 1, 3): equal keys share a place."""
    keys: list[tuple[int, ...]]
    if rules.ending == "first_over_100":
        keys = [(total,) for total in totals]
    else:
        # Still in beats out; among the out, later rounds beat earlier; then the lower total.
        keys = [
            (0, 0, total) if out is None else (1, -out, total)
            for total, out in zip(totals, out_round, strict=True)
        ]
    order = sorted(range(len(totals)), key=lambda seat: (keys[seat], seat))
    places: list[tuple[int, int]] = []
    for index, seat in enumerate(order):
        if index and keys[seat] == keys[order[index - 1]]:
            places.append((seat, places[-1][1]))
        else:
            places.append((seat, index + 1))
    return tuple(places)

"""OpenSkill for Yaniv: the rating update of one game, as a pure function (no Django, no I/O).

Each player is a team of one, and the ranks are the final places (docs/rules.md §8): a shared place
is an equal rank. docs/api.md fixes what a draw is worth: a tied player's change is the mean of the
changes that the two untied orders would give (halfway between a win and a loss).

The model is Bradley-Terry with partial pairing (Weng and Lin 2011, algorithm 2), with its
pairing window wide enough to cover the whole table. Every player is then compared with every
other, and a player's update is the mean over opponents of a pairwise term that is *linear* in
the pairwise score `s` (1 a win, 0 a loss, ½ a tie); nothing else in the update depends on the
ranks. So a tie (`s = ½`) gives exactly the mean of the two untied orders, for `mu`, for every
player at the table, in games of any size and ties anywhere, and `sigma` is the same in all
three. The default Plackett-Luce model does not: it scores a tie through the shared position in
the ranking likelihood, so players tied for first gain less than the third does (openskill
issue #155). tests/ratings/test_rating.py proves both numerically.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from openskill.models import BradleyTerryPart

# docs/rules.md §2. The exactness argument above needs the window to span the table.
MAX_PLAYERS = 5
_MODEL = BradleyTerryPart(window_size=MAX_PLAYERS - 1)


class Skill(NamedTuple):
    """What OpenSkill believes about a player: skill `mu` with uncertainty `sigma`."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative skill (mu less three sigma): what leaderboards sort by."""
        return self.mu - 3 * self.sigma


# A player who never played a rated game (OpenSkill's defaults: 25 and 25/3).
DEFAULT = Skill(_MODEL.mu, _MODEL.sigma)


def days_between(last: datetime, now: datetime) -> int:
    """Whole days from `last` to `now`: the difference of their UTC calendar dates, so that it
    changes only at UTC midnight and two reads in one UTC day agree (never below 0)."""
    return max(0, (now.astimezone(UTC).date() - last.astimezone(UTC).date()).days)


def aged(skill: Skill, days: int, tau: float) -> Skill:
    """The skill after `days` whole days without a rated game: sigma widens by `tau` per
    square-root day, `min(DEFAULT.sigma, sqrt(sigma^2 + tau^2 * days))` (OpenSkill's `tau`,
    with `limit_sigma` at the default), and mu never moves.

    ratings/selectors.py orders the leaderboard by the same arithmetic in SQL, operation for
    operation (`sigma * sigma + (tau * tau) * days`), so that both give the same float."""
    if days <= 0 or tau == 0:
        return skill
    return Skill(
        skill.mu, min(DEFAULT.sigma, math.sqrt(skill.sigma * skill.sigma + tau * tau * days))
    )


def reset(skill: Skill, bump: float) -> Skill:
    """The season's soft reset (docs/api.md, Seasons): sigma widens to
    `min(DEFAULT.sigma, sqrt(sigma^2 + bump^2))`, mu is kept. With ageing after it, the same
    as ageing then the reset (both add to sigma^2 under the one cap)."""
    if bump == 0:
        return skill
    return Skill(skill.mu, min(DEFAULT.sigma, math.sqrt(skill.sigma * skill.sigma + bump * bump)))


def rate(skills: Sequence[Skill], places: Sequence[int]) -> list[Skill]:
    """The new skills after one game, in the order given.

    `places[i]` is player i's final place (1 is first; equal places are a tie). Only the order
    of places matters, so the places of the rated players among CPU seats can be passed as is.
    """
    if len(skills) != len(places):
        raise ValueError("one place per player")
    if not 2 <= len(skills) <= MAX_PLAYERS:
        raise ValueError(f"a game has 2 to {MAX_PLAYERS} rated players, not {len(skills)}")
    teams = [[_MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]

"""The CPU players (docs/rules.md §10), at four levels, each deciding from one seat's view alone.

``choose_action`` decides from exactly what ``view(state, seat)`` shows that seat, so no level
can use hidden cards even by accident; ``cpu_action`` is the service's entry point and builds
that view itself. Each level is a deterministic player given its ``rng``: the same view and a
seeded rng in the same state give the same action. ``bench/cpu_strength.py`` measures the
ladder (each level against the one below it, at two and four seats).

- ``easy`` (``simple.easy``): a beginner. Calls Yaniv as soon as it may, throws its most
  valuable group, takes a low discard.
- ``medium`` (``simple.medium``): a casual player. Calls as soon as it may, blind to the risk
  of an Assaf; plays ``hard``'s discards and draws, but one turn in three like ``easy``.
- ``hard`` (``hard``): the CPU as it was before the levels: every group and draw scored by the
  hand it leaves, and a call weighed against an estimated Assaf risk.
- ``expert`` (``expert``): ``hard``'s discards and draws, and a call decided by search: it
  samples the hidden hands and the stock consistent with what the seat has seen, scores the
  call and plays ``hard``'s best play out in each sample with the engine itself, and does
  whichever does better over the samples. As strong as ``hard``, not measurably stronger.
"""

from enum import StrEnum

from games.engine.cpu import expert, hard, simple
from games.engine.cpu.hard import View
from games.engine.rng import Rng
from games.engine.state import Action, GameState
from games.engine.view import ViewData, view

__all__ = ["DEFAULT_LEVEL", "Level", "View", "choose_action", "cpu_action"]


class Level(StrEnum):
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    EXPERT = "expert"


DEFAULT_LEVEL = Level.HARD
"""The level of a CPU seat nobody chose a level for."""

_PLAYERS = {
    Level.EASY: simple.easy,
    Level.MEDIUM: simple.medium,
    Level.HARD: hard.choose,
    Level.EXPERT: expert.choose,
}


def cpu_action(state: GameState, seat: int, rng: Rng, level: Level = DEFAULT_LEVEL) -> Action:
    """The action of a CPU of ``level`` for ``seat``, whose turn it is; it sees only that
    seat's view."""
    return choose_action(view(state, seat), rng, level)


def choose_action(seen: ViewData, rng: Rng, level: Level = DEFAULT_LEVEL) -> Action:
    """The action of a CPU of ``level`` from ``seen``, the ``view`` of its own seat on its
    turn. A seeded ``rng`` gives the same choice every time."""
    you = seen["you"]
    if seen["status"] != "active" or you is None or seen["turn"] != you["seat"]:
        raise ValueError("the CPU can only act for the seat whose turn it is")
    return _PLAYERS[Level(level)](seen, rng)

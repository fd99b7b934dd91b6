"""A game's rules as the API, the database and a record hold them (docs/rules.md §9): the house
rules the engine plays by, and the turn limit, which only the server's clock reads (§10).

This is the one place that splits the one into the other: ``POST /games/`` and records go
through ``GameRules.parse``, a game's stored ``rules`` through ``GameRules.stored``; the
engine gets ``.rules`` and the clock ``.turn_seconds``. No Django here: ``replay_record``
reads records with it and needs no database.
"""

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.engine.errors import InvalidRules
from games.engine.rules import DEFAULT_RULES, PLAYERS_PER_DECK, Rules, one_of

TURN_SECONDS_CHOICES = (None, 30, 60)
"""The turn limits a host may choose; ranked games take ``YANIV_RANKED_TURN_SECONDS``."""
_TURN_SECONDS = "turn_seconds"
MAX_SEATS = max(PLAYERS_PER_DECK.values())
"""The most seats any rules deal to (two decks, RULES.md §12)."""


@dataclass(frozen=True, slots=True)
class GameRules:
    rules: Rules = DEFAULT_RULES
    turn_seconds: int | None = None
    """Seconds a player has for a turn; None: no limit."""

    @classmethod
    def parse(cls, data: object) -> "GameRules":
        """What a host may choose, or a record may hold: missing keys take the defaults,
        anything else raises ``InvalidRules`` (a bad house rule is named before the limit)."""
        if not isinstance(data, Mapping):
            raise InvalidRules("rules must be an object")
        rules = _house_rules(data)
        if _TURN_SECONDS not in data:
            return cls(rules)
        return cls(rules, one_of(_TURN_SECONDS, data[_TURN_SECONDS], TURN_SECONDS_CHOICES))

    @classmethod
    def stored(cls, data: Mapping[str, Any]) -> "GameRules":
        """A game's stored ``rules`` (what ``to_dict`` wrote): its turn limit may be the ranked
        setting, which need not be one of the choices."""
        return cls(_house_rules(data), data.get(_TURN_SECONDS))

    def check_seats(self, players: int) -> None:
        """``InvalidRules`` when these rules cannot seat ``players`` (docs/rules.md §12: one deck
        seats 2-5, two decks 2-8), naming both keys."""
        most = self.rules.max_players
        if players > most:
            raise InvalidRules(
                "max_players %(players)s is more than decks: %(decks)s seats"
                " (at most %(most)s; decks: 2 seats up to %(max_seats)s)",
                players=players,
                decks=self.rules.decks,
                most=most,
                max_seats=MAX_SEATS,
            )

    def to_dict(self) -> dict[str, Any]:
        """What the game row stores and the game payload shows as ``rules``."""
        return {**self.rules.to_dict(), _TURN_SECONDS: self.turn_seconds}

    def for_record(self) -> "GameRules":
        """These rules as a record shows them: a limit no host may choose (a ranked one set by
        ``YANIV_RANKED_TURN_SECONDS``) shows as none, so that ``parse`` reads every record."""
        if self.turn_seconds in TURN_SECONDS_CHOICES:
            return self
        return replace(self, turn_seconds=None)


def _house_rules(data: Mapping[str, Any]) -> Rules:
    """The engine's rules of a game's rules: all but the turn limit."""
    return Rules.from_dict({key: value for key, value in data.items() if key != _TURN_SECONDS})


def record_rules(data: object) -> Rules:
    """The rules to replay a record by (``replay``'s ``read_rules``): its turn limit is checked
    like the rest and then left out, as the engine has no clock."""
    return GameRules.parse(data).rules

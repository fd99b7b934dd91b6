"""The engine's only source of chance, passed in by the caller.

Live games pass a fair deal (``games.engine.fair.FairDeal``, docs/fairness.md), which the
engine asks by name: ``deal_deck(round, deck)``, ``reshuffle_stock(round, number, cards)`` and
``first_starter(players)``, each drawn from its own stream of the game's seed. Any other source
is asked with the two calls of ``random.Random``: ``shuffle`` and ``randrange``. CPU-only uses
(the expert's sampled deals, calibration, benches, property tests) pass a seeded or system
``random.Random``, and replay a script that hands back the recorded orders.
"""

from typing import Any, Protocol


class Rng(Protocol):
    def shuffle(self, x: list[Any], /) -> None: ...

    def randrange(self, stop: int, /) -> int: ...

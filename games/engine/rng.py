"""The engine's only source of chance, passed in by the caller.

Production passes ``secrets.SystemRandom()``, tests a seeded ``random.Random``, and replay a
script that hands back the recorded orders: all three go through the same two calls.
"""

from typing import Any, Protocol


class Rng(Protocol):
    def shuffle(self, x: list[Any], /) -> None: ...

    def randrange(self, stop: int, /) -> int: ...

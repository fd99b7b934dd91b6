"""The ratings' one lock: the right to write ratings (an advisory lock, core/locks.py).

Rating writes happen one at a time: a game is rated from its players' current ratings, and two
games that share a player must not both read the same "before". Rating a game takes
milliseconds and games last minutes, so one writer at a time is far from any limit, and it
makes a void's replay of later games and a rebuild safe against a game being rated meanwhile.
"""

from __future__ import annotations

from core.locks import AdvisoryLock, advisory_xact_lock


def ratings_lock() -> None:
    """Wait for, then hold until the commit, the one right to write ratings. Taking it again
    in the same transaction costs a query and nothing else: a caller that must hold it
    before other locks (games/services/rating.py, before the game rows) takes it first."""
    advisory_xact_lock(AdvisoryLock.RATINGS)

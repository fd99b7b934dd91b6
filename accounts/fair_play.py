"""The queue-ban schedule (docs/api.md, Fair play), pure: from the offences a player has in the
window and the clean ranked games they finished since the first of them, how long a ban the
latest offence earns. After lichess' playban: one offence in a stretch is forgiven; each
further one in the window bans for the next step (capped at the last), and clean games wear
the count down."""

from __future__ import annotations

import re
from datetime import timedelta

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_STEP = re.compile(r"(\d+)([smhd])")


def parse_steps(text: str) -> tuple[timedelta, ...]:
    """`"10m,1h,24h"` -> the ban lengths, shortest first (units s, m, h, d)."""
    steps = []
    for part in text.split(","):
        match = _STEP.fullmatch(part.strip())
        if match is None:
            raise ValueError(f"a ban step is a number and one of s, m, h, d: {part!r}")
        steps.append(timedelta(seconds=int(match[1]) * _UNITS[match[2]]))
    if not steps:
        raise ValueError("at least one ban step is needed")
    return tuple(steps)


def offence_level(*, offences: int, clean_games: int, games_per_forgiveness: int) -> int:
    """Offences in the window (the latest included), less one per `games_per_forgiveness`
    clean ranked games finished since the first of them; never below one."""
    forgiven = clean_games // games_per_forgiveness if games_per_forgiveness > 0 else 0
    return max(1, offences - forgiven)


def ban_length(level: int, steps: tuple[timedelta, ...]) -> timedelta | None:
    """Level 1 (a first offence in a stretch): no ban; level k >= 2: the (k-1)th step, or
    the last one."""
    if level < 2:
        return None
    return steps[min(level - 2, len(steps) - 1)]

"""When a recurring tournament next starts (docs/api.md, Tournaments: schedules), as a pure
function of its rule: hourly at a minute, or daily at a time (UTC), on some weekdays or all.
No Django, no I/O."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

HOURLY, DAILY = "hourly", "daily"
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


@dataclass(frozen=True, slots=True)
class Rule:
    every: str  # HOURLY or DAILY
    minute: int  # 0-59: past the hour (hourly), or of the time (daily)
    hour: int = 0  # 0-23, UTC (daily)
    weekdays: Collection[int] = ()  # 0 Monday .. 6 Sunday; empty: every day

    def __post_init__(self) -> None:
        if self.every not in (HOURLY, DAILY):
            raise ValueError(f"every must be {HOURLY!r} or {DAILY!r}")
        if not (0 <= self.minute <= 59 and 0 <= self.hour <= 23):
            raise ValueError("minute 0-59, hour 0-23")
        if any(not 0 <= day <= 6 for day in self.weekdays):
            raise ValueError("weekdays 0 (Monday) to 6 (Sunday)")


def next_start(rule: Rule, after: datetime) -> datetime:
    """The first start of `rule` strictly after `after` (UTC, whole minutes)."""
    at = after.astimezone(UTC).replace(second=0, microsecond=0)
    step = timedelta(hours=1) if rule.every == HOURLY else timedelta(days=1)
    if rule.every == HOURLY:
        candidate = at.replace(minute=rule.minute)
    else:
        candidate = at.replace(hour=rule.hour, minute=rule.minute)
    while candidate <= after or (rule.weekdays and candidate.weekday() not in rule.weekdays):
        candidate += step
    return candidate

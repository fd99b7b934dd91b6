"""Recurring tournaments' next start (tournaments/schedule.py), against hand-worked dates."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tournaments.schedule import DAILY, HOURLY, Rule, next_start

# A Wednesday.
WED = datetime(2026, 12, 2, 18, 30, 15, tzinfo=UTC)


def test_hourly_at_a_minute() -> None:
    assert next_start(Rule(HOURLY, 45), WED) == datetime(2026, 12, 2, 18, 45, tzinfo=UTC)
    assert next_start(Rule(HOURLY, 0), WED) == datetime(2026, 12, 2, 19, 0, tzinfo=UTC)
    # Strictly after: a start at this very minute is the next hour's.
    exact = datetime(2026, 12, 2, 18, 45, tzinfo=UTC)
    assert next_start(Rule(HOURLY, 45), exact) == datetime(2026, 12, 2, 19, 45, tzinfo=UTC)


def test_daily_at_a_time_on_weekdays() -> None:
    assert next_start(Rule(DAILY, 0, 19), WED) == datetime(2026, 12, 2, 19, 0, tzinfo=UTC)
    assert next_start(Rule(DAILY, 0, 9), WED) == datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
    weekend = Rule(DAILY, 30, 20, weekdays=(5, 6))  # Saturday and Sunday
    assert next_start(weekend, WED) == datetime(2026, 12, 5, 20, 30, tzinfo=UTC)
    sunday_night = datetime(2026, 12, 6, 21, 0, tzinfo=UTC)
    assert next_start(weekend, sunday_night) == datetime(2026, 12, 12, 20, 30, tzinfo=UTC)
    hourly_weekdays = Rule(HOURLY, 15, weekdays=(0, 1, 2, 3, 4))
    friday_late = datetime(2026, 12, 4, 23, 20, tzinfo=UTC)
    assert next_start(hourly_weekdays, friday_late) == datetime(2026, 12, 7, 0, 15, tzinfo=UTC)


@pytest.mark.parametrize(
    "rule",
    [
        {"every": "weekly", "minute": 0},
        {"every": HOURLY, "minute": 60},
        {"every": DAILY, "minute": 0, "hour": 24},
        {"every": DAILY, "minute": 0, "weekdays": (7,)},
    ],
)
def test_bad_rules_are_refused(rule) -> None:
    with pytest.raises(ValueError, match=r"every|minute|weekdays"):
        Rule(**rule)

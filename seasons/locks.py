"""The season row's lock. Every transaction that takes it holds the ratings lock first
(ratings/locks.py: a rollover, staff's changes, a game rated after the season's end), so two
never wait on each other for it, and a game being rated never sees a season end move under it."""

from __future__ import annotations

from seasons.models import Season


def locked_season(number: int) -> Season:
    """The season, its row locked until the commit."""
    return Season.objects.select_for_update().get(pk=number)

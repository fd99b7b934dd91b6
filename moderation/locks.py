"""Every row lock of the moderation app: a report's, taken after its reported player's
(core/locks.py: the order across apps), so that a resolution's ban never waits the wrong way."""

from __future__ import annotations

from moderation.models import Report


def report_lock(report_id: int) -> Report:
    """The report's row, read afresh and locked until the transaction ends."""
    return Report.objects.select_for_update().get(pk=report_id)

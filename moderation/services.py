"""Writes: a player reports a seat; staff resolve the report (dismiss, warn or ban)."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.locks import player_lock
from accounts.models import Player, StaffActionKind
from accounts.services import player_ban, staff_action_record
from core.errors import ApplicationError
from games.models import Game, GameStatus
from games.selectors import game_seats
from moderation.locks import report_lock
from moderation.models import Report, ReportStatus


@transaction.atomic
def report_create(
    *, reporter: Player, game_id: UUID | str, seat: int, reason: str, text: str = ""
) -> Report:
    """A seated player reports another (human) seat of a game they play or played."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise ApplicationError("not_found", _("No such game."), 404)
    if game.status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
        raise ApplicationError(
            "not_started", _("Only a game that was played can be reported."), 409
        )
    seats = game_seats(game)
    if not any(s.player_id == reporter.pk for s in seats):
        raise ApplicationError("forbidden", _("You can only report a game you played."), 403)
    if not 0 <= seat < len(seats):
        raise ApplicationError(
            "invalid", _("This game has seats 0 to %(last)s.") % {"last": len(seats) - 1}
        )
    reported = seats[seat].player
    if reported is None:
        raise ApplicationError("invalid", _("A CPU seat cannot be reported."))
    if reported.pk == reporter.pk:
        raise ApplicationError("invalid", _("You cannot report yourself."))
    try:
        with transaction.atomic():  # a savepoint: the unique constraint is the limit
            return Report.objects.create(
                game=game, seat=seat, reporter=reporter, reported=reported, reason=reason, text=text
            )
    except IntegrityError as error:
        raise ApplicationError(
            "already_reported", _("You have already reported this seat of this game."), 409
        ) from error


@transaction.atomic
def report_resolve(
    *,
    report: Report,
    by: Player | None,
    status: ReportStatus,
    note: str,
    ban_until: datetime | None = None,
) -> Report:
    """Close an open report. `banned` bans the reported player (until `ban_until`, None: for
    good); `warned` records a warning on them (the audit log shows it on their page). The
    reporter is not told which."""
    player_lock(report.reported_id)  # the player before the report (core/locks.py)
    report = report_lock(report.pk)
    if report.status != ReportStatus.OPEN:
        raise ApplicationError("already_resolved", _("This report is already resolved."), 409)
    if status == ReportStatus.OPEN:
        raise ApplicationError("invalid", _("Resolve a report as dismissed, warned or banned."))
    if status == ReportStatus.BANNED:
        player_ban(player=report.reported, reason=note, until=ban_until, by=by)
    report.status = status
    report.resolved_at = timezone.now()
    report.resolved_by = by
    report.resolution_note = note
    report.save(update_fields=["status", "resolved_at", "resolved_by", "resolution_note"])
    staff_action_record(
        action=StaffActionKind.RESOLVE,
        actor=by,
        reason=f"report {report.pk} {status}: {note}",
        player=report.reported,
        game_id=report.game_id,
    )
    return report

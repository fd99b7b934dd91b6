"""Fair play in ranked games (docs/api.md, Fair play): what counts as an offence, noticed where the
game changes (leaving: play.game_leave; idling: the game's end, clock.advance), and stored by
accounts after the commit, in a transaction of its own (core/locks.py: a player's lock comes
before a game's, so it is not taken under the game's).

A disconnect alone is no offence: a seat is marked away only when its turn deadline passes
(clock.game_timeout), and coming back (play.game_player_returned, or a move) clears it.
"""

from __future__ import annotations

import logging
from datetime import datetime
from uuid import UUID

from django.conf import settings
from django.db import OperationalError, transaction

from accounts.models import OffenceKind
from accounts.services import offence_record
from games.locks import LockedGame
from games.models import Event, Seat
from games.selectors import clean_ranked_games

logger = logging.getLogger(__name__)


def seat_left(locked: LockedGame, seat: Seat) -> None:
    """Leaving an active ranked game is an offence."""
    if locked.game.ranked and seat.player_id is not None:
        _record_after_commit(seat.player_id, locked.game.pk, OffenceKind.LEFT)


def game_ended(locked: LockedGame) -> None:
    """At a ranked game's end, each seat still away (its player never came back) that the CPU
    played for `YANIV_IDLE_OFFENCE_TURNS` turns in a row or more is an idling offence."""
    assert not locked.unsaved, "the last move's events are saved before they are counted"
    if not locked.game.ranked:
        return
    for seat in locked.seats:
        if seat.player_id is None or not seat.away or seat.left:
            continue
        if _turns_away(locked, seat.seat) >= settings.YANIV_IDLE_OFFENCE_TURNS:
            _record_after_commit(seat.player_id, locked.game.pk, OffenceKind.IDLE)


def _turns_away(locked: LockedGame, seat: int) -> int:
    """The seat's turns played since it was last marked away (the missed one included)."""
    events = Event.objects.filter(game_id=locked.game.pk, payload__seat=seat)
    last_away = events.filter(type="player_away").order_by("-id").values_list("id", flat=True)
    since = last_away.first()
    if since is None:
        return 0
    return events.filter(type="played", id__gt=since).count()


# Tries of an offence's record: PostgreSQL may pick its transaction as a deadlock's victim (seen
# under bench.bots' load, several idle offences recorded at once), and a victim is rolled back
# whole, so trying again is safe; the record is once per player and game anyway.
RECORD_TRIES = 3


def _record_after_commit(player_id: UUID, game_id: UUID, kind: OffenceKind) -> None:
    def clean_games(since: datetime) -> int:
        return clean_ranked_games(player_id, since=since)

    def record() -> None:
        for tried in range(1, RECORD_TRIES + 1):
            try:
                offence_record(
                    player_id=player_id, game_id=game_id, kind=kind, clean_games=clean_games
                )
                return
            except OperationalError:
                if tried == RECORD_TRIES:
                    raise
                logger.warning("offence of %s in %s: tried again", player_id, game_id)

    transaction.on_commit(record, robust=True)

"""A rematch of a finished private table (docs/api.md, Rematch): any seated human offers one,
every other seated human accepts or declines, and when all have accepted a new table starts
with the same seats (CPU seats too) and rules, rotated by one seat, so that a different seat
sits first. An offer lapses after YANIV_REMATCH_SECONDS (its task writes `rematch_expired`;
until then a read already shows it expired), and the table then starts with the seats that
accepted and the CPU seats, when they are two or more: nobody who did not accept is seated.
Every step is an event of the finished game, so its sockets are told (`rematch_offered`,
`rematch_accepted`, `rematch_declined`, `rematch_expired`, `rematch_started` with the new
game's id) and its event log keeps them, and where a rematch stands is folded from those
events alone: `rematch_state` reads it, `rematch_answer` and `rematch_expire` write.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import get_args
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from core.errors import ApplicationError
from games import notify
from games.locks import LockedGame
from games.models import Event, Game, GameStatus, Seat
from games.payloads import EventType, RematchData
from games.selectors import player_active_game_id
from games.services.lobby import game_start, new_invite_code

# What a new seat keeps of the old one: everything that says who sits there and how the CPU
# plays it (a CPU level, when seats have one), not what happened in the game.
_NOT_COPIED = {"id", "game", "seat", "away", "left", "score", "eliminated", "place", "live"}
_REMATCH_EVENTS = tuple(name for name in get_args(EventType) if name.startswith("rematch_"))


def rematch_state(game: Game, seats: list[Seat]) -> RematchData:
    """Where the rematch of a game stands, as `GET /games/{id}/rematch/` shows it."""
    return _fold(game, seats)[0]


def _state(locked: LockedGame) -> tuple[RematchData, int | None]:
    data, offer = _fold(locked.game, locked.seats)
    return data, None if offer is None else offer.pk


def _rematch_events(game: Game) -> list[Event]:
    return list(game.events.filter(type__in=_REMATCH_EVENTS).order_by("id"))


def _fold(game: Game, seats: list[Seat]) -> tuple[RematchData, Event | None]:
    """Where the rematch of a game stands after its rematch events, and the open offer's
    event (None when no offer is open). An open offer past its `expires_at` is `expired`
    already, whether or not its timeout has written `rematch_expired` yet."""
    data: RematchData = {
        "status": "none",
        "offered_by": None,
        "accepted": [],
        "waiting_for": [],
        "expires_at": None,
        "game_id": None,
    }
    offer: Event | None = None
    for event in _rematch_events(game):
        if event.type == "rematch_offered":
            offer = event
            data["status"], data["offered_by"] = "offered", event.payload["seat"]
            data["accepted"] = [event.payload["seat"]]
            data["expires_at"] = event.payload["expires_at"]
        elif event.type == "rematch_accepted" and offer is not None:
            data["accepted"] = [*data["accepted"], event.payload["seat"]]
        elif event.type in {"rematch_declined", "rematch_expired"}:
            offer = None
            data["status"] = "declined" if event.type == "rematch_declined" else "expired"
        elif event.type == "rematch_started":
            offer = None
            data["status"], data["game_id"] = "started", event.payload["game_id"]
    if offer is not None and datetime.fromisoformat(offer.payload["expires_at"]) <= timezone.now():
        offer = None
        data["status"] = "expired"
    if data["status"] == "offered":
        humans = [seat.seat for seat in seats if seat.player_id is not None]
        data["waiting_for"] = [seat for seat in humans if seat not in data["accepted"]]
    return data, offer


def rematch_answer(*, game_id: UUID | str, player: Player, accept: bool) -> RematchData:
    """A seated player's answer: offer a rematch, accept the open offer (`accept`), or decline
    it (`not accept`). A lapsed offer is settled first, in a transaction of its own, so that
    the table it starts stands whatever this request is then refused."""
    rematch_expire(game_id=game_id)
    return _answer_locked(game_id=game_id, player=player, accept=accept)


@transaction.atomic
def _answer_locked(*, game_id: UUID | str, player: Player, accept: bool) -> RematchData:
    locked = LockedGame.lock(game_id)
    seat = locked.seat_of(player)
    game = locked.game
    if game.ranked:
        raise ApplicationError(
            "ranked_game", _("Rematches are for private tables: queue again for ranked."), 409
        )
    if game.status != GameStatus.FINISHED:
        raise ApplicationError("not_finished", _("A rematch is offered once the game ends."), 409)
    data, offer = _state(locked)
    if data["status"] == "started":
        raise ApplicationError(
            "rematch_started",
            _("The rematch has started already."),
            409,
            extra={"game_id": data["game_id"]},
        )
    if not accept:
        if offer is None:
            raise ApplicationError("no_rematch_offer", _("There is no rematch offer open."), 409)
        locked.append("rematch_declined", seat=seat.seat)
    elif seat.seat not in data["accepted"]:
        if player_active_game_id(player) is not None:
            raise ApplicationError(
                "in_game", _("You are already at a table: finish or leave it first."), 409
            )
        if offer is None:
            _offer(locked, seat)
        else:
            locked.append("rematch_accepted", seat=seat.seat)
        data, offer = _state(locked)
        if data["status"] == "offered" and not data["waiting_for"]:
            _start(locked)
    notify.game_update(locked)
    return _state(locked)[0]


def _offer(locked: LockedGame, seat: Seat) -> None:
    from games import tasks  # tasks import the services

    expires_at = timezone.now() + timedelta(seconds=settings.YANIV_REMATCH_SECONDS)
    locked.append("rematch_offered", seat=seat.seat, expires_at=expires_at.isoformat())
    key = (str(locked.game.pk), locked.new_events[-1].pk)
    # robust: a lost task only leaves the event unwritten; reads show the offer expired anyway.
    transaction.on_commit(
        lambda: tasks.rematch_expire.apply_async(key, eta=expires_at), robust=True
    )


def _start(locked: LockedGame, accepted: list[int] | None = None) -> None:
    """The new table: the old seats rotated by one, seated, then started by the host. With
    `accepted` (an offer that lapsed), only those seats and the CPU seats, the host the first
    of them to have accepted when the old host did not."""
    old = locked.game
    seats = [
        seat
        for seat in locked.seats[1:] + locked.seats[:1]
        if accepted is None or seat.player_id is None or seat.seat in accepted
    ]
    host = old.host
    if accepted is not None and not any(seat.player_id == old.host_id for seat in seats):
        host = next(locked.seats[number].player for number in accepted)
    assert host is not None  # a private table's host sits at it; an offer has an offerer
    new = Game.objects.create(
        max_players=old.max_players,
        rules=old.rules,
        host=host,
        invite_code=new_invite_code(),
    )
    fields = [f.name for f in Seat._meta.concrete_fields if f.name not in _NOT_COPIED]
    try:
        with transaction.atomic():
            Seat.objects.bulk_create(
                Seat(
                    game=new,
                    seat=index,
                    live=seat.player_id is not None,
                    **{name: getattr(seat, name) for name in fields},
                )
                for index, seat in enumerate(seats)
            )
    except IntegrityError as error:
        raise ApplicationError(
            "in_game", _("A player of this table has since sat down at another one."), 409
        ) from error
    game_start(game_id=new.pk, player=host)
    locked.append("rematch_started", game_id=str(new.pk))


@transaction.atomic
def rematch_expire(*, game_id: UUID | str, offer_id: int | None = None) -> bool:
    """The offer's timeout (`offer_id`'s, or whichever is open): `rematch_expired` if it is
    still open and past its time, then the table of those who accepted. Idempotent."""
    locked = LockedGame.try_lock(game_id)
    if locked is None or locked.game.status != GameStatus.FINISHED:
        return False
    events = _rematch_events(locked.game)
    if not events or events[-1].type not in {"rematch_offered", "rematch_accepted"}:
        return False  # no offer open
    offer = next(event for event in reversed(events) if event.type == "rematch_offered")
    if offer_id is not None and offer.pk != offer_id:
        return False
    if datetime.fromisoformat(offer.payload["expires_at"]) > timezone.now():
        return False
    accepted = _state(locked)[0]["accepted"]
    locked.append("rematch_expired")
    cpus = sum(seat.player_id is None for seat in locked.seats)
    if len(accepted) + cpus >= 2:
        try:
            with transaction.atomic():
                _start(locked, accepted)
        except ApplicationError:
            pass  # one of them sat down elsewhere meanwhile: the offer just lapses
    notify.game_update(locked)
    return True

"""`LockedGame`: the one place a game row is locked, and what a transaction does under the lock.

Every write to a game takes its row lock here (docs/architecture.md's house rules, Saleor's one
place for locks), and a transaction locks one existing game (a matchmaking pass also locks the games
it creates, which no other transaction sees before its commit), so no two can wait on each other's
game locks and there is no order to keep; the seats are only written under their game's lock. The
sweeper locks with SKIP LOCKED, leaving a game another worker holds to that worker. (Rating a game,
games/services/rating.py, also locks its players' earlier finished games that still wait for their
rating: under the ratings lock, which lets one rating transaction run at a time, and finished games
take no moves, so those locks cannot wait on each other either.)

What a transaction writes goes through the locked game too (its events, its state, its seats),
so that it knows what it appended (`new_events`: what games/notify.py publishes after the
commit) and the state it left. It carries that state parsed: the row's JSON is read into a
`GameState` at most once per transaction, the first time it is asked for, and the state the
engine returns replaces it. So the response and every viewer's push after the commit are built
from the same object the move produced: parsing (~20 us) costs more than applying a move
(~1 us), and a move at a four-player table used to parse it six times
(tests/games/test_locks.py counts).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from core.errors import ApplicationError
from core.perf.sql import Columns, fetch, insert, query, update
from games.engine.state import EngineEvent, GameState
from games.models import Event, Game, GameStatus, Seat
from games.payloads import GameData
from games.projection import game_payload, viewer_seat
from games.selectors import game_seats

_GAME, _EVENT = Columns(Game, "g"), Columns(Event, "e")
# Every move runs this (core/perf/sql.py: why in SQL): the game row, locked, and its last
# event (its seats: selectors.game_seats).
_LOCK_SQL = query(
    "SELECT {g.select},"
    " (SELECT e.id FROM {e.table} WHERE e.game_id = g.id ORDER BY e.id DESC LIMIT 1)"
    " FROM {g.table} WHERE g.id = %s FOR UPDATE OF g",
    g=_GAME,
    e=_EVENT,
)


class LockedGame:
    """A game row locked in the current transaction, with its seats (in order), its state,
    and the events this transaction appended (after `last_event_id`, the game's last event
    when it was locked)."""

    def __init__(self, game: Game, seats: list[Seat], last_event_id: int) -> None:
        self.game = game
        self.seats = seats
        self.last_event_id = last_event_id
        self.new_events: list[Event] = []
        self.published = False  # games/notify.py sends it once, after the commit
        # Each viewer's `game` as games/notify.py encoded it for the pushes, after the commit:
        # the mover's answer is the same bytes (games/apis.py).
        self.encoded: dict[int | None, bytes] = {}
        self._state: GameState | None = None

    @classmethod
    def lock(cls, game_id: UUID | str) -> LockedGame:
        """The game, locked until the transaction ends; 404 `not_found` when there is none."""
        locked = cls.try_lock(game_id)
        if locked is None:
            raise ApplicationError("not_found", _("No such game."), 404)
        return locked

    @classmethod
    def try_lock(cls, game_id: UUID | str, *, skip_locked: bool = False) -> LockedGame | None:
        """The game locked, or None when there is none (or, with `skip_locked`, when another
        transaction holds it: the sweeper leaves that game to it)."""
        try:
            key = game_id if isinstance(game_id, UUID) else UUID(game_id)
        except (ValueError, TypeError, AttributeError):
            return None
        sql = _LOCK_SQL + " SKIP LOCKED" if skip_locked else _LOCK_SQL
        for game, last_event_id in fetch(sql, [key], _GAME):
            return cls(game, game_seats(game), last_event_id or 0)
        return None

    @property
    def state(self) -> GameState | None:
        """The engine's state of the game (None while it waits for players), parsed from the
        row the first time it is asked for."""
        if self._state is None and self.game.state is not None:
            self._state = GameState.from_dict(self.game.state)
        return self._state

    def playing_state(self) -> GameState:
        """The state of a game that has started."""
        state = self.state
        assert state is not None, "a started game has a state"
        return state

    def set_state(self, state: GameState) -> None:
        """The state from now on (the row's `state` is written by the next `save("state")`)."""
        self._state = state
        self.game.state = state.to_dict()

    def seat_of(self, player: Player) -> Seat:
        index = viewer_seat(self.seats, player)
        if index is None:
            raise ApplicationError("not_seated", _("You do not have a seat at this game."), 403)
        return self.seats[index]

    def payload(self, seat: int | None) -> GameData:
        """The `game` object as `seat` sees it (None: a stranger)."""
        return game_payload(self.game, self.state, self.seats, seat)

    def payload_for(self, player: Player | None) -> GameData:
        return self.payload(viewer_seat(self.seats, player))

    def append(self, event_type: str, **payload: Any) -> None:
        """Append one event at the game's current seq."""
        self.append_all(
            [Event(game=self.game, seq=self.game.seq, type=event_type, payload=payload)]
        )

    def append_all(self, events: list[Event]) -> None:
        """Append these events (of this game) in one statement."""
        insert(events)
        self.new_events.extend(events)

    def record(self, state: GameState, events: list[EngineEvent], *, by: str | None) -> None:
        """Store what an engine call gave: its events (`played` ones marked `by` whom), the new
        state, and what the state says of the seats (scores, eliminations and, once the game
        is over, places) and of the game (finished). `by` None: the deal, not a move, so `seq`
        stays; a move ("player", "cpu") bumps it. The caller saves the game row."""
        game = self.game
        if by is not None:
            game.seq += 1
        self.append_all(
            [
                Event(
                    game=game,
                    seq=game.seq,
                    type=event["type"],
                    payload=_payload(event, by),
                )
                for event in events
            ]
        )
        self.set_state(state)
        setup = state.setup
        fields = []
        if any(seat.score != setup.totals[seat.seat] for seat in self.seats):  # a round ended
            for seat in self.seats:
                seat.score = setup.totals[seat.seat]
                seat.eliminated = setup.out_round[seat.seat] is not None
            fields += ["score", "eliminated"]
        if setup.standings is not None:
            game.status = GameStatus.FINISHED
            game.finished_at = timezone.now()
            for number, place in setup.standings:
                self.seats[number].place = place
            for seat in self.seats:
                seat.live = False
            fields += ["place", "live"]
        if fields:
            self.save_seats(*fields)

    def save(self, *fields: str) -> None:
        """Write these fields of the game row (the rest, rules, host, invite code..., stays)."""
        update(self.game, fields)

    # Seats: every write of a seat row goes through these, under the game's lock.

    def add_seat(self, **fields: Any) -> Seat:
        """A new seat at the end of the table (`IntegrityError` when the player already has a
        live seat elsewhere: the partial unique index)."""
        seat = Seat.objects.create(game=self.game, seat=len(self.seats), **fields)
        self.seats.append(seat)
        return seat

    def remove_seat(self, seat: Seat) -> None:
        """Free a seat of a waiting table; the seats after it move up one."""
        seat.delete()
        self.seats.remove(seat)
        for index, other in enumerate(self.seats):
            other.seat = index
        self.save_seats("seat")

    def save_seats(self, *fields: str, seats: list[Seat] | None = None) -> None:
        """Write these fields of the seats (default: every seat) in one statement."""
        Seat.objects.bulk_update(self.seats if seats is None else seats, list(fields))


def _payload(event: EngineEvent, by: str | None) -> dict[str, Any]:
    payload = {key: value for key, value in event.items() if key != "type"}
    if event["type"] == "played":
        payload["by"] = by
    return payload

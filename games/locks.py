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

A move is two statements under the lock, one that locks and reads, one that writes
(tests/games/test_locks.py counts them too); it was four (the lock, the seats, the events'
INSERT, the game row's UPDATE). Each statement costs a round trip and, in the web process or
the worker, Django's cursor and psycopg's call around it: about as much CPU as the rows it
carries (bench/README.md, api_moves).
- The lock is the function `games_lock` (the migration games/migrations/0011_games_lock.py): it
  locks the row, then reads the game, its last event and its seats in a statement of its own. Not
  one plain statement: in READ COMMITTED a statement reads with the snapshot of its start, and
  only the row it locks is read again once it has waited for the lock; a join or a subquery in it
  would give the seats and the last event from before the wait, without what the transaction that
  held the lock committed (a player's leaving, a seat gone away; tests/games/test_locks.py has
  that race). Each statement in a function takes a snapshot of its own, so the reads come after
  the lock. The game row comes once, the seats one row each (not the game's state once per seat),
  as the tables' own row types whose columns are read by name here.
- `record` takes an engine result's events and seats without writing them; `save`, which always
  follows it (clock.advance), writes them with the game row in one statement of
  data-modifying CTEs (core/perf/sql.py `write`). Any other write first writes what `record`
  left, so the events keep their order; games/notify.py refuses to publish a game with
  writes left.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from django.db.models import Model
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Player
from core.errors import ApplicationError
from core.perf.sql import Columns, fetch, query, write
from games.engine.state import EngineEvent, GameState
from games.models import Event, Game, GameStatus, Seat
from games.payloads import GameData
from games.projection import game_payload, viewer_seat
from games.selectors import game_key, seated
from ratings.models import Rating

# The function `games_lock` (created by the migration games/migrations/0011_games_lock.py): the game
# locked (or, with SKIP LOCKED, nothing when another transaction holds it; nothing when there is
# no such game), then its row and last event, then its seats with their players and ratings, each
# read after the lock with a snapshot of its own (the module's docstring: why).
LOCK_FUNCTION = """
CREATE OR REPLACE FUNCTION games_lock(locked_id uuid, skip_locked boolean)
RETURNS TABLE (
    game_row games_game,
    last_event_id bigint,
    seat_row games_seat,
    player_row accounts_player,
    rating_row ratings_rating
)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF skip_locked THEN
        PERFORM FROM games_game g WHERE g.id = locked_id FOR UPDATE SKIP LOCKED;
    ELSE
        PERFORM FROM games_game g WHERE g.id = locked_id FOR UPDATE;
    END IF;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- Each statement below reads with a snapshot of its own, taken now that the lock is
    -- held: it sees whatever the transaction that held the lock before committed.
    RETURN QUERY
        SELECT g,
            (SELECT e.id FROM games_event e WHERE e.game_id = g.id ORDER BY e.id DESC LIMIT 1),
            NULL::games_seat, NULL::accounts_player, NULL::ratings_rating
        FROM games_game g WHERE g.id = locked_id;
    RETURN QUERY
        SELECT NULL::games_game, NULL::bigint, s, p, r
        FROM games_seat s
        LEFT JOIN accounts_player p ON p.id = s.player_id
        LEFT JOIN ratings_rating r ON r.player_id = p.id
        WHERE s.game_id = locked_id ORDER BY s.seat;
END
$$;
"""
LOCK_FUNCTION_DROP = "DROP FUNCTION IF EXISTS games_lock(uuid, boolean);"

# Every write to a game runs this query (core/perf/sql.py: why in SQL; the module's docstring: why a
# function): the game row, locked, with its last event, then its seats with their players and
# ratings, one row each. The function returns whole rows of the tables' own types, and their
# columns are taken from those by name here, so a column added to a model is read here too.
_GAME = Columns(Game, "(t.game_row)")
_SEAT = Columns(Seat, "(t.seat_row)")
_PLAYER = Columns(Player, "(t.player_row)")
_RATING = Columns(Rating, "(t.rating_row)")
_LOCK_SQL = query(
    "SELECT {g.select}, {s.select}, {p.select}, {r.select}, t.last_event_id"
    " FROM games_lock(%s, %s) t",
    g=_GAME,
    s=_SEAT,
    p=_PLAYER,
    r=_RATING,
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
        # What `record` left for the next `save` to write with the game row.
        self._unsaved_events: list[Event] = []
        self._unsaved_seat_fields: list[str] = []

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
        key = game_key(game_id)
        if key is None:
            return None
        rows = fetch(_LOCK_SQL, [key, skip_locked], _GAME, _SEAT, _PLAYER, _RATING)
        if not rows:
            return None
        game, last_event_id = rows[0][0], rows[0][4]
        seats = [seated(game, seat, player, rating) for _, seat, player, rating, _ in rows[1:]]
        return cls(game, seats, last_event_id or 0)

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
        self._write(events)

    def record(self, state: GameState, events: list[EngineEvent], *, by: str | None) -> None:
        """Take what an engine call gave: its events (`played` ones marked `by` whom), the new
        state, and what the state says of the seats (scores, eliminations and, once the game
        is over, places) and of the game (finished). `by` None: the deal, not a move, so `seq`
        stays; a move ("player", "cpu") bumps it. The caller saves the game row, and with it
        the events and seats (one statement: `save`)."""
        game = self.game
        if by is not None:
            game.seq += 1
        self._unsaved_events += [
            Event(game=game, seq=game.seq, type=event["type"], payload=_payload(event, by))
            for event in events
        ]
        self.set_state(state)
        setup = state.setup
        fields = self._unsaved_seat_fields
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

    def save(self, *fields: str) -> None:
        """Write these fields of the game row (the rest, rules, host, invite code..., stays),
        with what `record` left to write."""
        self._write([], game_fields=fields)

    @property
    def unsaved(self) -> bool:
        """Whether `record` left writes that no `save` has made yet."""
        return bool(self._unsaved_events or self._unsaved_seat_fields)

    def _write(
        self,
        events: list[Event],
        *,
        seat_fields: Sequence[str] = (),
        seats: list[Seat] | None = None,
        game_fields: Sequence[str] = (),
    ) -> None:
        """Everything this transaction has to write now, in one statement (core/perf/sql.py
        `write`): the events `record` left, then `events`; the seats' fields `record` changed
        (every seat), or `seat_fields` of `seats` (default: every seat); `game_fields` of the
        game row."""
        if seat_fields and self._unsaved_seat_fields:
            self._write([])  # two UPDATEs of one row must not share a statement
        events = self._unsaved_events + events
        updates: list[tuple[Sequence[Model], Sequence[str]]] = []
        if self._unsaved_seat_fields:
            updates.append((self.seats, list(dict.fromkeys(self._unsaved_seat_fields))))
        if seat_fields:
            updates.append((self.seats if seats is None else seats, seat_fields))
        if game_fields:
            updates.append(([self.game], game_fields))
        self._unsaved_events, self._unsaved_seat_fields = [], []
        write(insert=events, updates=updates)
        self.new_events += events

    # Seats: every write of a seat row goes through these, under the game's lock.

    def add_seat(self, **fields: Any) -> Seat:
        """A new seat at the end of the table (`IntegrityError` when the player already has a
        live seat elsewhere: the partial unique index)."""
        self._write([])
        seat = Seat.objects.create(game=self.game, seat=len(self.seats), **fields)
        self.seats.append(seat)
        return seat

    def remove_seat(self, seat: Seat) -> None:
        """Free a seat of a waiting table; the seats after it move up one."""
        self._write([])
        seat.delete()
        self.seats.remove(seat)
        for index, other in enumerate(self.seats):
            other.seat = index
        self.save_seats("seat")

    def save_seats(self, *fields: str, seats: list[Seat] | None = None) -> None:
        """Write these fields of the seats (default: every seat) in one statement."""
        self._write([], seat_fields=fields, seats=seats)


def _payload(event: EngineEvent, by: str | None) -> dict[str, Any]:
    payload = {key: value for key, value in event.items() if key != "type"}
    if event["type"] == "played":
        payload["by"] = by
    return payload

"""Every write to a game. One transaction per action (STYLE.md):

lock the game row, check `seq`, apply the action through the engine, append its events, bump
`seq`, and only after the commit notify the sockets and schedule what follows (the next CPU
move, the turn deadline). Nothing here replays the log: the game row holds the current state.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import Player
from config.errors import ApplicationError
from config.sql import Columns, fetch, insert, query, update
from games import notify
from games.engine.cpu import cpu_action
from games.engine.errors import IllegalMove, InvalidRules
from games.engine.state import Action, CallYaniv, GameState, Play, apply, start_game
from games.models import Event, Game, GameStatus, Seat
from games.selectors import game_payload, game_seats, viewer_seat
from games.table_rules import TableRules

# Shuffles and the first starter: never `random` (STYLE.md).
RNG = secrets.SystemRandom()
# How long past its think time a CPU turn may wait before the sweeper plays it: covers a lost
# task (a worker killed mid-game) without racing a healthy one.
CPU_GRACE = timedelta(seconds=5)
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


@dataclass
class Table:
    """A locked game with its seats, inside the current transaction, and the events this
    transaction appended (after `last_event_id`, the game's last event when it was locked)."""

    game: Game
    seats: list[Seat]
    last_event_id: int = 0
    new_events: list[Event] = field(default_factory=list)
    published: bool = False  # games/notify.py sends it once, after the commit

    def seat_of(self, player: Player) -> Seat:
        index = viewer_seat(self.seats, player)
        if index is None:
            raise ApplicationError("not_seated", "You do not have a seat at this game.", 403)
        return self.seats[index]

    def payload_for(self, player: Player | None) -> dict[str, Any]:
        return game_payload(self.game, self.seats, viewer_seat(self.seats, player))


def _lock(game_id: UUID | str) -> Table:
    """The one place a game row is locked (its seats are only written under this lock)."""
    table = _try_lock(game_id, skip_locked=False)
    if table is None:
        raise ApplicationError("not_found", "No such game.", 404)
    return table


_GAME, _EVENT = Columns(Game, "g"), Columns(Event, "e")
# Every move runs this (config/sql.py: why in SQL): the game row, locked, and its last event.
_LOCK_SQL = query(
    "SELECT {g.select},"
    " (SELECT e.id FROM {e.table} WHERE e.game_id = g.id ORDER BY e.id DESC LIMIT 1)"
    " FROM {g.table} WHERE g.id = %s FOR UPDATE OF g",
    g=_GAME,
    e=_EVENT,
)


def _try_lock(game_id: UUID | str, *, skip_locked: bool) -> Table | None:
    """The locked game, or None when there is none (or, with `skip_locked`, another
    transaction holds it)."""
    try:
        key = game_id if isinstance(game_id, UUID) else UUID(game_id)
    except (ValueError, TypeError, AttributeError):
        return None
    sql = _LOCK_SQL + " SKIP LOCKED" if skip_locked else _LOCK_SQL
    for game, last_event_id in fetch(sql, [key], _GAME):
        return Table(game, game_seats(game), last_event_id=last_event_id or 0)
    return None


def _append(table: Table, event_type: str, **payload: Any) -> None:
    game = table.game
    event = Event(game=game, seq=game.seq, type=event_type, payload=payload)
    insert([event])
    table.new_events.append(event)


def _take_live_seat(create: Callable[[], Seat]) -> Seat:
    try:
        with transaction.atomic():
            return create()
    except IntegrityError as error:
        raise ApplicationError(
            "in_game", "You are already at a table: finish or leave it first.", 409
        ) from error


# Tables ---------------------------------------------------------------------------------


@transaction.atomic
def game_create(*, host: Player, max_players: int, rules: dict[str, Any]) -> Game:
    try:
        parsed = TableRules.parse(rules)
    except InvalidRules as error:
        raise ApplicationError("invalid_rules", str(error)) from error
    game = Game.objects.create(
        max_players=max_players,
        rules=parsed.to_dict(),
        host=host,
        invite_code="".join(secrets.choice(INVITE_ALPHABET) for _ in range(8)),
    )
    _take_live_seat(lambda: Seat.objects.create(game=game, seat=0, player=host))
    return game


@transaction.atomic
def game_join(*, game_id: UUID | str, player: Player, invite_code: str) -> Table:
    table = _lock(game_id)
    if viewer_seat(table.seats, player) is not None:
        return table  # joining twice is harmless
    # As bytes: compare_digest refuses non-ASCII str (a TypeError), and bytes.upper() folds
    # only ASCII letters, so no other script's lookalike (the Kelvin sign...) passes for one.
    if not secrets.compare_digest(invite_code.encode().upper(), table.game.invite_code.encode()):
        raise ApplicationError("bad_invite_code", "That invite code is not this game's.", 403)
    seat = _free_seat(table)
    table.seats.append(
        _take_live_seat(lambda: Seat.objects.create(game=table.game, seat=seat, player=player))
    )
    notify.table_changed(table)
    return table


@transaction.atomic
def game_add_cpu(*, game_id: UUID | str, player: Player) -> Table:
    table = _lock(game_id)
    _require_host(table, player)
    seat = _free_seat(table)
    table.seats.append(Seat.objects.create(game=table.game, seat=seat, is_cpu=True, live=False))
    notify.table_changed(table)
    return table


def _require_host(table: Table, player: Player) -> None:
    table.seat_of(player)
    if table.game.host_id != player.pk:
        raise ApplicationError("not_host", "Only the host can do that.", 403)


def _free_seat(table: Table) -> int:
    if table.game.status != GameStatus.WAITING:
        raise ApplicationError("not_waiting", "This game has already started.", 409)
    if len(table.seats) >= table.game.max_players:
        raise ApplicationError("game_full", "Every seat at this table is taken.", 409)
    return len(table.seats)


@transaction.atomic
def game_start(*, game_id: UUID | str, player: Player) -> Table:
    table = _lock(game_id)
    _require_host(table, player)
    if table.game.status != GameStatus.WAITING:
        raise ApplicationError("not_waiting", "This game has already started.", 409)
    if len(table.seats) < 2:
        raise ApplicationError("not_enough_players", "A game needs at least two seats.", 409)
    _begin(table)
    return table


def _begin(table: Table) -> None:
    """Deal the first round of a seated table and make it active."""
    game = table.game
    state, events = start_game(len(table.seats), TableRules.stored(game.rules).rules, RNG)
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    _append(table, "game_started", players=len(table.seats))
    _record(table, state, events, by="player")


def game_begin_ranked(*, players: list[Player]) -> Table:
    """A ranked game for a matched table: default rules, seats in random order, active.

    Called inside the matchmaking transaction, which holds the tickets' locks.
    """
    order = list(players)
    RNG.shuffle(order)
    rules = TableRules(turn_seconds=settings.YANIV_RANKED_TURN_SECONDS).to_dict()
    game = Game.objects.create(ranked=True, max_players=len(order), rules=rules)
    Seat.objects.bulk_create(
        Seat(game=game, seat=index, player=player) for index, player in enumerate(order)
    )
    table = _lock(game.pk)
    _begin(table)
    return table


# Play -----------------------------------------------------------------------------------


def parse_action(seat: int, data: dict[str, Any]) -> Action:
    if data["type"] == "yaniv":
        return CallYaniv(seat)
    return Play(seat, tuple(data["cards"]), data["draw"])


@transaction.atomic
def game_act(*, game_id: UUID | str, player: Player, seq: int, action: dict[str, Any]) -> Table:
    """A seated player's move. `seq` is the game's seq as the client last saw it."""
    table = _lock(game_id)
    seat = table.seat_of(player)
    game = table.game
    if game.status != GameStatus.ACTIVE:
        raise ApplicationError("not_active", f"This game is {game.status}, not active.", 409)
    if seq != game.seq:
        raise ApplicationError(
            "stale_seq",
            f"The game has moved on: its seq is {game.seq}, you sent {seq}.",
            409,
            extra={"game": table.payload_for(player)},
        )
    state = _state(game)
    if state.turn != seat.seat:
        raise ApplicationError("not_your_turn", "It is not your turn.", 409)
    if seat.left:
        raise ApplicationError("left", "You left this game; the CPU plays your seat.", 409)
    try:
        new_state, events = apply(state, parse_action(seat.seat, action), RNG)
    except IllegalMove as error:
        raise ApplicationError("illegal_move", error.reason.value) from error
    if seat.away:
        _return(table, seat)
    _record(table, new_state, events, by="player")
    return table


def _state(game: Game) -> GameState:
    assert game.state is not None
    return GameState.from_dict(game.state)


def _return(table: Table, seat: Seat) -> None:
    seat.away = False
    seat.save(update_fields=["away"])
    _append(table, "player_returned", seat=seat.seat)


def _record(table: Table, state: GameState, events: list[dict[str, Any]], *, by: str) -> None:
    """Store what an engine call produced; schedule what follows once it is committed."""
    game = table.game
    if any(event["type"] in ("played", "yaniv_called") for event in events):
        game.seq += 1
    rows = []
    for event in events:
        payload = {key: value for key, value in event.items() if key != "type"}
        if event["type"] == "played":
            payload["by"] = by
        rows.append(Event(game=game, seq=game.seq, type=event["type"], payload=payload))
        if event["type"] == "round_ended":
            _score_seats(table, payload)
        elif event["type"] == "game_ended":
            _finish(table, payload["standings"])
    insert(rows)
    table.new_events.extend(rows)
    game.state = state.to_dict()
    game.turn_deadline = _deadline(table, state)
    update(game, _PLAY_FIELDS)
    notify.table_changed(table)
    if game.status == GameStatus.ACTIVE and state.turn is not None:
        _schedule_turn(table, state.turn)


# What playing changes on the game row; the rest (rules, host, invite code...) is never rewritten.
_PLAY_FIELDS = ["state", "seq", "turn_deadline", "status", "started_at", "finished_at"]


def _score_seats(table: Table, result: dict[str, Any]) -> None:
    for seat in table.seats:
        seat.score = result["totals"][seat.seat]
        seat.eliminated = seat.eliminated or seat.seat in result["eliminated"]
    Seat.objects.bulk_update(table.seats, ["score", "eliminated"])


def _finish(table: Table, standings: list[dict[str, int]]) -> None:
    game = table.game
    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()
    for entry in standings:
        table.seats[entry["seat"]].place = entry["place"]
    for seat in table.seats:
        seat.live = False
    Seat.objects.bulk_update(table.seats, ["place", "live"])
    notify.game_finished(game)


def _deadline(table: Table, state: GameState) -> Any:
    game = table.game
    if game.status != GameStatus.ACTIVE or state.turn is None:
        return None
    now = timezone.now()
    if table.seats[state.turn].cpu_plays:
        return now + timedelta(seconds=settings.YANIV_CPU_THINK_SECONDS) + CPU_GRACE
    seconds = TableRules.stored(game.rules).turn_seconds
    return None if seconds is None else now + timedelta(seconds=seconds)


def _schedule_turn(table: Table, turn: int) -> None:
    from games import tasks  # tasks import this module

    game = table.game
    seat = table.seats[turn]
    key = (str(game.pk), game.seq)
    # `robust`: a task that cannot be queued (Redis down) must not turn a committed move into
    # an error; the beat sweeper plays any turn past its deadline (CPU turns: CPU_GRACE).
    if seat.cpu_plays:
        think = settings.YANIV_CPU_THINK_SECONDS
        transaction.on_commit(lambda: tasks.cpu_turn.apply_async(key, countdown=think), robust=True)
    else:
        notify.your_turn(seat, game)
        deadline = game.turn_deadline
        if deadline is not None:
            transaction.on_commit(
                lambda: tasks.turn_timeout.apply_async(key, eta=deadline), robust=True
            )


# The CPU, deadlines and absence ------------------------------------------------------------


@transaction.atomic
def game_cpu_turn(*, game_id: UUID | str, seq: int) -> bool:
    """Play the turn of a CPU-played seat. False (and nothing done) once the game moved on."""
    table = _lock(game_id)
    state = _current_turn(table, seq)
    if state is None or state.turn is None or not table.seats[state.turn].cpu_plays:
        return False
    _cpu_plays(table, state)
    return True


@transaction.atomic
def game_timeout(*, game_id: UUID | str, seq: int, skip_locked: bool = False) -> bool:
    """Enforce an overdue turn: the CPU plays it, and a human seat becomes away.

    Idempotent on (game_id, seq): False when the game has moved on or the turn is not due.
    With `skip_locked` (the sweeper), a game another worker is handling is left to it.
    """
    table = _try_lock(game_id, skip_locked=True) if skip_locked else _lock(game_id)
    if table is None:
        return False
    state = _current_turn(table, seq)
    deadline = table.game.turn_deadline
    if state is None or state.turn is None or deadline is None or deadline > timezone.now():
        return False
    seat = table.seats[state.turn]
    if not seat.cpu_plays:
        seat.away = True
        seat.save(update_fields=["away"])
        _append(table, "player_away", seat=seat.seat)
    _cpu_plays(table, state)
    return True


def _current_turn(table: Table, seq: int) -> GameState | None:
    if table.game.status != GameStatus.ACTIVE or table.game.seq != seq:
        return None
    return _state(table.game)


def _cpu_plays(table: Table, state: GameState) -> None:
    assert state.turn is not None
    new_state, events = apply(state, cpu_action(state, state.turn, RNG), RNG)
    _record(table, new_state, events, by="cpu")


def overdue_game_ids(*, limit: int = 500) -> list[tuple[str, int]]:
    """Active games past their deadline, oldest first (the partial index serves this)."""
    rows = (
        Game.objects.filter(status=GameStatus.ACTIVE, turn_deadline__lte=timezone.now())
        .order_by("turn_deadline")
        .values_list("id", "seq")[:limit]
    )
    return [(str(game_id), seq) for game_id, seq in rows]


@transaction.atomic
def game_leave(*, game_id: UUID | str, player: Player) -> Table:
    """Leave for good: the CPU plays the seat to the end, and the result counts."""
    table = _lock(game_id)
    seat = table.seat_of(player)
    game = table.game
    if game.status == GameStatus.WAITING:
        return _leave_waiting(table, seat, player)
    if game.status != GameStatus.ACTIVE or seat.left:
        return table
    _hand_to_cpu(table, seat)
    return table


def _leave_waiting(table: Table, seat: Seat, player: Player) -> Table:
    """Before the start, leaving frees the seat; a host leaving closes the table."""
    game = table.game
    if game.host_id == player.pk:
        game.status = GameStatus.ABORTED
        game.save(update_fields=["status"])
        Seat.objects.filter(game=game).update(live=False)
    else:
        seat.delete()
        table.seats.remove(seat)
        for index, other in enumerate(table.seats):
            other.seat = index
        Seat.objects.bulk_update(table.seats, ["seat"])
    notify.table_changed(table)
    return table


def _hand_to_cpu(table: Table, seat: Seat) -> None:
    game = table.game
    seat.left = True
    seat.live = False
    seat.save(update_fields=["left", "live"])
    _append(table, "player_left", seat=seat.seat)
    state = _state(game)
    if state.turn == seat.seat:
        game.turn_deadline = _deadline(table, state)
        game.save(update_fields=["turn_deadline"])
        _schedule_turn(table, seat.seat)
    notify.table_changed(table)


def player_hand_over_games(*, player: Player) -> None:
    """A banned player's live tables: the CPU takes their seats (waiting tables are left)."""
    for game_id in Seat.objects.filter(player=player, live=True).values_list("game_id", flat=True):
        game_leave(game_id=game_id, player=player)


@transaction.atomic
def game_player_returned(*, game_id: UUID | str, player: Player) -> None:
    """Opening the game's socket brings an away player back to their seat."""
    table = _lock(game_id)
    index = viewer_seat(table.seats, player)
    if index is None or table.game.status != GameStatus.ACTIVE:
        return
    seat = table.seats[index]
    if not seat.away or seat.left:
        return
    _return(table, seat)
    state = _state(table.game)
    if state.turn == seat.seat:
        # Their turn again: give them the full turn time from now.
        table.game.turn_deadline = _deadline(table, state)
        table.game.save(update_fields=["turn_deadline"])
        _schedule_turn(table, seat.seat)
    notify.table_changed(table)


@transaction.atomic
def game_void(*, game_id: UUID | str, reason: str) -> Table:
    """Staff: end a game without a result; its rating changes are rolled back."""
    table = _lock(game_id)
    game = table.game
    if game.status == GameStatus.ABORTED:
        return table
    was_rated = game.rated_at is not None
    game.status = GameStatus.ABORTED
    game.turn_deadline = None
    game.save(update_fields=["status", "turn_deadline"])
    Seat.objects.filter(game=game).update(live=False)
    _append(table, "game_voided", reason=reason)
    notify.table_changed(table)
    if was_rated:
        notify.game_voided(game)
    return table

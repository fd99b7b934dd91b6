"""Every write to a game. One transaction per action (STYLE.md):

lock the game row, check `seq`, apply the action through the engine, append its events, bump
`seq`, and only after the commit notify the sockets and schedule what follows (the next CPU
move, the turn deadline). Nothing here replays the log: the game row holds the current state.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import Player
from config.errors import ApplicationError
from games import notify
from games.engine.cpu import cpu_action
from games.engine.errors import IllegalMove, InvalidRules
from games.engine.state import Action, CallYaniv, GameState, Play, apply, start_game
from games.models import Event, Game, GameStatus, Seat
from games.selectors import viewer_seat
from games.table import LockedGame
from games.table_rules import TableRules

# Shuffles and the first starter: never `random` (STYLE.md).
RNG = secrets.SystemRandom()
# How long past its think time a CPU turn may wait before the sweeper plays it: covers a lost
# task (a worker killed mid-game) without racing a healthy one.
CPU_GRACE = timedelta(seconds=5)
INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


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
def game_join(*, game_id: UUID | str, player: Player, invite_code: str) -> LockedGame:
    locked = LockedGame.lock(game_id)
    if viewer_seat(locked.seats, player) is not None:
        return locked  # joining twice is harmless
    # As bytes: compare_digest refuses non-ASCII str (a TypeError), and bytes.upper() folds
    # only ASCII letters, so no other script's lookalike (the Kelvin sign...) passes for one.
    if not secrets.compare_digest(invite_code.encode().upper(), locked.game.invite_code.encode()):
        raise ApplicationError("bad_invite_code", "That invite code is not this game's.", 403)
    seat = _free_seat(locked)
    locked.seats.append(
        _take_live_seat(lambda: Seat.objects.create(game=locked.game, seat=seat, player=player))
    )
    notify.table_changed(locked)
    return locked


@transaction.atomic
def game_add_cpu(*, game_id: UUID | str, player: Player) -> LockedGame:
    locked = LockedGame.lock(game_id)
    _require_host(locked, player)
    seat = _free_seat(locked)
    locked.seats.append(Seat.objects.create(game=locked.game, seat=seat, is_cpu=True, live=False))
    notify.table_changed(locked)
    return locked


def _require_host(locked: LockedGame, player: Player) -> None:
    locked.seat_of(player)
    if locked.game.host_id != player.pk:
        raise ApplicationError("not_host", "Only the host can do that.", 403)


def _free_seat(locked: LockedGame) -> int:
    if locked.game.status != GameStatus.WAITING:
        raise ApplicationError("not_waiting", "This game has already started.", 409)
    if len(locked.seats) >= locked.game.max_players:
        raise ApplicationError("game_full", "Every seat at this table is taken.", 409)
    return len(locked.seats)


@transaction.atomic
def game_start(*, game_id: UUID | str, player: Player) -> LockedGame:
    locked = LockedGame.lock(game_id)
    _require_host(locked, player)
    if locked.game.status != GameStatus.WAITING:
        raise ApplicationError("not_waiting", "This game has already started.", 409)
    if len(locked.seats) < 2:
        raise ApplicationError("not_enough_players", "A game needs at least two seats.", 409)
    _begin(locked)
    return locked


def _begin(locked: LockedGame) -> None:
    """Deal the first round of a seated table and make it active."""
    game = locked.game
    state, events = start_game(len(locked.seats), TableRules.stored(game.rules).rules, RNG)
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    locked.append("game_started", players=len(locked.seats))
    _record(locked, state, events, by="player")


def game_begin_ranked(*, players: list[Player]) -> LockedGame:
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
    locked = LockedGame.lock(game.pk)
    _begin(locked)
    return locked


# Play -----------------------------------------------------------------------------------


def parse_action(seat: int, data: dict[str, Any]) -> Action:
    if data["type"] == "yaniv":
        return CallYaniv(seat)
    return Play(seat, tuple(data["cards"]), data["draw"])


@transaction.atomic
def game_act(
    *, game_id: UUID | str, player: Player, seq: int, action: dict[str, Any]
) -> LockedGame:
    """A seated player's move. `seq` is the game's seq as the client last saw it."""
    locked = LockedGame.lock(game_id)
    seat = locked.seat_of(player)
    game = locked.game
    if game.status != GameStatus.ACTIVE:
        raise ApplicationError("not_active", f"This game is {game.status}, not active.", 409)
    if seq != game.seq:
        raise ApplicationError(
            "stale_seq",
            f"The game has moved on: its seq is {game.seq}, you sent {seq}.",
            409,
            extra={"game": locked.payload_for(player)},
        )
    state = locked.playing_state()
    if state.turn != seat.seat:
        raise ApplicationError("not_your_turn", "It is not your turn.", 409)
    if seat.left:
        raise ApplicationError("left", "You left this game; the CPU plays your seat.", 409)
    try:
        new_state, events = apply(state, parse_action(seat.seat, action), RNG)
    except IllegalMove as error:
        raise ApplicationError("illegal_move", error.reason.value) from error
    if seat.away:
        _return(locked, seat)
    _record(locked, new_state, events, by="player")
    return locked


def _return(locked: LockedGame, seat: Seat) -> None:
    seat.away = False
    seat.save(update_fields=["away"])
    locked.append("player_returned", seat=seat.seat)


def _record(locked: LockedGame, state: GameState, events: list[dict[str, Any]], *, by: str) -> None:
    """Store what an engine call produced; schedule what follows once it is committed."""
    game = locked.game
    if any(event["type"] in ("played", "yaniv_called") for event in events):
        game.seq += 1
    rows = []
    for event in events:
        payload = {key: value for key, value in event.items() if key != "type"}
        if event["type"] == "played":
            payload["by"] = by
        rows.append(Event(game=game, seq=game.seq, type=event["type"], payload=payload))
        if event["type"] == "round_ended":
            _score_seats(locked, payload)
        elif event["type"] == "game_ended":
            _finish(locked, payload["standings"])
    locked.append_all(rows)
    locked.set_state(state)
    game.turn_deadline = _deadline(locked, state)
    locked.save(*_PLAY_FIELDS)
    notify.table_changed(locked)
    if game.status == GameStatus.ACTIVE and state.turn is not None:
        _schedule_turn(locked, state.turn)


# What playing changes on the game row; the rest (rules, host, invite code...) is never rewritten.
_PLAY_FIELDS = ["state", "seq", "turn_deadline", "status", "started_at", "finished_at"]


def _score_seats(locked: LockedGame, result: dict[str, Any]) -> None:
    for seat in locked.seats:
        seat.score = result["totals"][seat.seat]
        seat.eliminated = seat.eliminated or seat.seat in result["eliminated"]
    Seat.objects.bulk_update(locked.seats, ["score", "eliminated"])


def _finish(locked: LockedGame, standings: list[dict[str, int]]) -> None:
    game = locked.game
    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()
    for entry in standings:
        locked.seats[entry["seat"]].place = entry["place"]
    for seat in locked.seats:
        seat.live = False
    Seat.objects.bulk_update(locked.seats, ["place", "live"])
    notify.game_finished(game)


def _deadline(locked: LockedGame, state: GameState) -> Any:
    game = locked.game
    if game.status != GameStatus.ACTIVE or state.turn is None:
        return None
    now = timezone.now()
    if locked.seats[state.turn].cpu_plays:
        return now + timedelta(seconds=settings.YANIV_CPU_THINK_SECONDS) + CPU_GRACE
    seconds = TableRules.stored(game.rules).turn_seconds
    return None if seconds is None else now + timedelta(seconds=seconds)


def _schedule_turn(locked: LockedGame, turn: int) -> None:
    from games import tasks  # tasks import this module

    game = locked.game
    seat = locked.seats[turn]
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
    locked = LockedGame.lock(game_id)
    state = _current_turn(locked, seq)
    if state is None or state.turn is None or not locked.seats[state.turn].cpu_plays:
        return False
    _cpu_plays(locked, state)
    return True


@transaction.atomic
def game_timeout(*, game_id: UUID | str, seq: int, skip_locked: bool = False) -> bool:
    """Enforce an overdue turn: the CPU plays it, and a human seat becomes away.

    Idempotent on (game_id, seq): False when the game has moved on or the turn is not due.
    With `skip_locked` (the sweeper), a game another worker is handling is left to it.
    """
    locked = (
        LockedGame.try_lock(game_id, skip_locked=True) if skip_locked else LockedGame.lock(game_id)
    )
    if locked is None:
        return False
    state = _current_turn(locked, seq)
    deadline = locked.game.turn_deadline
    if state is None or state.turn is None or deadline is None or deadline > timezone.now():
        return False
    seat = locked.seats[state.turn]
    if not seat.cpu_plays:
        seat.away = True
        seat.save(update_fields=["away"])
        locked.append("player_away", seat=seat.seat)
    _cpu_plays(locked, state)
    return True


def _current_turn(locked: LockedGame, seq: int) -> GameState | None:
    if locked.game.status != GameStatus.ACTIVE or locked.game.seq != seq:
        return None
    return locked.playing_state()


def _cpu_plays(locked: LockedGame, state: GameState) -> None:
    assert state.turn is not None
    new_state, events = apply(state, cpu_action(state, state.turn, RNG), RNG)
    _record(locked, new_state, events, by="cpu")


def overdue_game_ids(*, limit: int = 500) -> list[tuple[str, int]]:
    """Active games past their deadline, oldest first (the partial index serves this)."""
    rows = (
        Game.objects.filter(status=GameStatus.ACTIVE, turn_deadline__lte=timezone.now())
        .order_by("turn_deadline")
        .values_list("id", "seq")[:limit]
    )
    return [(str(game_id), seq) for game_id, seq in rows]


@transaction.atomic
def game_leave(*, game_id: UUID | str, player: Player) -> LockedGame:
    """Leave for good: the CPU plays the seat to the end, and the result counts."""
    locked = LockedGame.lock(game_id)
    seat = locked.seat_of(player)
    game = locked.game
    if game.status == GameStatus.WAITING:
        return _leave_waiting(locked, seat, player)
    if game.status != GameStatus.ACTIVE or seat.left:
        return locked
    _hand_to_cpu(locked, seat)
    return locked


def _leave_waiting(locked: LockedGame, seat: Seat, player: Player) -> LockedGame:
    """Before the start, leaving frees the seat; a host leaving closes the locked."""
    game = locked.game
    if game.host_id == player.pk:
        game.status = GameStatus.ABORTED
        locked.save("status")
        Seat.objects.filter(game=game).update(live=False)
    else:
        seat.delete()
        locked.seats.remove(seat)
        for index, other in enumerate(locked.seats):
            other.seat = index
        Seat.objects.bulk_update(locked.seats, ["seat"])
    notify.table_changed(locked)
    return locked


def _hand_to_cpu(locked: LockedGame, seat: Seat) -> None:
    game = locked.game
    seat.left = True
    seat.live = False
    seat.save(update_fields=["left", "live"])
    locked.append("player_left", seat=seat.seat)
    state = locked.playing_state()
    if state.turn == seat.seat:
        game.turn_deadline = _deadline(locked, state)
        locked.save("turn_deadline")
        _schedule_turn(locked, seat.seat)
    notify.table_changed(locked)


def player_hand_over_games(*, player: Player) -> None:
    """A banned player's live tables: the CPU takes their seats (waiting tables are left)."""
    for game_id in Seat.objects.filter(player=player, live=True).values_list("game_id", flat=True):
        game_leave(game_id=game_id, player=player)


@transaction.atomic
def game_player_returned(*, game_id: UUID | str, player: Player) -> None:
    """Opening the game's socket brings an away player back to their seat."""
    locked = LockedGame.lock(game_id)
    index = viewer_seat(locked.seats, player)
    if index is None or locked.game.status != GameStatus.ACTIVE:
        return
    seat = locked.seats[index]
    if not seat.away or seat.left:
        return
    _return(locked, seat)
    state = locked.playing_state()
    if state.turn == seat.seat:
        # Their turn again: give them the full turn time from now.
        locked.game.turn_deadline = _deadline(locked, state)
        locked.save("turn_deadline")
        _schedule_turn(locked, seat.seat)
    notify.table_changed(locked)


@transaction.atomic
def game_void(*, game_id: UUID | str, reason: str) -> LockedGame:
    """Staff: end a game without a result; its rating changes are rolled back."""
    locked = LockedGame.lock(game_id)
    game = locked.game
    if game.status == GameStatus.ABORTED:
        return locked
    was_rated = game.rated_at is not None
    game.status = GameStatus.ABORTED
    game.turn_deadline = None
    locked.save("status", "turn_deadline")
    Seat.objects.filter(game=game).update(live=False)
    locked.append("game_voided", reason=reason)
    notify.table_changed(locked)
    if was_rated:
        notify.game_voided(game)
    return locked

"""What keeps a game moving: storing an engine result and what follows it, CPU turns, deadlines.

`advance` is the one way an engine result is stored (a deal or a move): the locked game
records its events and state, the next turn gets its deadline, and after the commit every
viewer is pushed the new state and the next turn is scheduled: the CPU's move after its think
time (played by the web process that took the move: `game_cpu_reply`), or a human's deadline.
The beat sweeper (`games_timeout_overdue`) is the second path for both, when a task or a
reply was lost.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core import local_tasks, metrics
from games import notify
from games.engine.cpu import DEFAULT_LEVEL, Level, cpu_action
from games.engine.state import EngineEvent, GameState, apply
from games.game_rules import GameRules
from games.locks import LockedGame
from games.models import GameStatus
from games.selectors import overdue_game_ids
from games.services import fair_play, fairness

# The CPU players' own choices (a game's deals are its fair deal's: games/services/fairness.py):
# never `random` (docs/architecture.md's house rules).
RNG = secrets.SystemRandom()
# How long past its think time a CPU turn may wait before the sweeper plays it: covers a lost
# task (a worker killed mid-game) or reply (a web process killed) without racing a healthy one.
CPU_GRACE = timedelta(seconds=5)
# The local task's name (metrics, logs) of a CPU's reply played by a web process.
CPU_REPLY = "games.game_cpu_reply"

# What an engine result changes on the game row; the rest (rules, host, invite code...) is
# never rewritten.
_PLAY_FIELDS = ("state", "seq", "turn_deadline", "status", "started_at", "finished_at")


def advance(
    locked: LockedGame,
    state: GameState,
    events: list[EngineEvent],
    *,
    by: str | None,
    schedule: bool = True,
    source: str | None = None,
) -> None:
    """Store what an engine call produced (`by`: who moved, None for a deal) and schedule
    what follows once it is committed (unless `schedule` is False: the caller plays on)."""
    locked.record(state, events, by=by)
    if by is not None:
        # `source`: what made the move when it is not `by` (a timeout's CPU move).
        metrics.MOVES_APPLIED.labels(source or by).inc()
    locked.game.turn_deadline = deadline(locked)
    locked.save(*_PLAY_FIELDS)  # the events and seats `record` took go with it
    if locked.game.status == GameStatus.FINISHED:
        notify.game_finished(locked.game)  # ratings rate it after the commit
        fair_play.game_ended(locked)  # counts the events just saved
    notify.game_update(locked)
    if schedule:
        schedule_turn(locked)


def unattended(locked: LockedGame) -> bool:
    """No human is left to play: every seat still in the game is a CPU's or was left (an away
    player may come back, so their seat still counts as attended)."""
    state = locked.state
    if state is None:
        return False
    out = state.setup.out_round
    return all(seat.is_cpu or seat.left or out[seat.seat] is not None for seat in locked.seats)


def deadline(locked: LockedGame) -> datetime | None:
    """When the turn to play now is due: a CPU's think time plus grace, a human's turn limit
    (none without one), or None when nobody is to play."""
    game, state = locked.game, locked.state
    if game.status != GameStatus.ACTIVE or state is None or state.turn is None:
        return None
    now = timezone.now()
    if locked.seats[state.turn].cpu_plays:
        return now + timedelta(seconds=settings.YANIV_CPU_THINK_SECONDS) + CPU_GRACE
    seconds = GameRules.stored(game.rules).turn_seconds
    return None if seconds is None else now + timedelta(seconds=seconds)


def restart_turn(locked: LockedGame) -> None:
    """The seat to play changed hands (it left, or its player came back): its deadline starts
    again from now and its task is scheduled anew."""
    locked.game.turn_deadline = deadline(locked)
    locked.save("turn_deadline")
    schedule_turn(locked)


def schedule_turn(locked: LockedGame) -> None:
    """After the commit: the CPU's move after its think time, or the human's deadline task
    (and a `your_turn` push)."""
    from games import tasks  # tasks import the services

    game, state = locked.game, locked.state
    if game.status != GameStatus.ACTIVE or state is None or state.turn is None:
        return
    seat = locked.seats[state.turn]
    key = (str(game.pk), game.seq)
    # `robust`: a task that cannot be queued (Redis down) must not turn a committed move into
    # an error; the beat sweeper plays any turn past its deadline (CPU turns: CPU_GRACE).
    if seat.cpu_plays and unattended(locked):
        # Nobody is left to watch the CPUs think: play on at once, in a worker (game_cpu_turn
        # then plays the game to its end).
        transaction.on_commit(lambda: tasks.game_cpu_turn.apply_async(key), robust=True)
    elif seat.cpu_plays:
        transaction.on_commit(lambda: _cpu_reply_later(key), robust=True)
    else:
        notify.your_turn(seat, game)
        due = game.turn_deadline
        if due is not None:
            transaction.on_commit(lambda: tasks.game_timeout.apply_async(key, eta=due), robust=True)


def _cpu_reply_later(key: tuple[str, int]) -> None:
    """The CPU's turn after its think time: played by this process where it runs local tasks
    (a web process: core/local_tasks.py, WEB_CPU_REPLIES), else by a worker's task."""
    from games import tasks

    think = settings.YANIV_CPU_THINK_SECONDS
    game_id, seq = key
    if settings.WEB_CPU_REPLIES and local_tasks.call_later(
        think, lambda: game_cpu_reply(game_id=game_id, seq=seq), CPU_REPLY
    ):
        return
    tasks.game_cpu_turn.apply_async(key, countdown=think)


def game_cpu_reply(*, game_id: UUID | str, seq: int) -> bool:
    """The CPU's turn at `seq`, played by the web process that took the move before it (see
    `_cpu_reply_later`): one turn. Should the table have lost its last human meanwhile, the
    rest of the game goes to a worker's task, as from `schedule_turn`."""
    from games import tasks

    played, next_seq = _cpu_turn(game_id, seq)
    if next_seq is not None:
        # Committed already, so this runs now; robust: a task that cannot be queued leaves the
        # turn to the sweeper, as in `schedule_turn`.
        transaction.on_commit(
            lambda: tasks.game_cpu_turn.apply_async((str(game_id), next_seq)), robust=True
        )
    return played


def game_cpu_turn(*, game_id: UUID | str, seq: int) -> bool:
    """Play the turn of a CPU-played seat. False (and nothing done) once the game moved on.

    At a table where no human is left to play (`unattended`), play every turn after it too,
    to the end of the game, without think time: each move in a transaction of its own, with
    the same events and pushes as one task a move, so nobody waits minutes for CPUs to finish
    twelve rounds. (Should this worker die midway, the sweeper finds the turn's deadline.)"""
    played, next_seq = _cpu_turn(game_id, seq)
    while next_seq is not None:
        _, next_seq = _cpu_turn(game_id, next_seq)
    return played


@transaction.atomic
def _cpu_turn(game_id: UUID | str, seq: int) -> tuple[bool, int | None]:
    """Play the CPU's turn at `seq`: whether it was played (not once the game moved on), and
    the seq to play on from when the table is unattended (a table once unattended stays so;
    its next turn is then left to this caller, not to a task). A game that is gone has no
    turn to play (a task queued before it went, or by a server on another database)."""
    locked = LockedGame.try_lock(game_id)
    if locked is None:
        return False, None
    state = _current_turn(locked, seq)
    if state is None or state.turn is None or not locked.seats[state.turn].cpu_plays:
        return False, None
    plays_on = unattended(locked)
    _cpu_plays(locked, state, schedule=not plays_on)
    active = locked.game.status == GameStatus.ACTIVE
    return True, locked.game.seq if plays_on and active else None


@transaction.atomic
def game_timeout(*, game_id: UUID | str, seq: int, skip_locked: bool = False) -> bool:
    """Enforce an overdue turn: the CPU plays it, and a human seat becomes away.

    Idempotent on (game_id, seq): False when the game has moved on or the turn is not due.
    With `skip_locked` (the sweeper), a game another worker is handling is left to it; a game
    that is gone has no turn to enforce.
    """
    locked = LockedGame.try_lock(game_id, skip_locked=skip_locked)
    if locked is None:
        return False
    state = _current_turn(locked, seq)
    due = locked.game.turn_deadline
    if state is None or state.turn is None or due is None or due > timezone.now():
        return False
    seat = locked.seats[state.turn]
    if not seat.cpu_plays:
        seat.away = True
        locked.save_seats("away", seats=[seat])
        locked.append("player_away", seat=seat.seat)
    _cpu_plays(locked, state, source="timeout")
    return True


def games_timeout_overdue() -> int:
    """Enforce every overdue turn, whatever happened to its task (the beat sweeper): how many
    were. A game another worker holds is left to it."""
    handled = 0
    for game_id, seq in overdue_game_ids():
        handled += game_timeout(game_id=game_id, seq=seq, skip_locked=True)
    metrics.OVERDUE_TURNS.inc(handled)
    return handled


def _current_turn(locked: LockedGame, seq: int) -> GameState | None:
    if locked.game.status != GameStatus.ACTIVE or locked.game.seq != seq:
        return None
    return locked.playing_state()


def _cpu_plays(
    locked: LockedGame, state: GameState, *, schedule: bool = True, source: str = "cpu"
) -> None:
    assert state.turn is not None
    level = Level(locked.seats[state.turn].playing_level or DEFAULT_LEVEL)
    action = cpu_action(state, state.turn, RNG, level)
    new_state, events = apply(state, action, fairness.chance(locked))
    advance(locked, new_state, events, by="cpu", schedule=schedule, source=source)

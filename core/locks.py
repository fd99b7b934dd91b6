"""The PostgreSQL advisory locks, named in one place, and the lock order across the apps.

An advisory lock is a key, not a row: every transaction that takes the same key waits for the
one holding it (`advisory_xact_lock`), or gives up at once (`try_advisory_xact_lock`), and the
lock goes with the transaction's commit or rollback. The keys are here so that two features
never share one by accident (`AdvisoryLock` is `unique`).

Each app takes its row locks in one module (accounts/locks.py, matchmaking/locks.py,
games/locks.py, ratings' lock module, moderation/locks.py, seasons/locks.py, social/locks.py,
chat/locks.py), rows of one table in pk order.
Across apps a transaction takes its locks in this order, and never one that comes earlier
than one it holds, so no two transactions wait on each other:

1. an advisory lock (the matchmaking pass, the ratings), at most one;
2. a player (accounts): a ticket is queued under its player's lock, and a ban is set under it;
   or two players, in pk order (social: a friend request, its acceptance, a block); or a
   chat message's author (chat: a post, counted against the flood limits);
3. tickets (matchmaking), in pk order; or a tournament's row (tournaments: a pass, a join, a
   game's points), or the one table a pass decided that is being made (its pending row); or a
   challenge (social: its answer; an acceptance locks its two players first, then makes the
   table);
4. one game (games, `LockedGame`: one existing game per transaction; a matchmaking pass also
   locks the games it creates, which no other transaction sees before its commit). Rating a
   game locks it after the ratings' advisory lock;
5. a report (moderation): resolving one locks its reported player first (a ban may follow).
6. seed pairs (accounts, in pk order): a game's start takes its human seats' pairs after the
   game's row (or a ranked table's, before its seats exist); `PATCH /me` locks the caller's
   alone. No transaction holding a pair waits for any other lock.

The current season's row (seasons) is locked only under the ratings' advisory lock, which every
transaction that locks it holds first: they run one at a time, so a season may be locked after
a game (a game rated after its season's end rolls the season over) and games after it (the
rollover rates the season's last games).

What follows a commit (a ban's receivers, a finished game's rating) runs in a transaction of
its own and starts again from the top.
"""

from __future__ import annotations

from enum import IntEnum, unique

from django.db import connection


@unique
class AdvisoryLock(IntEnum):
    """Every advisory lock key of the database (any fixed numbers, spelled in ASCII)."""

    # "YANIVMM": every matchmaking pass, so that passes never overlap however many workers run.
    MATCHMAKING_PASS = 0x59414E49564D4D
    # "yaniv_rt": every rating write, one at a time (ratings/services.py says why).
    RATINGS = 0x7961_6E69_765F_7274


def advisory_xact_lock(key: AdvisoryLock) -> None:
    """Wait for `key`, then hold it until the transaction ends."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int(key)])


def try_advisory_xact_lock(key: AdvisoryLock) -> bool:
    """Hold `key` until the transaction ends if no other transaction holds it: whether it did."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [int(key)])
        row = cursor.fetchone()
    return bool(row and row[0])

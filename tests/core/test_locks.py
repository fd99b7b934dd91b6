"""core/locks.py: the advisory locks, named once; and the rule that every lock of an app is
taken in one module of it (core/locks.py says the order across apps)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection, transaction

from core.locks import AdvisoryLock, advisory_xact_lock, try_advisory_xact_lock

ROOT = Path(__file__).resolve().parents[2]

# The one module per app where its locks are taken.
LOCK_MODULES = {
    "accounts": "accounts/locks.py",
    "games": "games/locks.py",
    "matchmaking": "matchmaking/locks.py",
    "moderation": "moderation/locks.py",
    "seasons": "seasons/locks.py",
    "tournaments": "tournaments/locks.py",
    "social": "social/locks.py",
    "chat": "chat/locks.py",
    "core": "core/locks.py",
}
ADVISORY_MODULES = {"core/locks.py"}
# Not the project's rows: a bench's own table, locked to time a lock at its barest.
BENCH_LOCKS = {"bench/floor.py"}

ROW_LOCK = re.compile(r"select_for_update|\bFOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE)\b", re.IGNORECASE)
ADVISORY = re.compile(r"pg_(try_)?advisory", re.IGNORECASE)


def _sources() -> dict[str, str]:
    """Every Python module of the project but its tests (and what is not the project's)."""
    return {
        str(path.relative_to(ROOT)): path.read_text()
        for path in ROOT.glob("**/*.py")
        if path.relative_to(ROOT).parts[0] not in {".venv", "var", "tests"}
    }


def _taking(pattern: re.Pattern[str]) -> set[str]:
    return {name for name, text in _sources().items() if pattern.search(text)}


def test_every_row_lock_is_taken_in_its_apps_lock_module() -> None:
    assert _taking(ROW_LOCK) <= set(LOCK_MODULES.values()) | BENCH_LOCKS
    assert _taking(ROW_LOCK) >= {"accounts/locks.py", "games/locks.py", "matchmaking/locks.py"}


def test_every_advisory_lock_is_taken_in_core_locks() -> None:
    assert _taking(ADVISORY) <= ADVISORY_MODULES
    assert "core/locks.py" in _taking(ADVISORY)


def test_the_search_finds_a_lock_wherever_it_is_written(tmp_path: Path) -> None:
    """The patterns catch each way of writing one (so the tests above cannot pass blind)."""
    written = [
        "Ticket.objects.select_for_update(skip_locked=True)",
        'cursor.execute("SELECT 1 FROM t WHERE id = %s FOR UPDATE")',
        '" FOR NO KEY UPDATE OF g"',
        '"select * from t for share"',
    ]
    assert all(ROW_LOCK.search(text) for text in written)
    assert ADVISORY.search('"SELECT pg_try_advisory_xact_lock(%s)"')
    assert not ROW_LOCK.search("for updates to the state, see above")


def test_the_keys_are_todays_numbers() -> None:
    """Changing one would let an old process and a new one run side by side unlocked."""
    assert int(AdvisoryLock.MATCHMAKING_PASS) == 0x59414E49564D4D
    assert int(AdvisoryLock.RATINGS) == 0x7961_6E69_765F_7274
    assert all(0 < key < 2**63 for key in AdvisoryLock)  # PostgreSQL's bigint


def _other_session() -> psycopg.Connection[Any]:
    params = connection.get_connection_params()
    info = {key: params[key] for key in ("dbname", "user", "host", "port") if key in params}
    return psycopg.connect(**info, autocommit=True)


@pytest.mark.django_db(transaction=True)
def test_a_held_key_is_refused_to_a_try_and_given_once_it_is_released() -> None:
    """The other session holds its keys in transactions too: a session-level lock would stay
    on the server connection behind PgBouncer (`make test-pgbouncer`), which may be this
    test's next, and a key is held again at once by the session holding it."""
    other = _other_session()
    matchmaking, ratings = int(AdvisoryLock.MATCHMAKING_PASS), int(AdvisoryLock.RATINGS)
    try:
        with other.transaction():
            other.execute("SELECT pg_advisory_xact_lock(%s)", [matchmaking])
            with transaction.atomic():
                assert not try_advisory_xact_lock(AdvisoryLock.MATCHMAKING_PASS)
                assert try_advisory_xact_lock(AdvisoryLock.RATINGS)  # another key: free
        with transaction.atomic():
            assert try_advisory_xact_lock(AdvisoryLock.MATCHMAKING_PASS)
            advisory_xact_lock(AdvisoryLock.RATINGS)
            # Held by this transaction until it ends: the other session is refused meanwhile.
            with other.transaction():
                [(taken,)] = other.execute(
                    "SELECT pg_try_advisory_xact_lock(%s)", [ratings]
                ).fetchall()
            assert not taken
        with other.transaction():
            [(taken,)] = other.execute("SELECT pg_try_advisory_xact_lock(%s)", [ratings]).fetchall()
        assert taken
    finally:
        other.close()

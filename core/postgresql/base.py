"""The database backend (config/settings.py ENGINE): Django's PostgreSQL backend, whose pool
checks a connection it hands out only when the server has said something to it.

Replaces: the check Django gives psycopg's pool with CONN_HEALTH_CHECKS (`check_connection`, an
empty query before every checkout).
Why: every request and every task takes a connection from the pool once, so that check was a
round trip to PostgreSQL per request, some 15% of a `GET /games/{id}/` answered 304 (issue 34).
A server that ends a session (a restart, `pg_terminate_backend`, PgBouncer closing it, an idle
timeout) tells the client so (an error message, then the end of the stream) or closes the
socket: either way the idle connection's socket turns readable, which `select` sees without a
round trip. Such a connection gets the full check (which fails, and the pool replaces it); a
silent one is handed out as is. What neither check can see, a network cut with no word from
the server, fails at the first query either way, as a connection already handed out does.

Relies on (tests/core/test_postgresql.py): Django's `pool` property makes a psycopg_pool
`ConnectionPool` with `check=ConnectionPool.check_connection` when CONN_HEALTH_CHECKS is on,
which keeps it as `_check` and calls it for each connection it hands out.
"""

from __future__ import annotations

import select
from typing import Any

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


def check_connection(conn: Any) -> None:
    """The pool's check of an idle connection: the library's own (an empty query) only when
    the server has sent it something since it was last used."""
    if _has_input(conn):
        ConnectionPool.check_connection(conn)


def _has_input(conn: Any) -> bool:
    try:
        readable, _, _ = select.select([conn.fileno()], [], [], 0)
    except (OSError, ValueError):  # closed already
        return True
    return bool(readable)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> ConnectionPool | None:
        # (django-stubs know no `pool`.)
        pool: ConnectionPool | None = super().pool  # type: ignore[misc]
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = check_connection
        return pool

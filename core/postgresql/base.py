"""The database backend (config/settings.py ENGINE): Django's PostgreSQL backend, whose pool
checks a connection it hands out only when the server has said something to it, and whose JSON
columns are written by orjson.

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

JSON written: Django hands a `JSONField` value (a game's state, an event's payload) to
psycopg as `Jsonb(value, dumps=json.dumps)` (`DatabaseOperations.adapt_json_value`), the
standard library's encoder in Python: some 4% of a worker's CPU under load, the state of every
move (bench/README.md, "JSON to and from PostgreSQL"). `json_dumps` writes it with orjson, in C:
the same document to PostgreSQL, which keeps `jsonb` parsed, not as the text it was sent. A
value orjson refuses (an integer past 64 bits) goes to `json.dumps` as before, and so does a
field with an encoder of its own. (tests/core/test_postgresql.py)
"""

from __future__ import annotations

import json
import select
from typing import Any

import orjson
from django.db.backends.postgresql import base, operations
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

# What json.dumps refuses, orjson refuses too (a datetime, a dataclass: TypeError either way);
# keys that are not strings become strings, as json.dumps makes them.
_DUMPS_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


def json_dumps(value: Any) -> bytes | str:
    """A JSON column's value as psycopg sends it: orjson's bytes, `json.dumps`'s text for what
    orjson cannot write (an integer past 64 bits; its TypeError for what neither can)."""
    try:
        return orjson.dumps(value, option=_DUMPS_OPTIONS)
    except orjson.JSONEncodeError:
        return json.dumps(value)


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


class DatabaseOperations(operations.DatabaseOperations):
    def adapt_json_value(self, value: Any, encoder: type[json.JSONEncoder] | None) -> Any:
        if encoder is not None:
            return super().adapt_json_value(value, encoder)
        return Jsonb(value, dumps=json_dumps)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    @property
    def pool(self) -> ConnectionPool | None:
        # (django-stubs know no `pool`.)
        pool: ConnectionPool | None = super().pool  # type: ignore[misc]
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = check_connection
        return pool

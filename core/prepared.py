"""Whether psycopg prepares the statements a connection runs again and again
(`DB_PREPARE_THRESHOLD`, docs/configuration.md; docs/operations.md, PgBouncer).

A statement run `threshold` times on a connection is then prepared on it: PostgreSQL parses and
plans it once, and the next runs send only its name and parameters. The game's hot statements
(the lock, the seats, the token, the event appended) are the same few texts thousands of times
on each connection: PostgreSQL's CPU per move falls by some 40% (bench/README.md, api_moves).

A prepared statement lives on one server connection. Direct to PostgreSQL each process's
connection is its own; behind PgBouncer in transaction pooling the next transaction may run on
another server connection, which does not know it, unless PgBouncer tracks them
(`max_prepared_statements`, 1.21+; psycopg also sends `DEALLOCATE ALL` after every rollback,
which PgBouncer understands from 1.22). So they are on by default direct, off by default behind
`DATABASE_POOLER=pgbouncer`, and a number given says the pooler can take them.

Pure (no Django settings read): config/settings.py calls it while being read.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

# psycopg's own default: a statement run at most a few times (a migration's, a command's) is
# never prepared, and one prepared statement per hot text per connection.
DEFAULT = 5
OFF = "off"


def prepare_threshold(value: str, *, pooler: str, server_side_binding: bool) -> int | None:
    """psycopg's `prepare_threshold` for `DB_PREPARE_THRESHOLD`'s `value` ("" when unset),
    `DATABASE_POOLER`'s `pooler` and `DB_SERVER_SIDE_BINDING`: the runs after which a statement
    is prepared, or None for never."""
    text = value.strip().lower()
    if text == OFF:
        return None
    if text == "":
        # psycopg's client-side binding cursor (Django's without server_side_binding) never
        # prepares: None says so rather than a threshold that does nothing.
        return DEFAULT if server_side_binding and not pooler else None
    try:
        threshold = int(text)
    except ValueError:
        raise ImproperlyConfigured(
            f"DB_PREPARE_THRESHOLD: {value!r} (a number of runs, 1 or more, or {OFF!r})"
        ) from None
    if threshold < 1:
        # psycopg's 0 prepares a statement at its first run, and a text of several statements
        # (a migration's, a flush's) cannot be prepared: "cannot insert multiple commands into
        # a prepared statement". From 1 on, such a text runs once unprepared and is left out.
        raise ImproperlyConfigured(
            f"DB_PREPARE_THRESHOLD: {value!r} (1 or more: 0 would prepare texts of several"
            " statements, which PostgreSQL refuses)"
        )
    if not server_side_binding:
        raise ImproperlyConfigured(
            "DB_PREPARE_THRESHOLD needs DB_SERVER_SIDE_BINDING (psycopg prepares only the"
            " statements whose parameters the server binds)"
        )
    return threshold

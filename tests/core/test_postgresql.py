"""The pool's check (core/postgresql/base.py): no round trip for a connection the server has
said nothing to, the full check (and a new connection) for one the server ended."""

from __future__ import annotations

import time
from typing import Any
from unittest import mock

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from core.postgresql.base import check_connection


def _conninfo() -> dict[str, Any]:
    params = connection.get_connection_params()
    return {key: params[key] for key in ("dbname", "user", "host", "port") if key in params}


@pytest.fixture
def pool() -> Any:
    pool = ConnectionPool(
        kwargs=_conninfo(), min_size=1, max_size=1, check=check_connection, open=True
    )
    pool.wait(10)
    yield pool
    pool.close()


def _pid(pool: ConnectionPool) -> int:
    with pool.connection() as conn:
        row = conn.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        return int(row[0])


@pytest.mark.django_db
def test_the_projects_pool_checks_with_it() -> None:
    pool = connection.pool  # type: ignore[attr-defined]
    assert pool is not None  # the suite runs with DB_POOL on
    assert pool._check is check_connection


@pytest.mark.django_db
def test_a_silent_connection_is_handed_out_without_a_query(pool: ConnectionPool) -> None:
    first = _pid(pool)
    with mock.patch.object(ConnectionPool, "check_connection") as full:
        assert _pid(pool) == first
    full.assert_not_called()


@pytest.mark.django_db
def test_a_connection_the_server_ended_is_replaced(pool: ConnectionPool) -> None:
    first = _pid(pool)
    with psycopg.connect(**_conninfo(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [first])
    time.sleep(0.2)  # the server's notice reaches the idle connection's socket
    with mock.patch.object(
        ConnectionPool, "check_connection", wraps=ConnectionPool.check_connection
    ) as full:
        second = _pid(pool)
    assert full.call_count >= 1
    assert second != first


@pytest.mark.django_db
def test_json_columns_are_written_by_orjson() -> None:
    """The backend writes a JSON column's value with orjson, not `json.dumps`, and reads back
    the same document; what orjson cannot write goes to `json.dumps` as before."""
    from games.models import Game  # a model with JSON columns

    state: dict[Any, Any] = {"turn": 1, "hands": [["AS", "JK"]], "name": "\u05d9\u05e0\u05d9\u05d1"}
    state[3] = None  # a key json.dumps makes a string
    with mock.patch("json.dumps", side_effect=AssertionError("json.dumps")):
        game = Game.objects.create(max_players=2, rules={"call_limit": 7}, state=state)
    game.refresh_from_db()
    assert game.state == {
        "turn": 1,
        "hands": [["AS", "JK"]],
        "name": "\u05d9\u05e0\u05d9\u05d1",
        "3": None,
    }
    Game.objects.filter(pk=game.pk).update(state={"big": 2**70})
    game.refresh_from_db()
    assert game.state == {"big": 2**70}
    with pytest.raises(TypeError):
        Game.objects.filter(pk=game.pk).update(state={"when": time})  # neither can write it
